// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The object reader's private image (libmagic-kfunc/obj_image.c): the
 * DWARF sections of a real object are left out (zero) and everything
 * else copied (and the ranges alone, with the DWARF's relocations for
 * the rewrite cache's file names); a difference inside them does not make a plan's reading
 * stale, one outside does; a rewrite through a plan made before the
 * DWARF changed gives what a fresh plan gives; sections that overlap,
 * are read as another section's table or sit in an object of the other
 * byte order are copied whole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gelf.h>

#include "fixtures.h"
#include "magic_kfunc.h"
#include "obj_image.h"
#include "unit.h"

struct image {
	char *buf;
	size_t sz;
};

static int read_image(const char *base, struct image *img)
{
	void *buf;
	int err = t_read_bpf_object(base, &buf, &img->sz);

	img->buf = buf;
	return err;
}

/* Section i's header, straight from the image (64-bit, this machine's order). */
static Elf64_Shdr *shdr(const struct image *img, size_t i)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img->buf;

	return (Elf64_Shdr *)(img->buf + eh->e_shoff + i * sizeof(Elf64_Shdr));
}

static const char *scn_name(const struct image *img, size_t i)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img->buf;

	return img->buf + shdr(img, eh->e_shstrndx)->sh_offset + shdr(img, i)->sh_name;
}

/* The first section whose name starts with prefix, 0 if none. */
static size_t find_scn(const struct image *img, const char *prefix)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img->buf;
	size_t i;

	for (i = 1; i < eh->e_shnum; i++)
		if (!strncmp(scn_name(img, i), prefix, strlen(prefix)))
			return i;
	return 0;
}

/* Whether byte off of the image lies in a section named prefix*. */
static bool in_scn(const struct image *img, size_t off, const char *prefix)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img->buf;
	size_t i;

	for (i = 1; i < eh->e_shnum; i++) {
		Elf64_Shdr *sh = shdr(img, i);

		if (!strncmp(scn_name(img, i), prefix, strlen(prefix)) && off >= sh->sh_offset &&
		    off < sh->sh_offset + sh->sh_size)
			return true;
	}
	return false;
}

/* DWARF or its relocations (unit_list has no other .rel.debug_*). */
static bool in_dwarf(const struct image *img, size_t off)
{
	return in_scn(img, off, ".debug_") || in_scn(img, off, ".rel.debug_");
}

static size_t skipped_bytes(const struct mkf_obj_image *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->skip_cnt; i++)
		n += c->skip[i].end - c->skip[i].off;
	return n;
}

static void test_dwarf_left_out(const struct image *img)
{
	struct mkf_obj_image c;
	size_t i, k, bad_range = 0, bad_byte = 0;
	bool zero = true;

	if (mkf_obj_image_copy(&c, img->buf, img->sz)) {
		t_fail("DWARF left out of the image", "out of memory");
		return;
	}
	for (i = 0; i < c.skip_cnt; i++) {
		for (k = c.skip[i].off; k < c.skip[i].end; k++) {
			bad_range += !in_dwarf(img, k);
			zero &= !((char *)c.buf)[k];
		}
	}
	for (k = 0, i = 0; k < img->sz; k++) {
		while (i < c.skip_cnt && k >= c.skip[i].end)
			i++;
		if (i < c.skip_cnt && k >= c.skip[i].off)
			continue;
		bad_byte += ((char *)c.buf)[k] != img->buf[k];
	}
	t_check("a -g object: DWARF ranges are left out", c.skip_cnt && skipped_bytes(&c) > 0,
		"%zu ranges", c.skip_cnt);
	t_check("only bytes of .debug_* and .rel.debug_* sections are left out", !bad_range,
		"%zu bytes outside them", bad_range);
	t_check("left-out bytes are zero in the image", zero, "not zero");
	t_check("every other byte is copied", !bad_byte, "%zu bytes differ", bad_byte);

	{
		/* Ranges known beforehand (the rewrite cache's): the same image. */
		struct mkf_obj_image d = {};

		t_check("the image made from known ranges is the same",
			!mkf_obj_image_copy_skip(&d, img->buf, img->sz, c.skip, c.skip_cnt) &&
			d.sz == c.sz && d.skip_cnt == c.skip_cnt &&
			!memcmp(d.skip, c.skip, c.skip_cnt * sizeof(*c.skip)) &&
			!memcmp(d.buf, c.buf, c.sz), "it differs");
		mkf_obj_image_free(&d);
	}
	mkf_obj_image_free(&c);
}

/* Whether byte off lies in one of the n ranges. */
static bool in_ranges(const struct mkf_range *r, size_t n, size_t off)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (off >= r[i].off && off < r[i].end)
			return true;
	return false;
}

/* The ranges alone are the image's, and exactly DWARF and its relocations. */
static void test_dwarf_ranges(const struct image *img)
{
	struct mkf_obj_image c = {};
	struct mkf_range *r = NULL;
	size_t n = mkf_obj_dwarf_ranges(img->buf, img->sz, &r), k, wrong = 0, rel_bytes = 0;

	for (k = 0; k < img->sz; k++) {
		rel_bytes += in_scn(img, k, ".rel.debug_");
		wrong += in_ranges(r, n, k) != in_dwarf(img, k);
	}
	t_check("a -g object has relocations of its DWARF", rel_bytes > 0, "none");
	t_check("the ranges: exactly the .debug_* and .rel.debug_* bytes", n && !wrong,
		"%zu ranges, %zu bytes wrong", n, wrong);
	t_check("the ranges are the ones the image leaves out",
		!mkf_obj_image_copy(&c, img->buf, img->sz) && c.skip_cnt == n &&
		!memcmp(c.skip, r, n * sizeof(*r)), "%zu and %zu ranges", c.skip_cnt, n);
	mkf_obj_image_free(&c);
	free(r);
	t_check("no ranges for a buffer that is no ELF",
		!mkf_obj_dwarf_ranges("not an object", 13, &r) && !r, "some");
}

