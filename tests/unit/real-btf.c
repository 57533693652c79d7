// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Second layer: the resolver against the real .BTF of Debian's kernel
 * images, when cached (the VM harness fills the cache):
 *   ${MAGIC_KFUNC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/magic-kfunc}/kernels/<id>/vmlinux.btf
 * Expected decisions follow what Debian's images ship (docs/design.md, section 1). A missing file is a loud skip
 * (a failure under MKF_STRICT=1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "magic_kfunc_introspect.h"
#include "fixtures.h"
#include "kernel_index.h"
#include "object.h"
#include "resolve.h"
#include "unit.h"

enum kid { K612D12, K612D13, K616, K617, K618, K619, K70, K73, K_CNT };

static const char *const kernel_ids[K_CNT] = {
	"6.12-deb12", "6.12-deb13", "6.16", "6.17", "6.18", "6.19", "7.0", "7.3",
};

/*
 * One expected outcome; rule 0 marks "not present in this table row".
 * Rules by the design's numbers (docs/design.md, section 3), 1-5 bound, 6 left alone (rule_of()).
 */
struct outcome {
	int rule;
	const char *kernel_name;
	int delta;
	__u32 set_regs;		/* registers set before each call */
};

struct row {
	const char *what;
	const char *ext;
	enum fx_shape shape;
	bool weak;
	struct outcome k[K_CNT];
};

#define WQ "bpf_wq_set_callback"
#define WQI "bpf_wq_set_callback_impl"
#define ST "bpf_stream_vprintk"
#define STI "bpf_stream_vprintk_impl"
#define TW "bpf_task_work_schedule_signal"
#define TWI "bpf_task_work_schedule_signal_impl"
#define LEAVE { 6, NULL, 0, 0 }
#define LPB "bpf_list_push_back_impl"
#define R4 (1u << 4)

/* The design's rule numbers, as the library names them. */
static enum mkf_rule rule_of(int n)
{
	static const enum mkf_rule rules[] = {
		[1] = MKF_RULE_SAME, [2] = MKF_RULE_EXTEND, [3] = MKF_RULE_SHRINK,
		[4] = MKF_RULE_IMPL_EXTEND, [5] = MKF_RULE_IMPL_SAME, [6] = MKF_RULE_NONE,
	};

	return n > 0 && n < 7 ? rules[n] : (enum mkf_rule)-1;
}

static const struct row rows[] = {
	{ "7.x-style bpf_wq_set_callback", WQ, SH_WQ_NEW, true, {
		[K612D12] = { 4, WQI, 1, 0 }, [K612D13] = { 4, WQI, 1, 0 }, [K616] = { 4, WQI, 1, 0 },
		[K617] = { 4, WQI, 1, 0 }, [K618] = { 4, WQI, 1, 0 }, [K619] = { 4, WQI, 1, 0 },
		[K70] = { 1, WQ, 0, 0 }, [K73] = { 1, WQ, 0, 0 } } },
	{ "6.x-style bpf_wq_set_callback_impl(..., NULL)", WQI, SH_WQ_OLD, false, {
		[K612D12] = { 5, WQI, 0, 0 }, [K612D13] = { 5, WQI, 0, 0 }, [K616] = { 5, WQI, 0, 0 },
		[K617] = { 5, WQI, 0, 0 }, [K618] = { 5, WQI, 0, 0 }, [K619] = { 5, WQI, 0, 0 },
		[K70] = { 3, WQ, -1, 0 }, [K73] = { 3, WQ, -1, 0 } } },
	{ "4-arg bpf_stream_vprintk", ST, SH_STREAM_NEW, true, {
		[K612D12] = LEAVE, [K612D13] = LEAVE, [K616] = LEAVE,
		[K617] = { 2, ST, 1, 0 }, [K618] = { 4, STI, 1, 0 }, [K619] = { 4, STI, 1, 0 },
		[K70] = { 1, ST, 0, 0 }, [K73] = { 1, ST, 0, 0 } } },
	{ "6.17's 5-arg bpf_stream_vprintk(..., NULL)", ST, SH_STREAM_617, true, {
		[K612D12] = LEAVE, [K612D13] = LEAVE, [K616] = LEAVE,
		[K617] = { 1, ST, 0, 0 }, [K618] = { 5, STI, 0, 0 }, [K619] = { 5, STI, 0, 0 },
		[K70] = { 3, ST, -1, 0 }, [K73] = { 3, ST, -1, 0 } } },
	{ "4-arg bpf_task_work_schedule_signal", TW, SH_TW_NEW, true, {
		[K612D12] = LEAVE, [K612D13] = LEAVE, [K616] = LEAVE, [K617] = LEAVE,
		[K618] = { 4, TWI, 1, 0 }, [K619] = { 4, TWI, 1, 0 },
		[K70] = { 1, TW, 0, 0 }, [K73] = { 1, TW, 0, 0 } } },
	{ "7.2-style bpf_obj_new(type_id)", "bpf_obj_new", SH_OBJ_NEW, false, {
		[K612D12] = { 4, "bpf_obj_new_impl", 1, 0 }, [K612D13] = { 4, "bpf_obj_new_impl", 1, 0 },
		[K616] = { 4, "bpf_obj_new_impl", 1, 0 }, [K617] = { 4, "bpf_obj_new_impl", 1, 0 },
		[K618] = { 4, "bpf_obj_new_impl", 1, 0 }, [K619] = { 4, "bpf_obj_new_impl", 1, 0 },
		[K70] = { 4, "bpf_obj_new_impl", 1, 0 }, [K73] = { 1, "bpf_obj_new", 0, 0 } } },
	{ "7.2-style bpf_list_push_back(head, node)", "bpf_list_push_back", SH_LIST_NEW, true, {
		[K612D12] = { 4, LPB, 2, R4 }, [K612D13] = { 4, LPB, 2, R4 },
		[K616] = { 4, LPB, 2, R4 }, [K617] = { 4, LPB, 2, R4 },
		[K618] = { 4, LPB, 2, R4 }, [K619] = { 4, LPB, 2, R4 },
		[K70] = { 4, LPB, 2, R4 }, [K73] = { 1, "bpf_list_push_back", 0, 0 } } },
	{ "legacy bpf_list_push_back_impl", "bpf_list_push_back_impl", SH_LIST_OLD, false, {
		[K612D12] = { 5, "bpf_list_push_back_impl", 0, 0 },
		[K612D13] = { 5, "bpf_list_push_back_impl", 0, 0 },
		[K616] = { 5, "bpf_list_push_back_impl", 0, 0 },
		[K617] = { 5, "bpf_list_push_back_impl", 0, 0 },
		[K618] = { 5, "bpf_list_push_back_impl", 0, 0 },
		[K619] = { 5, "bpf_list_push_back_impl", 0, 0 },
		[K70] = { 5, "bpf_list_push_back_impl", 0, 0 },
		[K73] = { 3, "bpf_list_push_back", -2, 0 } } },
};

#ifndef MKF_BPF_OBJDIR
#define MKF_BPF_OBJDIR "tests/bpf"
#endif

/*
 * The compiled test objects, rewritten for this kernel and reopened by
 * libbpf (open only): the wq extern binds as row 0 / row 1 expect and
 * the programs survive.
 */
static void check_object(const struct mkf_kernel *k, const char *id, const char *object,
			 const char *ext, const struct outcome *want)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "real");
	const struct mkf_plan_entry *e = NULL;
	struct mkf_plan *plan = NULL;
	struct bpf_object *obj = NULL;
	void *buf = NULL, *out = NULL;
	size_t sz = 0, out_sz = 0;
	const char *kn;
	char name[256];
	int err = -1;

	snprintf(name, sizeof(name), "%s: %s.bpf.o rewritten and reopened", id, object);
	t_read_bpf_object(object, &buf, &sz);
	plan = sz ? t_plan(buf, sz, k, NULL) : NULL;
	e = plan ? mkf_plan__find_entry(plan, ext) : NULL;
	if (e)
		err = t_rewrite(buf, sz, plan, &out, &out_sz, NULL);
	if (!err)
		obj = bpf_object__open_mem(out, out_sz, &opts);
	kn = e ? mkf_plan_entry__kernel_name(e) : NULL;
	t_check(name, obj && bpf_object__find_program_by_name(obj, "set_wq") && kn &&
		!strcmp(kn, want->kernel_name) && mkf_plan_entry__param_delta(e) == want->delta,
		"%s", e ? mkf_plan_entry__reason(e) : "no plan or object");
	bpf_object__close(obj);
	mkf_plan__free(plan);
	free(out);
	free(buf);
}

