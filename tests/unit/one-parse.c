// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * An open passes the object's bytes through each stage once: its
 * section headers are walked once for the DWARF, it is parsed once
 * (libelf and its .BTF), the plan is made on that parse and applied to
 * it, and the rewritten output is read back once, its .BTF as the
 * writer already parsed it. Counted at the library's calls into libelf
 * (elf_memory) and libbpf (btf__new), linked with --wrap, from the
 * start of mkf_object__open_mem() until it hands libbpf the result
 * (bpf_object__open_mem). Opens only, never loads.
 *
 * And it puts the resolver's decisions into words only for whoever
 * reads them (the log, a plan handed out): counted at the library's
 * calls into mkf_resolution_say().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libelf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "magic_kfunc.h"
#include "fixtures.h"
#include "resolve.h"
#include "unit.h"

static bool counting;
static int elf_reads, btf_parses, says;

Elf *__real_elf_memory(char *image, size_t size);
struct btf *__real_btf__new(const void *data, __u32 size);
struct bpf_object *__real_bpf_object__open_mem(const void *obj_buf, size_t obj_buf_sz,
					       const struct bpf_object_open_opts *opts);

Elf *__wrap_elf_memory(char *image, size_t size)
{
	elf_reads += counting;
	return __real_elf_memory(image, size);
}

struct btf *__wrap_btf__new(const void *data, __u32 size)
{
	btf_parses += counting;
	return __real_btf__new(data, size);
}

void __real_mkf_resolution_say(const struct mkf_resolution *res, const struct btf *local_btf,
			       const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm,
			       struct mkf_sb *out);

void __wrap_mkf_resolution_say(const struct mkf_resolution *res, const struct btf *local_btf,
			       const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm,
			       struct mkf_sb *out)
{
	says++;
	__real_mkf_resolution_say(res, local_btf, ext, lbm, out);
}

/* libbpf's own parse of the result is not the library's to count. */
struct bpf_object *__wrap_bpf_object__open_mem(const void *obj_buf, size_t obj_buf_sz,
					       const struct bpf_object_open_opts *opts)
{
	counting = false;
	return __real_bpf_object__open_mem(obj_buf, obj_buf_sz, opts);
}

/* Open buf with mo, counting; true if it opened. */
static bool counted_open(const void *buf, size_t sz, const struct mkf_open_opts *mo)
{
	struct bpf_object *obj;

	elf_reads = btf_parses = says = 0;
	counting = true;
	t_log_reset();
	obj = mkf_object__open_mem(buf, sz, NULL, mo);
	counting = false;
	bpf_object__close(obj);
	return obj != NULL;
}

/*
 * unit_wq_new on a 6.16 kernel: bpf_wq_set_callback binds
 * bpf_wq_set_callback_impl, its prototype extended with a kernel type
 * (rule impl-extend): an edit of the symbols and of the .BTF.
 */
static void test_open(const void *buf, size_t sz, const struct mkf_kernel *k)
{
	MKF_OPTS(mkf_open_opts, mo, .kernel = k);
	bool opened = counted_open(buf, sz, &mo);

	t_check("a rewriting open opens", opened && strstr(t_log, "impl-extend"), "errno %d: %s",
		errno, t_log);
	/* DWARF ranges, the object, the output. */
	t_check("a rewriting open: libelf reads the object once and the output once (and "
		"walks the headers once for the DWARF)", elf_reads == 3, "%d elf_memory() calls",
		elf_reads);
	/* The object's .BTF, the kernel types imported, the output's .BTF. */
	t_check("a rewriting open: each BTF is parsed once (object, imports, output)",
		btf_parses == 3, "%d btf__new() calls", btf_parses);
}

static void test_cache_hit(const void *buf, size_t sz, const char *kpath, const char *cdir)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	struct mkf_kernel *k = mkf_kernel__load(&ko);
	MKF_OPTS(mkf_open_opts, mo, .kernel = k, .cache_dir = cdir);
	bool first = k && counted_open(buf, sz, &mo), hit = k && counted_open(buf, sz, &mo);

	mkf_kernel__free(k);

	t_check("a cache hit opens from the cache", first && hit &&
		strstr(t_log, "from the rewrite cache"), "errno %d: %s", errno, t_log);
	/* The DWARF ranges the cache found serve the parse. */
	t_check("a cache hit: libelf reads the object once and the output once (and walks the "
		"headers once for the DWARF)", elf_reads == 3, "%d elf_memory() calls", elf_reads);
	/* The object's .BTF, the entry's types, the output's .BTF. */
	t_check("a cache hit: each BTF is parsed once (object, entry's types, output)",
		btf_parses == 3, "%d btf__new() calls", btf_parses);
}

