#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
"""Make malformed BPF objects and kernel BTF files from good ones.

usage: mutate.py OUTDIR OBJ_OLD OBJ_NEW KERNEL_BTF MODULE_BTF REWRITE_DIR OBJ_LIST OBJ_KCONFIG
                 OBJ_STRUCT_OPS

OBJ_OLD has one strong kfunc extern that the kernel renames (so the
rewrite has work to do), OBJ_NEW has two externs, KERNEL_BTF is a raw
.BTF blob and MODULE_BTF a module's split BTF on top of it. The test
runs "rewrite -o REWRITE_DIR/<case>.o", which some messages name.
OBJ_LIST calls a strong kfunc that needs its registers set, OBJ_KCONFIG
has a .kconfig extern and OBJ_STRUCT_OPS a .struct_ops variable.
Writes OUTDIR/<case> files and OUTDIR/manifest, one case a line,
tab-separated:

    name  kind  input  errno  cli_status  message  cli_message

kind is "obj" (a bad object, good kernel), "kbtf" (good object, bad
kernel BTF), "mbtf" (good object and kernel, bad module BTF), "path" (a
file that cannot be read as one) or "plan" (a good object given the
plan of OBJ_OLD; library only, cli_status "-"); errno is the errno the
library sets (ESRCH: the kernel loads, and the open functions find the
strong extern fits nothing), cli_status the exit status of "magic-kfunc
explain" and "rewrite -o", message a substring of the error the library
prints (cli_message: the one magic-kfunc prints, which is the first
error of the library), in full: docs/errors.md's message with its
placeholders (N, X, FILE, ...) filled in.
"""
import os
import struct
import sys

EM_X86_64 = 62
SHT_SYMTAB = 2
ELF_HEADER = 64
BTF_KIND_INT, BTF_KIND_PTR, BTF_KIND_ARRAY, BTF_KIND_STRUCT = 1, 2, 3, 4
BTF_KIND_UNION, BTF_KIND_ENUM, BTF_KIND_FUNC, BTF_KIND_FUNC_PROTO = 5, 6, 12, 13
BTF_KIND_VAR, BTF_KIND_DATASEC, BTF_KIND_DECL_TAG, BTF_KIND_ENUM64 = 14, 15, 17, 19
BTF_KIND_CONST = 10


