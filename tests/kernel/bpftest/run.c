// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * One case: open the object, load only the named program with its
 * verifier log captured, then check what the case declares. Every
 * declared check prints exactly one ok/FAIL line whatever happens, so a
 * report always has the same number of lines and a lost check shows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpftest.h"
#include "guest.h"

/* Enough for the level-1 log of any test program; a full log fails the load. */
static char vlog[1 << 20];

static void show_logs(void)
{
	bt_print_indented("verifier log", vlog, 60);
	bt_print_indented("libbpf messages", bt_logs_text(), 30);
}

/* Fail each check that follows a successful load once, saying why. */
static void fail_after_load(const struct bt_case *c, const char *why)
{
	int i;

	for (i = 0; i < c->nr_attach; i++)
		guest_fail("%s: %s attached: not reached (%s)", c->label, c->attach[i], why);
	if (c->check_retval)
		guest_fail("%s: test run: not reached (%s)", c->label, why);
	for (i = 0; i < c->nr_maps; i++)
		guest_fail("%s: %s[%u]: not reached (%s)", c->label, c->maps[i].map, c->maps[i].key,
			   why);
}

static const char *cache_word(int expect)
{
	return expect == BT_CACHE_HIT ? "hit" : "miss";
}

/* Whether the open took the object from the rewrite cache, as expected. */
static void check_cache(const struct bt_case *c)
{
	const char *log = bt_logs_text();
	int got = strstr(log, "from the rewrite cache") || strstr(log, "the rewrite cache has it") ?
		  BT_CACHE_HIT : BT_CACHE_MISS;

	if (!c->expect_cache)
		return;
	guest_check(got == (int)c->expect_cache, "%s: rewrite cache %s (got a %s)", c->label,
		    cache_word(c->expect_cache), cache_word(got));
}

/*
 * Nothing could be checked: fail each declared check once, saying why
 * (the cache's too unless CACHE_CHECKED).
 */
static void fail_all(const struct bt_case *c, const char *why, bool cache_checked)
{
	int i;

	if (c->expect_cache && !cache_checked)
		guest_fail("%s: rewrite cache %s: not reached (%s)", c->label,
			   cache_word(c->expect_cache), why);

	if (c->expect_fail) {
		guest_fail("%s: load refused: not reached (%s)", c->label, why);
		for (i = 0; i < BT_MAX_MSGS && c->verifier_msg[i]; i++)
			guest_fail("%s: verifier log has \"%s\": not reached (%s)", c->label,
				   c->verifier_msg[i], why);
		for (i = 0; i < BT_MAX_MSGS && c->libbpf_msg[i]; i++)
			guest_fail("%s: libbpf said \"%s\": not reached (%s)", c->label,
				   c->libbpf_msg[i], why);
		return;
	}
	guest_fail("%s: loads: not reached (%s)", c->label, why);
	fail_after_load(c, why);
}