static void cache_path(const char *id, char *buf, size_t sz)
{
	const char *cache = getenv("MAGIC_KFUNC_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (cache && *cache)
		snprintf(buf, sz, "%s/kernels/%s/vmlinux.btf", cache, id);
	else if (xdg && *xdg)
		snprintf(buf, sz, "%s/magic-kfunc/kernels/%s/vmlinux.btf", xdg, id);
	else
		snprintf(buf, sz, "%s/.cache/magic-kfunc/kernels/%s/vmlinux.btf",
			 home ? home : "", id);
}

/* The resolver's decision in words, as a plan's reason starts. */
static char *say(const struct mkf_resolution *res, const struct btf *lb,
		 const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm)
{
	struct mkf_sb sb = {};

	mkf_resolution_say(res, lb, ext, lbm, &sb);
	return mkf_sb_steal(&sb) ?: strdup("(out of memory)");
}

static void check_row(const struct mkf_kernel *k, const char *id, const struct row *r,
		      const struct outcome *want)
{
	struct mkf_extern ext = {};
	struct mkf_resolution res;
	struct fx_local l;
	char name[256], *reason;
	int proto, fn;
	bool ok;

	snprintf(name, sizeof(name), "%s: %s", id, r->what);
	if (fx_local_init(&l)) {
		t_fail(name, "fixture setup failed");
		return;
	}
	fn = fx_local_extern(&l, r->ext, r->shape, &proto);
	ext.name = (char *)r->ext;
	ext.essential = (char *)r->ext;
	ext.func_id = fn;
	ext.proto_id = proto;
	ext.weak = r->weak;
	if (mkf_resolve(k, l.btf, &ext, mkf_libbpf_model_linked(), &res)) {
		t_fail(name, "mkf_resolve failed");
		btf__free(l.btf);
		return;
	}
	reason = say(&res, l.btf, &ext, mkf_libbpf_model_linked());
	ok = res.rule == rule_of(want->rule) && res.set_regs == want->set_regs &&
	     !res.target == !want->kernel_name &&
	     (!res.target || (!strcmp(res.target->name, want->kernel_name) &&
			      res.delta == want->delta));
	t_check(name, ok, "want rule %s -> %s (%+d), set_regs %#x; got set_regs %#x: %s",
		mkf_rule_str(rule_of(want->rule)),
		want->kernel_name ? want->kernel_name : "(left alone)", want->delta, want->set_regs,
		res.set_regs, reason);
	if (getenv("MKF_TEST_VERBOSE"))
		printf("%s", reason);
	free(reason);
	mkf_resolution_free(&res);
	btf__free(l.btf);
}

int main(void)
{
	char path[4096], name[256];
	size_t i, j;

	t_quiet_library();
	for (i = 0; i < K_CNT; i++) {
		MKF_OPTS(mkf_kernel_opts, opts, .vmlinux_path = path);
		struct mkf_kernel *k;

		cache_path(kernel_ids[i], path, sizeof(path));
		if (access(path, R_OK)) {
			t_skip(kernel_ids[i], "no cached BTF at %s (%s): the VM harness fills this "
			       "cache; %zu cases not run", path, strerror(errno),
			       sizeof(rows) / sizeof(rows[0]) + 4);
			continue;
		}
		k = mkf_kernel__load(&opts);
		snprintf(name, sizeof(name), "%s: BTF loads", kernel_ids[i]);
		if (!t_check(name, k != NULL, "%s: %s", path, strerror(errno)))
			continue;
		/* Debian 12's 6.12 was built by pahole 1.24: no kfunc tags at all. */
		snprintf(name, sizeof(name), "%s: kfunc tags %s", kernel_ids[i],
			 i == K612D12 ? "absent" : "present");
		t_check(name, mkf_kernel__has_kfunc_tags(k) == (i != K612D12), "tags %s",
			mkf_kernel__has_kfunc_tags(k) ? "present" : "absent");
		for (j = 0; j < sizeof(rows) / sizeof(rows[0]); j++)
			check_row(k, kernel_ids[i], &rows[j], &rows[j].k[i]);
		check_object(k, kernel_ids[i], "unit_wq_new", WQ, &rows[0].k[i]);
		check_object(k, kernel_ids[i], "unit_wq_old", WQI, &rows[1].k[i]);
		mkf_kernel__free(k);
	}
	return t_done();
}