class Elf:
    def __init__(self, data):
        self.data = bytearray(data)
        (self.shoff,) = struct.unpack_from('<Q', data, 40)
        self.shentsize, self.shnum, self.shstrndx = struct.unpack_from('<HHH', data, 58)
        self.shdrs = [self.shdr(i) for i in range(self.shnum)]
        shstr = self.shdrs[self.shstrndx]
        self.names = [self.cstr(shstr['offset'] + s['name']) for s in self.shdrs]

    def shdr(self, i):
        off = self.shoff + i * self.shentsize
        f = struct.unpack_from('<IIQQQQIIQQ', self.data, off)
        keys = ('name', 'type', 'flags', 'addr', 'offset', 'size', 'link', 'info',
                'align', 'entsize')
        d = dict(zip(keys, f))
        d['at'] = off
        return d

    def cstr(self, off):
        end = self.data.index(b'\0', off)
        return self.data[off:end].decode()

    def section(self, name):
        return self.shdrs[self.names.index(name)]

    def set_shdr(self, sh, field, value):
        offs = {'name': 0, 'type': 4, 'link': 40, 'info': 44}
        if field in offs:
            struct.pack_into('<I', self.data, sh['at'] + offs[field], value)
        else:
            offs = {'flags': 8, 'offset': 24, 'size': 32, 'entsize': 56}
            struct.pack_into('<Q', self.data, sh['at'] + offs[field], value)

    def symbols(self):
        """(offset of the entry, name, st_shndx) of each symbol."""
        st = next(s for s in self.shdrs if s['type'] == SHT_SYMTAB)
        strtab = self.shdrs[st['link']]
        out = []
        for i in range(st['size'] // st['entsize']):
            at = st['offset'] + i * st['entsize']
            name, info, other, shndx = struct.unpack_from('<IBBH', self.data, at)
            out.append((at, self.cstr(strtab['offset'] + name), shndx, name))
        return out


class Btf:
    """Types of a raw .BTF blob at offset base of data."""

    def __init__(self, data, base):
        self.data, self.base = data, base
        magic, ver, flags, hlen, toff, tlen, soff, slen = struct.unpack_from('<HBBIIIII', data, base)
        assert magic == 0xeb9f
        self.hlen, self.tlen, self.slen = hlen, tlen, slen
        self.tstart = base + hlen + toff
        self.sstart = base + hlen + soff
        self.types = [None]  # id -> (offset, name, kind, vlen, type)
        off = self.tstart
        while off < self.tstart + tlen:
            name_off, info, typ = struct.unpack_from('<III', data, off)
            kind, vlen = (info >> 24) & 0x1f, info & 0xffff
            name = self.cstr(name_off)
            self.types.append((off, name, kind, vlen, typ))
            off += 12 + self.extra(kind, vlen)

    @staticmethod
    def extra(kind, vlen):
        if kind in (BTF_KIND_INT, BTF_KIND_VAR, BTF_KIND_DECL_TAG):
            return 4
        if kind == BTF_KIND_ARRAY:
            return 12
        if kind in (BTF_KIND_STRUCT, BTF_KIND_UNION, BTF_KIND_DATASEC, BTF_KIND_ENUM64):
            return 12 * vlen
        if kind in (BTF_KIND_ENUM, BTF_KIND_FUNC_PROTO):
            return 8 * vlen
        return 0

    def cstr(self, off):
        s = self.sstart + off
        return self.data[s:self.data.index(b'\0', s)].decode()

    def find(self, kind, name=None):
        for i, t in enumerate(self.types[1:], 1):
            if t[2] == kind and (name is None or t[1] == name):
                return i
        raise KeyError(name)

    def set_word(self, tid, word, value):
        struct.pack_into('<I', self.data, self.types[tid][0] + 4 * word, value)


def obj_btf(elf):
    return Btf(elf.data, elf.section('.BTF')['offset'])


def main():
    outdir, obj_old, obj_new, kbtf, mbtf, rwdir, obj_list, obj_kconfig, obj_struct_ops = \
        sys.argv[1:10]
    old = open(obj_old, 'rb').read()
    new = open(obj_new, 'rb').read()
    kraw = open(kbtf, 'rb').read()
    mraw = open(mbtf, 'rb').read()
    cases = []
    # Section and BTF type ids of the good objects, which the messages name.
    eold, enew = Elf(old), Elf(new)
    btf_idx = eold.names.index('.BTF')
    symtab_idx = next(i for i, s in enumerate(eold.shdrs) if s['type'] == SHT_SYMTAB)
    impl_fn = obj_btf(eold).find(BTF_KIND_FUNC, 'bpf_wq_set_callback_impl')
    impl = "extern 'bpf_wq_set_callback_impl': "

    def add(name, kind, data, err, status, msg, cli_msg):
        path = os.path.join(outdir, name)
        with open(path, 'wb') as f:
            f.write(bytes(data))
        cases.append((name, kind, path, err, str(status), msg, cli_msg or msg))

    def obj(name, data, err, msg, status=1, cli_msg=None):
        add(name, 'obj', data, err, status, msg, cli_msg)

    def mutated(base, fn):
        e = Elf(base)
        fn(e)
        return e.data

    def short(n):
        return 'the object is %d bytes, too short for an ELF header (%d)' % (n, ELF_HEADER)

    def past_end(what, n):
        return '%s past the end of the object (%d bytes)' % (what, n)
    obj('empty', b'', 'EINVAL', short(0))
    obj('truncated-ehdr', old[:40], 'EINVAL', short(40))
    obj('truncated-half', old[:len(old) // 2], 'EINVAL',
        past_end('the section headers lie', len(old) // 2))
    obj('not-elf', b'#!/bin/sh\necho this is not an object\n' * 4, 'EINVAL',
        'not a relocatable ELF object')

    def machine(e):
        struct.pack_into('<H', e.data, 18, EM_X86_64)
    obj('x86-64-machine', mutated(old, machine), 'EINVAL', 'not a BPF object (e_machine 62)')
    for name, et in (('et-exec', 2), ('et-dyn', 3)):
        obj(name, mutated(old, lambda e, et=et: struct.pack_into('<H', e.data, 16, et)),
            'EINVAL', 'not a relocatable ELF object')

    def shoff_past_end(e):
        struct.pack_into('<Q', e.data, 40, len(e.data) + 4096)
    obj('shoff-past-end', mutated(old, shoff_past_end), 'EINVAL',
        past_end('the section headers lie', len(old)))

    def shstrndx(e):
        # Past the last section, below SHN_LORESERVE: libelf takes it.
        struct.pack_into('<H', e.data, 62, e.shnum + 3)
    obj('shstrndx-out-of-range', mutated(old, shstrndx), 'EINVAL',
        'cannot read the section headers')

    def section_past_end(e):
        e.set_shdr(e.section('.BTF'), 'offset', len(e.data) - 8)
    obj('section-past-end', mutated(old, section_past_end), 'EINVAL',
        past_end('section %d lies' % btf_idx, len(old)))

    def no_btf(e):
        # Rename .BTF (and .BTF.ext, which shares its string) to .BTX.
        sh = e.shdrs[e.shstrndx]
        at = sh['offset'] + e.shdrs[e.names.index('.BTF')]['name']
        e.data[at:at + 4] = b'.BTX'
    obj('no-btf', mutated(old, no_btf), 'EINVAL', impl + 'the object has no .BTF to describe it')

    def btf_nobits(e):
        # Found by fuzz/fuzz_object: libbpf's btf__new() read the
        # contents of a .BTF of type SHT_NOBITS from a NULL pointer.
        e.set_shdr(e.section('.BTF'), 'type', 8)
    obj('btf-nobits', mutated(old, btf_nobits), 'EINVAL',
        "the object's .BTF has no contents (SHT_NOBITS)")

    def huge_align(e):
        # Found by fuzz/fuzz_object: laid out again with a 4 GiB
        # alignment, the rewritten image took 4 GiB of memory.
        struct.pack_into('<Q', e.data, e.section('.BTF')['at'] + 48, 1 << 32)
    def align(n):
        return 'section %d: alignment %d is not a power of two up to 4096' % (btf_idx, n)
    obj('section-huge-alignment', mutated(old, huge_align), 'EINVAL', align(1 << 32))

    def align_3(e):
        struct.pack_into('<Q', e.data, e.section('.BTF')['at'] + 48, 3)
    obj('section-alignment-3', mutated(old, align_3), 'EINVAL', align(3))

    def btf_magic(e):
        struct.pack_into('<H', e.data, e.section('.BTF')['offset'], 0x9feb)
    # libbpf takes a wrong magic for the other byte order.
    obj('btf-bad-magic', mutated(old, btf_magic), 'EOPNOTSUPP',
        "the object's .BTF is of the other byte order (magic 0x9feb)")

    def bad_header(name, at, fmt, value, magic=0xeb9f, version=1, flags=0):
        def fn(e):
            struct.pack_into(fmt, e.data, e.section('.BTF')['offset'] + at, value)
        obj(name, mutated(old, fn), 'EINVAL',
            "the object's .BTF has a bad header (magic 0x%x, version %d, flags %d)"
            % (magic, version, flags))
    bad_header('btf-magic-not-btf', 0, '<H', 0x1234, magic=0x1234)
    bad_header('btf-version-2', 2, '<B', 2, version=2)
    bad_header('btf-flags-1', 3, '<B', 1, flags=1)

    def btf_short(e):
        e.set_shdr(e.section('.BTF'), 'size', 10)
    obj('btf-shorter-than-header', mutated(old, btf_short), 'EINVAL',
        "the object's .BTF is 10 bytes, shorter than a BTF header")

    def btf_str_off(e):
        b = obj_btf(e)
        b.set_word(1, 0, b.slen + 1000)
    obj('btf-str-off-past-end', mutated(old, btf_str_off), 'EINVAL',
        "the object's .BTF: BTF type [1] has a name offset past the end of the strings")

    def btf_str_len(e):
        sec = e.section('.BTF')['offset']
        struct.pack_into('<I', e.data, sec + 20, 0x7fffff00)
    hdr = struct.unpack_from('<HBBIIIII', old, eold.section('.BTF')['offset'])
    obj('btf-str-len-past-end', mutated(old, btf_str_len), 'EINVAL',
        "the object's .BTF header (length %d, types %d+%d, strings %d+%d) does not fit "
        "its %d bytes" % (hdr[3], hdr[4], hdr[5], hdr[6], 0x7fffff00,
                          eold.section('.BTF')['size']))

    def huge_vlen(e):
        b = obj_btf(e)
        fn = b.find(BTF_KIND_FUNC, 'bpf_wq_set_callback_impl')
        proto = b.types[fn][4]
        b.set_word(proto, 1, (BTF_KIND_FUNC_PROTO << 24) | 0xffff)
    obj('btf-huge-vlen', mutated(old, huge_vlen), 'EINVAL',
        "cannot parse the object's .BTF: Invalid argument (a type record is malformed)")

    def datasec_huge_vlen(e):
        b = obj_btf(e)
        ds = b.find(BTF_KIND_DATASEC, '.ksyms')
        b.set_word(ds, 1, (BTF_KIND_DATASEC << 24) | 0xffff)
    obj('ksyms-huge-vlen', mutated(old, datasec_huge_vlen), 'EINVAL',
        "cannot parse the object's .BTF: Invalid argument (a type record is malformed)")

    def func_not_proto(e):
        b = obj_btf(e)
        fn = b.find(BTF_KIND_FUNC, 'bpf_wq_set_callback_impl')
        b.set_word(fn, 2, b.find(BTF_KIND_INT))
    not_proto = impl + 'the type of its BTF FUNC [%d] is not a FUNC_PROTO' % impl_fn
    obj('extern-func-not-proto', mutated(old, func_not_proto), 'EINVAL', not_proto)

    def func_bad_type(e):
        b = obj_btf(e)
        fn = b.find(BTF_KIND_FUNC, 'bpf_wq_set_callback_impl')
        b.set_word(fn, 2, len(b.types) + 1000)
    # A type id past the end crashes libbpf 1.1's bpf_object__open(): the
    # reader refuses every such reference, not just an extern's.
    ob = obj_btf(Elf(old))
    obj('extern-func-type-past-end', mutated(old, func_bad_type), 'EINVAL',
        "the object's .BTF: BTF type [%d] refers to type [%d], past the last one"
        % (impl_fn, len(ob.types) + 1000))

    # --- shapes that crash or hang libbpf 1.1.2's bpf_object__open() ---
    # (docs/robustness.md, "libbpf 1.1.2 itself"): the reader refuses them.
    ob = obj_btf(eold)
    defined = {n for (_, n, shndx, _) in eold.symbols() if shndx}
    prog_fn = next(i for i, t in enumerate(ob.types[1:], 1)
                   if t[2] == BTF_KIND_FUNC and t[1] in defined)
    int_id = ob.find(BTF_KIND_INT)

    def prog_func_not_proto(e):
        obj_btf(e).set_word(prog_fn, 2, int_id)
    obj('prog-func-not-proto', mutated(old, prog_func_not_proto), 'EINVAL',
        "the object's .BTF: FUNC [%d] has a type that is not a FUNC_PROTO" % prog_fn)

    mods = [i for i, t in enumerate(ob.types[1:], 1) if t[2] in (8, 9, 10, 11)]
    if mods:
        def modifier_cycle(e):
            obj_btf(e).set_word(mods[0], 2, mods[0])
        obj('btf-modifier-cycle', mutated(old, modifier_cycle), 'EINVAL',
            "the object's .BTF: type [%d] contains itself" % mods[0])

    st = next(i for i, t in enumerate(ob.types[1:], 1) if t[2] == BTF_KIND_STRUCT and t[3])

    def struct_contains_itself(e):
        obj_btf(e).set_word(st, 4, st)  # member 0's type
    obj('btf-struct-contains-itself', mutated(old, struct_contains_itself), 'EINVAL',
        "the object's .BTF: type [%d] contains itself" % st)

    fsym = next((at, n) for (at, n, shndx, _) in eold.symbols() if n == ob.types[prog_fn][1])

    def func_symbol_too_big(e):
        struct.pack_into('<Q', e.data, fsym[0] + 16, 1 << 62)
    syms = eold.symbols()
    obj('func-symbol-past-section', mutated(old, func_symbol_too_big), 'EINVAL',
        'symbol %d: function at 0, %d bytes, past the end of its section'
        % ([s[0] for s in syms].index(fsym[0]), 1 << 62))

    rel = next(i for i, s in enumerate(eold.shdrs)
               if s['type'] == 9 and s['info'] and eold.shdrs[s['info']]['flags'] & 4)

    def rel_target_zero(e):
        e.set_shdr(e.shdrs[rel], 'info', 0)
    obj('rel-target-section-0', mutated(old, rel_target_zero), 'EINVAL',
        'section %d: relocations for section 0, which has no contents' % rel)

    def btf_gap(e):
        sec = e.section('.BTF')['offset']
        soff, slen = struct.unpack_from('<II', e.data, sec + 16)
        struct.pack_into('<II', e.data, sec + 16, soff + 4, slen - 4)
    obj('btf-gap-before-strings', mutated(old, btf_gap), 'EINVAL',
        "the object's .BTF does not have its strings right after its types")

    def rel_offset_huge(e):
        struct.pack_into('<Q', e.data, e.shdrs[rel]['offset'], (1 << 64) - 8)
    obj('rel-offset-past-section', mutated(old, rel_offset_huge), 'EINVAL',
        'section %d: relocation 0 at offset %d, past the end of section %d'
        % (rel, (1 << 64) - 8, eold.shdrs[rel]['info']))

    # A .kconfig variable of 2^31 bytes or more: libbpf 1.1 returns its
    # size as the object pointer. OBJ_KCONFIG's LINUX_KERNEL_VERSION takes
    # the type of LICENSE (char[4]), made 0x90000000 long.
    kc = open(obj_kconfig, 'rb').read()
    kb = obj_btf(Elf(kc))
    kvar = kb.find(BTF_KIND_VAR, 'LINUX_KERNEL_VERSION')
    karr = kb.find(BTF_KIND_ARRAY)

    def kconfig_huge(e):
        b = obj_btf(e)
        b.set_word(kvar, 2, karr)
        b.set_word(karr, 5, 0x90000000)  # nelems, after type and index_type
    obj('kconfig-var-huge', mutated(kc, kconfig_huge), 'EINVAL',
        "the object's .BTF: .kconfig variable [%d] is %d bytes" % (kvar, 0x90000000))

    # A struct_ops variable past the end of .struct_ops: libbpf 1.1 checks
    # its end in 32 bits, so an offset near 2^32 wraps past the check and
    # the copy reads from 4 GiB past the section. clang leaves the DATASEC
    # unsized, so libbpf (and the reader) take the offset from the symbol:
    # OBJ_STRUCT_OPS's dummy_ops moved there, its end wrapping to 8.
    so = open(obj_struct_ops, 'rb').read()
    eso = Elf(so)
    sob = obj_btf(eso)
    svar = sob.find(BTF_KIND_VAR, 'dummy_ops')
    ssz = sob.types[sob.types[svar][4]][4]  # the struct's size
    ssec = eso.section('.struct_ops')['size']
    ssym = next(at for (at, n, _, _) in eso.symbols() if n == 'dummy_ops')
    soff = (1 << 32) - ssz + 8

    def struct_ops_past_end(e):
        struct.pack_into('<Q', e.data, ssym + 8, soff)  # st_value
    obj('struct-ops-var-past-end', mutated(so, struct_ops_past_end), 'EINVAL',
        "the object's .BTF: struct_ops variable [%d] (%d bytes at %d) lies past the end "
        "of .struct_ops (%d bytes)" % (svar, ssz, soff, ssec))

    lic = eold.names.index('license')

    def second_btf(e):
        e.set_shdr(e.shdrs[lic], 'name', e.shdrs[btf_idx]['name'])
    obj('two-btf-sections', mutated(old, second_btf), 'EINVAL',
        'the object has more than one .BTF section')

    # --- call patching the rewrite refuses (kind "patch": the plan works) ---
    # OBJ_LIST calls a strong bpf_list_push_back, which the 7.0 fixture
    # kernel has only as bpf_list_push_back_impl: R4 = 0 goes before the call.
    lst = open(obj_list, 'rb').read()
    elst = Elf(lst)
    lsyms = elst.symbols()

    def func_too_small(e):
        at = next(a for (a, n, shndx, _) in lsyms if n == 'push')
        struct.pack_into('<Q', e.data, at + 16, 8)  # one instruction: the call is outside
    add('patch-call-outside-functions', 'patch', mutated(lst, func_too_small), 'EINVAL', 1,
        'cannot insert the register set-up before its kfunc calls: insertion at 11: '
        'outside every function', None)

    lrel = next(i for i, s in enumerate(elst.shdrs)
                if s['type'] == 9 and elst.shdrs[s['info']]['flags'] & 4)
    push_sym = [n for (_, n, _, _) in lsyms].index('bpf_list_push_back')

    def unknown_reloc_type(e):
        s = e.shdrs[lrel]
        for k in range(s['size'] // 16):
            info, = struct.unpack_from('<Q', e.data, s['offset'] + 16 * k + 8)
            if info >> 32 == push_sym:
                struct.pack_into('<Q', e.data, s['offset'] + 16 * k + 8,
                                 (info & ~0xffffffff) | 99)
    add('patch-unknown-reloc-type', 'patch', mutated(lst, unknown_reloc_type), 'EINVAL', 1,
        'relocation 1 of section %d: type 99 not understood' % elst.shdrs[lrel]['info'], None)

    def ksyms_other(e):
        # The .ksyms DATASEC lists some other type, not the extern's FUNC.
        b = obj_btf(e)
        ds = b.find(BTF_KIND_DATASEC, '.ksyms')
        struct.pack_into('<I', e.data, b.types[ds][0] + 12, 1)
    obj('ksyms-datasec-mismatch', mutated(old, ksyms_other), 'EINVAL',
        impl + 'its BTF FUNC [%d] is not in the .ksyms DATASEC' % impl_fn)

    def extern_without_btf(e):
        # Found by fuzz/fuzz_object: an extern symbol without BTF, named
        # like what another extern is renamed to, made two externs of
        # one name in the rewritten object.
        b = obj_btf(e)
        b.set_word(b.find(BTF_KIND_FUNC, 'bpf_wq_set_callback_impl'), 0, 0)
    obj('extern-without-btf', mutated(old, extern_without_btf), 'EINVAL',
        impl + 'no BTF VAR or FUNC of that name')

    def func_not_extern(e):
        # Found by fuzz/fuzz_object: an undefined symbol whose BTF FUNC
        # is not declared extern was left alone, keeping the name
        # another extern is renamed to.
        b = obj_btf(e)
        fn = b.find(BTF_KIND_FUNC, 'bpf_wq_set_callback_impl')
        b.set_word(fn, 1, (BTF_KIND_FUNC << 24) | 1)
    obj('extern-func-not-extern', mutated(old, func_not_extern), 'EINVAL',
        impl + 'its BTF FUNC [%d] is not declared extern' % impl_fn)

    def dup_names(e):
        syms = [s for s in e.symbols() if s[2] == 0 and s[1]]
        first = next(s for s in syms if s[1] == 'bpf_wq_set_callback')
        second = next(s for s in syms if s[1] == 'bpf_stream_vprintk')
        struct.pack_into('<I', e.data, second[0], first[3])
    obj('duplicate-extern', mutated(new, dup_names), 'EINVAL',
        "extern 'bpf_wq_set_callback' is defined twice in the symbol table")

    def sym_name_past_end(e):
        # Found by fuzz/fuzz_object: a name offset just past the string
        # table pointed at the first name the rewrite appended.
        st = next(s for s in e.shdrs if s['type'] == SHT_SYMTAB)
        strtab = e.shdrs[st['link']]
        at = next(s for s in e.symbols() if s[2] == 0 and s[1])[0]
        struct.pack_into('<I', e.data, at, strtab['size'])
    first_extern = next(i for i, s in enumerate(enew.symbols()) if s[2] == 0 and s[1])
    obj('symbol-name-past-strtab', mutated(new, sym_name_past_end), 'EINVAL',
        'symbol %d: its name is not in the string table' % first_extern)

    def strtab_first_byte(e):
        # Found by fuzz/fuzz_object: the rewrite names a merged extern ""
        # with offset 0, which must hold an empty string.
        st = next(s for s in e.shdrs if s['type'] == SHT_SYMTAB)
        e.data[e.shdrs[st['link']]['offset']] = ord('X')
    obj('strtab-first-byte-not-nul', mutated(old, strtab_first_byte), 'EINVAL',
        'the symbol string table does not start with an empty string')

    def symtab_entsize(e):
        st = next(s for s in e.shdrs if s['type'] == SHT_SYMTAB)
        e.set_shdr(st, 'entsize', 0)
    obj('symtab-entsize-zero', mutated(old, symtab_entsize), 'EINVAL',
        "the symbol table's entries are 0 bytes, not 24")

    def symtab_entsize_26(e):
        # Found by fuzz/fuzz_object: with entries of 26 bytes the last
        # symbols went unread, and the rewrite (which writes 24) made
        # them visible, externs without BTF among them.
        st = next(s for s in e.shdrs if s['type'] == SHT_SYMTAB)
        e.set_shdr(st, 'entsize', 26)
    obj('symtab-entsize-26', mutated(old, symtab_entsize_26), 'EINVAL',
        "the symbol table's entries are 26 bytes, not 24")

    def symtab_size(e):
        st = next(s for s in e.shdrs if s['type'] == SHT_SYMTAB)
        e.set_shdr(st, 'size', len(e.data) * 4 // 24 * 24)
    obj('symtab-past-end', mutated(old, symtab_size), 'EINVAL',
        past_end('section %d lies' % symtab_idx, len(old)))

    def symtab_partial_entry(e):
        # Entries of 24 bytes, but not a whole number of them: libelf
        # gives no data, and the library no reason of its own.
        st = next(s for s in e.shdrs if s['type'] == SHT_SYMTAB)
        e.set_shdr(st, 'size', st['size'] - 1)
    obj('symtab-partial-entry', mutated(old, symtab_partial_entry), 'EINVAL',
        'cannot read the object: Invalid argument')

    # The plan of OBJ_OLD (malformed-test's base) for another, sound object.
    add('plan-of-another-object', 'plan', new, 'EINVAL', '-',
        'the plan was computed for a different object', None)

    # Kernel BTF: the object is fine, the kernel's BTF is not.
    def kern(name, data, err, msg, kind='kbtf'):
        path = os.path.join(outdir, name)
        vmlinux = path if kind == 'kbtf' else kbtf
        add(name, kind, data, err, 1, msg, "cannot load the kernel's BTF (%s): %s" % (vmlinux, msg))

    def unreadable(name, data, err, why):
        kern(name, data, err, '%s: cannot read kernel BTF: %s' % (os.path.join(outdir, name), why))

    # libbpf fails to read a header from it: EIO.
    unreadable('kbtf-empty', b'', 'EIO', 'Input/output error')
    unreadable('kbtf-truncated', kraw[:len(kraw) // 2], 'EINVAL', 'Invalid argument')
    # Neither raw BTF nor ELF: libbpf's LIBBPF_ERRNO__FORMAT, in its words.
    unreadable('kbtf-garbage', bytes((i * 37) & 0xff for i in range(4096)), 'EINVAL',
               'BPF object format invalid')
    # A vmlinux's ELF header and nothing else (not a BPF object's: that
    # is refused as one, below).
    unreadable('kbtf-elf-header-only', mutated(old, machine)[:ELF_HEADER], 'EINVAL',
               'BPF object format invalid')
    # An ELF file without a .BTF section (a vmlinux built without BTF):
    # libbpf says ENOENT (1.1) or ENODATA, the library says why.
    unreadable('kbtf-elf-no-btf', mutated(mutated(old, no_btf), machine), 'ENODATA',
               'an ELF file without a .BTF section')
    # A BPF object given as the kernel: its .BTF would parse.
    path = os.path.join(outdir, 'kbtf-bpf-object')
    kern('kbtf-bpf-object', old, 'EINVAL', '%s: is a BPF object, not a kernel\'s BTF' % path)
    # The raw .BTF of a BPF object: it has extern FUNCs, and DATASECs a
    # kernel never has.
    e = Elf(bytearray(old))
    sh = e.shdrs[e.names.index('.BTF')]
    kern('kbtf-object-raw-btf', bytes(e.data[sh['offset']:sh['offset'] + sh['size']]), 'EINVAL',
         "kernel BTF: FUNC 'bpf_wq_set_callback_impl' [26] is extern: the BTF of a BPF object, "
         "not a kernel's")
    # A vmlinux BTF given as a module's: complete, not split.
    path = os.path.join(outdir, 'mbtf-vmlinux')
    kern('mbtf-vmlinux', kraw, 'EINVAL',
         '%s: is a complete BTF (a vmlinux?), not a module\'s split BTF' % path, kind='mbtf')
    kb = bytearray(kraw)
    b = Btf(kb, 0)
    fn = b.find(BTF_KIND_FUNC, 'bpf_wq_set_callback')
    b.set_word(fn, 0, b.slen + 77)
    kern('kbtf-str-off-past-end', kb, 'EINVAL',
         'kernel BTF: BTF type [%d] has a name offset past the end of the strings' % fn)
    kb = bytearray(kraw)
    b = Btf(kb, 0)
    b.set_word(b.find(BTF_KIND_FUNC_PROTO), 1, (BTF_KIND_FUNC_PROTO << 24) | 0xffff)
    unreadable('kbtf-huge-vlen', kb, 'EINVAL', 'Invalid argument')

    # A module's split BTF: its first FUNC's name past all strings
    # (split string offsets continue the base's). Names of FUNCs and
    # decl tags are what describing a kernel checks up front.
    kb = Btf(bytearray(kraw), 0)
    mb = bytearray(mraw)
    _, _, _, hlen, toff, tlen, _, slen = struct.unpack_from('<HBBIIIII', mb, 0)
    off, mid = hlen + toff, len(kb.types)
    while True:
        info = struct.unpack_from('<I', mb, off + 4)[0]
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        if kind == BTF_KIND_FUNC:
            break
        off += 12 + Btf.extra(kind, vlen)
        mid += 1
        assert off < hlen + toff + tlen, 'the module BTF has no FUNC'
    struct.pack_into('<I', mb, off, kb.slen + slen + 77)
    kern('mbtf-str-off-past-end', mb, 'EINVAL',
         'module BTF: BTF type [%d] has a name offset past the end of the strings'
         % mid, kind='mbtf')

    # Parses, but its functions are not functions: nothing binds, and
    # the strong extern is reported unresolved (exit status 3).
    def fits_nothing(name, data):
        path = os.path.join(outdir, name)
        add(name, 'kbtf', data, 'ESRCH', 3,
            '1 strong kfunc extern(s) fit nothing in the target kernel',
            '1 strong kfunc extern fits nothing in %s; %s not written'
            % (path, os.path.join(rwdir, name + '.o')))
    kb = bytearray(kraw)
    b = Btf(kb, 0)
    for name in ('bpf_wq_set_callback', 'bpf_wq_set_callback_impl'):
        b.set_word(b.find(BTF_KIND_FUNC, name), 2, b.find(BTF_KIND_INT))
    fits_nothing('kbtf-func-not-proto', kb)
    kb = bytearray(kraw)
    b = Btf(kb, 0)
    for name in ('bpf_wq_set_callback', 'bpf_wq_set_callback_impl'):
        b.set_word(b.find(BTF_KIND_FUNC, name), 2, len(b.types) + 5)
    # libbpf 1.1's btf_dump (magic-kfunc kfuncs) crashes on such BTF.
    add('kbtf-func-type-past-end', 'kbtf', kb, 'EINVAL', 1,
        'kernel BTF: BTF type [%d] refers to type [%d], past the last one'
        % (min(b.find(BTF_KIND_FUNC, n) for n in ('bpf_wq_set_callback',
                                                 'bpf_wq_set_callback_impl')),
           len(b.types) + 5), None)

    # A parameter's pointer made PTR -> CONST -> PTR: no compiler makes
    # it and the kernel refuses it, but libbpf's btf_dump (magic-kfunc
    # list) recursed on it until it ran out of memory.
    kb = bytearray(kraw)
    b = Btf(kb, 0)
    proto = b.types[b.find(BTF_KIND_FUNC, 'bpf_wq_set_callback')][4]
    ptr = struct.unpack_from('<I', kb, b.types[proto][0] + 12 + 4)[0]
    assert b.types[ptr][2] == BTF_KIND_PTR, 'the first parameter is not a pointer'
    other = next(i for i, t in enumerate(b.types[1:], 1) if t[2] == BTF_KIND_PTR and i != ptr)
    b.set_word(other, 1, BTF_KIND_CONST << 24)
    b.set_word(other, 2, ptr)
    b.set_word(ptr, 2, other)
    # kball: through the library with check_all_types, as the tool reads it.
    add('kbtf-ptr-const-cycle', 'kball', kb, 'EINVAL', 1,
        'kernel BTF: BTF type [%d] refers back to itself (a cycle of pointers, modifiers, '
        'typedefs, arrays or prototypes)' % min(ptr, other), None)

    with open(os.path.join(outdir, 'manifest'), 'w') as f:
        for c in cases:
            f.write('\t'.join(c) + '\n')
        # Files that cannot be read as objects (made by the tests).
        f.write('\t'.join(('directory', 'path', outdir, 'EISDIR', '1', 'Is a directory',
                           'Is a directory')) + '\n')
        f.write('\t'.join(('nonexistent', 'path', os.path.join(outdir, 'no-such.o'),
                           'ENOENT', '1', 'No such file or directory',
                           'No such file or directory')) + '\n')
        # Opens, but read(2) fails: address 0 is never mapped.
        f.write('\t'.join(('proc-self-mem', 'path', '/proc/self/mem', 'EIO', '1',
                           'Input/output error', 'Input/output error')) + '\n')


if __name__ == '__main__':
    main()