static void check_refused(const struct bt_case *c, const char *stage, int err)
{
	bool bad = false;
	int i;

	if (!err) {
		bad = true;
		guest_fail("%s: %s refused: it loaded", c->label, stage);
	} else if (c->err) {
		bad = err != c->err;
		guest_check(!bad, "%s: %s refused with -%s (want -%s)", c->label, stage,
			    bt_errname(err), bt_errname(c->err));
	} else {
		guest_ok("%s: %s refused with -%s", c->label, stage, bt_errname(err));
	}

	for (i = 0; i < BT_MAX_MSGS && c->verifier_msg[i]; i++) {
		bool has = strstr(vlog, c->verifier_msg[i]);

		bad |= !has;
		guest_check(has, "%s: verifier log has \"%s\"", c->label, c->verifier_msg[i]);
	}
	for (i = 0; i < BT_MAX_MSGS && c->libbpf_msg[i]; i++) {
		bool has = strstr(bt_logs_text(), c->libbpf_msg[i]);

		bad |= !has;
		guest_check(has, "%s: libbpf said \"%s\"", c->label, c->libbpf_msg[i]);
	}
	if (bad)
		show_logs();
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static bool is_percpu(enum bpf_map_type t)
{
	return t == BPF_MAP_TYPE_PERCPU_ARRAY || t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH || t == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
}

/*
 * Poll MAP[KEY] until it holds the value: a callback runs asynchronously.
 * PROG_ID is the ID of the case's program, for checks relative to it.
 */
static void check_map(const struct bt_case *c, const struct bt_map_check *m,
		      struct bpf_object *obj, __u32 prog_id, const struct bt_opts *o)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, m->map);
	__u64 want = m->value + (m->plus_prog_id ? prog_id : 0);
	long long start = now_ms(), waited;
	__u64 got = 0;
	__u32 size;
	int fd;

	if (!map) {
		guest_fail("%s: %s[%u]: no such map in %s", c->label, m->map, m->key, c->obj);
		return;
	}
	size = bpf_map__value_size(map);
	/* A per-CPU map would copy one value per CPU into the 8 bytes below. */
	if (bpf_map__key_size(map) != sizeof(m->key) || (size != 4 && size != 8) ||
	    is_percpu(bpf_map__type(map))) {
		guest_fail("%s: %s[%u]: want a map with 4-byte keys and 4- or 8-byte values, "
			   "not per-CPU", c->label, m->map, m->key);
		return;
	}
	fd = bpf_map__fd(map);
	for (;;) {
		__u64 v = 0;	/* a 4-byte value lands in the low half (x86 is little-endian) */

		if (bpf_map_lookup_elem(fd, &m->key, &v)) {
			guest_fail("%s: %s[%u]: lookup failed: %s", c->label, m->map, m->key,
				   strerror(errno));
			return;
		}
		got = v;
		waited = now_ms() - start;
		if (got == want || waited >= o->wait_ms)
			break;
		usleep(10000);
	}
	if (m->plus_prog_id)
		guest_check(prog_id && got == want,
			    "%s: %s[%u] = %#llx after %lld ms (want program ID %u + %#llx)",
			    c->label, m->map, m->key, (unsigned long long)got, waited, prog_id,
			    (unsigned long long)m->value);
	else
		guest_check(got == want, "%s: %s[%u] = %#llx after %lld ms (want %#llx)", c->label,
			    m->map, m->key, (unsigned long long)got, waited,
			    (unsigned long long)want);
}

/* The kernel's ID of a loaded program, 0 if it cannot be read. */
static __u32 prog_id_of(int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	/* libbpf 1.1 lacks bpf_prog_get_info_by_fd(). */
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.id;
}

/* Program types that BPF_PROG_TEST_RUN only runs on a packet. */
static bool wants_packet(enum bpf_prog_type t)
{
	return t == BPF_PROG_TYPE_SCHED_CLS || t == BPF_PROG_TYPE_SCHED_ACT ||
	       t == BPF_PROG_TYPE_XDP || t == BPF_PROG_TYPE_SOCKET_FILTER ||
	       t == BPF_PROG_TYPE_CGROUP_SKB;
}

/*
 * The BTF ID the kernel attached tracing program T to, as its link info
 * and its program info report it: the same.
 */
static void check_attach_ids(const struct bt_case *c, const char *name,
			     const struct bpf_program *t, const struct bpf_link *link)
{
	struct bpf_link_info li;
	struct bpf_prog_info pi;
	__u32 llen = sizeof(li), plen = sizeof(pi);

	if (!link) {
		guest_fail("%s: %s: link and program report one target: not attached",
			   c->label, name);
		return;
	}
	memset(&li, 0, sizeof(li));
	memset(&pi, 0, sizeof(pi));
	if (bpf_obj_get_info_by_fd(bpf_link__fd(link), &li, &llen) ||
	    bpf_obj_get_info_by_fd(bpf_program__fd(t), &pi, &plen)) {
		guest_fail("%s: %s: link and program report one target: %s", c->label, name,
			   strerror(errno));
		return;
	}
	guest_check(li.tracing.target_btf_id && li.tracing.target_btf_id == pi.attach_btf_id,
		    "%s: %s: link and program report one target (BTF IDs %u and %u)",
		    c->label, name, li.tracing.target_btf_id, pi.attach_btf_id);
}

static void check_loaded(const struct bt_case *c, struct bpf_object *obj,
			 struct bpf_program *prog, int err, const struct bt_opts *o)
{
	static const unsigned char packet[64];	/* an Ethernet frame of zeroes */
	struct bpf_link *links[BT_MAX_ATTACH] = {};
	LIBBPF_OPTS(bpf_test_run_opts, run);
	__u32 prog_id, want;
	char why[160];
	int rerr, i;