/* Words for the resolver's decisions: only for a reader. */
static void test_words(const void *buf, size_t sz, const struct mkf_kernel *k)
{
	MKF_OPTS(mkf_open_opts, mo, .kernel = k);
	struct mkf_object *obj;
	struct mkf_plan *plan;
	bool opened;
	size_t i, n, worded = 0;

	mkf_set_print(NULL);
	opened = counted_open(buf, sz, &mo);
	t_check("no log, no plan handed out: no reason is put into words", opened && !says,
		"opened %d, %d reasons made", opened, says);
	says = 0;
	obj = mkf_object__new(buf, sz, NULL);
	plan = obj ? mkf_plan__compute(obj, k, NULL) : NULL;
	n = mkf_plan__entry_cnt(plan);
	for (i = 0; i < n; i++)
		worded += mkf_plan_entry__reason(mkf_plan__entry(plan, i)) != NULL;
	t_check("a plan handed out: every entry has its reason", n && worded == n &&
		says == (int)n, "%zu of %zu entries, %d reasons made", worded, n, says);
	mkf_plan__free(plan);
	mkf_object__free(obj);
	mkf_set_print(t_log_capture);
	opened = counted_open(buf, sz, &mo);
	t_check("a log callback: the log gets the reasons", opened && says > 0 &&
		strstr(t_log, "extern 'bpf_wq_set_callback'"), "opened %d, %d reasons made: %s",
		opened, says, t_log);
}

/*
 * The object handle: read once, planned for two kernels, rewritten for
 * one; only the rewrite's output is read again.
 */
static void test_handle(const void *buf, size_t sz, const struct mkf_kernel *k,
			const struct mkf_kernel *k70)
{
	struct mkf_plan *p616 = NULL, *p70 = NULL;
	struct mkf_object *obj;
	int reads_new, parses_new, err = -1;
	void *out = NULL;
	size_t out_sz;

	elf_reads = btf_parses = 0;
	counting = true;
	obj = mkf_object__new(buf, sz, NULL);
	reads_new = elf_reads;
	parses_new = btf_parses;
	if (obj) {
		p616 = mkf_plan__compute(obj, k, NULL);
		p70 = mkf_plan__compute(obj, k70, NULL);
	}
	/* Its bytes are its own: read in place, no image without the DWARF to make. */
	t_check("the handle: reading it reads the object once, parses its .BTF once",
		obj && reads_new == 1 && parses_new == 1,
		"%d elf_memory(), %d btf__new() calls", reads_new, parses_new);
	t_check("the handle: planning for two kernels reads nothing again",
		p616 && p70 && elf_reads == reads_new, "%d elf_memory() calls", elf_reads);
	if (p616)
		err = mkf_object__rewrite(obj, p616, &out, &out_sz, NULL);
	counting = false;
	t_check("the handle: the rewrite reads only its output back", !err &&
		elf_reads == reads_new + 1, "err %d, %d elf_memory() calls", err, elf_reads);
	free(out);
	mkf_plan__free(p616);
	mkf_plan__free(p70);
	mkf_object__free(obj);
}

int main(void)
{
	char dir[] = "/tmp/mkf-one-parse-XXXXXX", kpath[4200], cdir[4200];
	struct btf *kb = fx_kernel(FX_616);
	struct mkf_kernel *k = kb ? mkf_kernel__new(kb) : NULL;
	void *buf = NULL;
	size_t sz = 0;

	mkf_set_print(t_log_capture);
	libbpf_set_print(NULL);
	if (t_read_bpf_object("unit_wq_new", &buf, &sz) || !k || !mkdtemp(dir)) {
		t_fail("setup", "%s", buf ? "no kernel or directory" : "cannot read unit_wq_new");
		return t_done();
	}
	test_open(buf, sz, k);
	test_words(buf, sz, k);
	{
		struct btf *kb70 = fx_kernel(FX_70);
		struct mkf_kernel *k70 = kb70 ? mkf_kernel__new(kb70) : NULL;

		test_handle(buf, sz, k, k70);
		mkf_kernel__free(k70);
		btf__free(kb70);
	}
	snprintf(kpath, sizeof(kpath), "%s/vmlinux.btf", dir);
	snprintf(cdir, sizeof(cdir), "%s/cache", dir);
	if (t_write_btf(kpath, kb))
		t_fail("setup", "cannot write %s", kpath);
	else
		test_cache_hit(buf, sz, kpath, cdir);
	if (system((snprintf(kpath, sizeof(kpath), "rm -rf '%s'", dir), kpath)))
		t_fail("cleanup", "cannot remove %s", dir);
	mkf_kernel__free(k);
	btf__free(kb);
	free(buf);
	return t_done();
}