/* The image copied whole after edit() changed a copy of it. */
static void expect_whole(const char *name, const struct image *img,
			 bool (*edit)(struct image *))
{
	struct image e = { malloc(img->sz), img->sz };
	struct mkf_obj_image c = {};

	if (!e.buf || (memcpy(e.buf, img->buf, img->sz), !edit(&e)) ||
	    mkf_obj_image_copy(&c, e.buf, e.sz)) {
		t_fail(name, "setup failed");
	} else {
		t_check(name, !c.skip_cnt && !memcmp(c.buf, e.buf, e.sz), "%zu ranges left out",
			c.skip_cnt);
	}
	mkf_obj_image_free(&c);
	free(e.buf);
}

static bool overlap_btf(struct image *e)
{
	size_t d = find_scn(e, ".debug_info"), b = find_scn(e, ".BTF");

	if (!d || !b)
		return false;
	/* Shrink .debug_info onto .BTF's first bytes: both still in the image. */
	shdr(e, d)->sh_offset = shdr(e, b)->sh_offset;
	shdr(e, d)->sh_size = 8;
	return true;
}

static bool strtab_is_dwarf(struct image *e)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)e->buf;
	size_t i, d = find_scn(e, ".debug_str");

	for (i = 1; d && i < eh->e_shnum; i++) {
		if (shdr(e, i)->sh_type != SHT_SYMTAB)
			continue;
		shdr(e, i)->sh_link = (Elf64_Word)d;
		/* Only .debug_str could go: it must stay. */
		for (i = 1; i < eh->e_shnum; i++)
			if (i != d && !strncmp(scn_name(e, i), ".debug_", 7))
				shdr(e, i)->sh_name = shdr(e, 0)->sh_name;
		return true;
	}
	return false;
}

static bool other_byte_order(struct image *e)
{
	e->buf[EI_DATA] = e->buf[EI_DATA] == ELFDATA2LSB ? ELFDATA2MSB : ELFDATA2LSB;
	return true;
}

/*
 * A plan made before only a byte of section prefix* changed (DWARF, or
 * its relocations) serves the rewrite of the new bytes.
 */
static void test_plan_across_dwarf(const struct image *img, const char *prefix)
{
	struct btf *vm = fx_kernel(FX_612_DEB12);
	struct mkf_kernel *k = vm ? mkf_kernel__new(vm) : NULL;
	struct image e = { malloc(img->sz), img->sz };
	struct mkf_plan *old = NULL, *fresh = NULL;
	void *a = NULL, *b = NULL;
	size_t a_sz = 0, b_sz = 0, d;
	int err_a = -1, err_b = -1;
	char name[128];

	mkf_set_print(t_log_capture);
	t_log_reset();
	d = e.buf ? (memcpy(e.buf, img->buf, img->sz), find_scn(&e, prefix)) : 0;
	if (!k || !d || !shdr(&e, d)->sh_size) {
		t_fail("a plan across a change: setup", "failed for %s", prefix);
		goto out;
	}
	old = t_plan(img->buf, img->sz, k, NULL);
	e.buf[shdr(&e, d)->sh_offset] ^= 0x5a;
	fresh = t_plan(e.buf, e.sz, k, NULL);
	if (old && fresh) {
		err_a = t_rewrite(e.buf, e.sz, old, &a, &a_sz, NULL);
		err_b = t_rewrite(e.buf, e.sz, fresh, &b, &b_sz, NULL);
	}
	snprintf(name, sizeof(name), "a plan across a change of %s: changes, calls patched",
		 prefix);
	t_check(name, old && mkf_plan__change_cnt(old) > 0 &&
		strstr(t_log, "register set-up inserted"), "log: %s", t_log);
	snprintf(name, sizeof(name), "a plan across a change of %s rewrites as a fresh plan does",
		 prefix);
	t_check(name, !err_a && !err_b && a_sz == b_sz && !memcmp(a, b, a_sz),
		"errors %d %d, %zu and %zu bytes", err_a, err_b, a_sz, b_sz);
	snprintf(name, sizeof(name), "the rewrite carries the changed %s", prefix);
	t_check(name, a && memmem(a, a_sz, e.buf + shdr(&e, d)->sh_offset,
				  shdr(&e, d)->sh_size) != NULL, "not found");
out:
	t_quiet_library();
	free(a);
	free(b);
	mkf_plan__free(old);
	mkf_plan__free(fresh);
	mkf_kernel__free(k);
	btf__free(vm);
	free(e.buf);
}

int main(void)
{
	struct image img = {};

	t_quiet_library();
	elf_version(EV_CURRENT);
	/* unit_list: clang -g, and its rewrite on 6.12 patches calls. */
	if (read_image("unit_list", &img)) {
		t_fail("read unit_list.bpf.o", "%s", strerror(errno));
		return t_done();
	}
	test_dwarf_left_out(&img);
	test_dwarf_ranges(&img);
	expect_whole("DWARF sharing bytes with .BTF: copied whole", &img, overlap_btf);
	expect_whole("DWARF read as the symbols' string table: copied whole", &img,
		     strtab_is_dwarf);
	expect_whole("the other byte order: copied whole", &img, other_byte_order);
	test_plan_across_dwarf(&img, ".debug_str");
	test_plan_across_dwarf(&img, ".rel.debug_");
	free(img.buf);
	return t_done();
}