	guest_check(!err, "%s: loads%s%s", c->label, err ? ": refused with -" : "",
		    err ? bt_errname(err) : "");
	if (err) {
		show_logs();
		fail_after_load(c, "load failed");
		return;
	}

	for (i = 0; i < c->nr_attach; i++) {
		struct bpf_program *t = bpf_object__find_program_by_name(obj, c->attach[i]);

		if (!t) {
			guest_fail("%s: %s attached: no such program in %s", c->label, c->attach[i],
				   c->obj);
			continue;
		}
		links[i] = bpf_program__attach(t);
		rerr = links[i] ? 0 : errno;
		guest_check(links[i], "%s: %s attached%s%s", c->label, c->attach[i],
			    rerr ? ": " : "", rerr ? strerror(rerr) : "");
		if (!links[i])
			show_logs();
		if (c->attach_ids_agree)
			check_attach_ids(c, c->attach[i], t, links[i]);
	}
	if (c->xlated_imm64)
		bt_check_xlated_imm64(c, bpf_program__fd(prog));
	if (!c->run)
		goto out;

	prog_id = prog_id_of(bpf_program__fd(prog));
	if (wants_packet(bpf_program__type(prog))) {
		run.data_in = packet;
		run.data_size_in = sizeof(packet);
	}
	rerr = bpf_prog_test_run_opts(bpf_program__fd(prog), &run) ? errno : 0;
	if (c->check_retval) {
		want = c->retval + (c->retval_plus_prog_id ? prog_id : 0);
		if (rerr)
			guest_fail("%s: test run failed: %s", c->label, strerror(rerr));
		else if (c->retval_plus_prog_id)
			guest_check(prog_id && run.retval == want,
				    "%s: test run returns %u (want program ID %u + %u)", c->label,
				    run.retval, prog_id, c->retval);
		else
			guest_check(run.retval == want, "%s: test run returns %d (want %d)",
				    c->label, (int)run.retval, (int)want);
	}
	for (i = 0; i < c->nr_maps; i++) {
		if (rerr) {
			snprintf(why, sizeof(why), "test run failed: %s", strerror(rerr));
			guest_fail("%s: %s[%u]: not reached (%s)", c->label, c->maps[i].map,
				   c->maps[i].key, why);
		} else {
			check_map(c, &c->maps[i], obj, prog_id, o);
		}
	}
out:
	for (i = 0; i < c->nr_attach; i++)
		bpf_link__destroy(links[i]);
}

/* P is one of the case's --attach programs. */
static bool is_attached(const struct bt_case *c, const struct bpf_program *p)
{
	int i;

	for (i = 0; i < c->nr_attach; i++)
		if (!strcmp(bpf_program__name(p), c->attach[i]))
			return true;
	return false;
}

void bt_run_case(const struct bt_case *c, const struct bt_opts *o)
{
	struct bpf_program *prog, *p;
	struct bpf_object *obj;
	char why[256];
	int err;

	bt_logs_reset();
	vlog[0] = '\0';
	obj = bt_open_object(c);
	if (!obj && c->expect_fail) {
		/*
		 * Refused before any load: the library found nothing in the
		 * kernel for a strong extern. Its messages say why.
		 */
		int err = errno;

		check_cache(c);
		check_refused(c, "open", err);
		return;
	}
	if (!obj) {
		snprintf(why, sizeof(why), "cannot open %s: %s", c->obj, strerror(errno));
		fail_all(c, why, false);
		bt_print_indented("libbpf messages", bt_logs_text(), 30);
		return;
	}
	check_cache(c);
	prog = bpf_object__find_program_by_name(obj, c->prog);
	if (!prog) {
		snprintf(why, sizeof(why), "no program '%s' in %s", c->prog, c->obj);
		fail_all(c, why, true);
		bpf_object__close(obj);
		return;
	}
	/*
	 * One program per load (with the tracing programs the case attaches),
	 * so a verifier message belongs to this case.
	 */
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == prog || is_attached(c, p));
	bpf_program__set_log_buf(prog, vlog, sizeof(vlog));
	bpf_program__set_log_level(prog, 1);

	err = -bpf_object__load(obj);
	if (c->expect_fail)
		check_refused(c, "load", err);
	else
		check_loaded(c, obj, prog, err, o);
	if (o->verbose)
		show_logs();
	bpf_object__close(obj);
}
