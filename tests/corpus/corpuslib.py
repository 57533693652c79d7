# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
"""The differential corpus's shared model (tests/corpus/, docs/corpus.md).

An object list is a text file, one object a line: "ID PATH", ID naming
the object in reports (e.g. "selftests-6.12/wq", "project/tests/bpf/
wq_new.bpf.o"). A run writes one JSON file per libbpf and kernel:

  {"kernel": ID, "release": ..., "libbpf": LABEL, "key": ..., "tool": ...,
   "classes": {OBJ-ID: {"class": "identical"|"edited"|"undecided",
                        "why": TEXT|null}},
   "check_identical": [OBJ-ID...],
   "boots": [{"objects": N, "seconds": S, "why": ...}],
   "objects": {OBJ-ID: {"error": TEXT|null,
                        "programs": {NAME: {"section": SEC,
                                            "libbpf": CELL, "mkf": CELL}}}}}

"classes" says what the rewrite on the host (the run's own tool, for
the kernel's own BTF) made of each object: the same bytes, other bytes,
or no answer (why). An identical object is not booted (unless it is one
of "check_identical"): its programs have no cells.

CELL is {"status": "ran"|"loaded"|"failed"|"no-result", "retval": N|null,
"reason": TEXT|null, "decided": HOW}: "whole" or "alone" (the guest's
own load of that mode's object), "same-bytes" (a library cell taken
from plain libbpf's), "split" (loaded per mode, program by program,
after boots that ended early), "confirm" (the second load, program by
program, of run-kernels).
"""
import hashlib
import json
import os
import re
import struct
import subprocess

MODES = ("libbpf", "mkf")


def elf_symbols(path):
    """(name, type, section name or None if undefined, executable) of
    every symbol of a 64-bit ELF object; None if it is not one."""
    with open(path, "rb") as f:
        d = f.read()
    if len(d) < 64 or d[:4] != b"\x7fELF" or d[4] != 2:
        return None
    e = "<" if d[5] == 1 else ">"
    (shoff,) = struct.unpack_from(e + "Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", d, 0x3A)
    secs = [struct.unpack_from(e + "IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]

    def name(strsec, off):
        o = secs[strsec][4] + off
        return d[o:d.index(b"\0", o)].decode("utf-8", "replace")

    out = []
    for s in secs:
        # SHT_SYMTAB with a non-zero entry size
        if s[1] != 2 or not s[9]:
            continue
        for i in range(s[5] // s[9]):
            st_name, st_info, _, st_shndx, _, _ = struct.unpack_from(e + "IBBHQQ", d, s[4] + i * s[9])
            if st_shndx >= 0xFF00:
                continue
            sym = name(s[6], st_name)
            if st_shndx == 0:
                out.append((sym, st_info & 0xF, None, False))
                continue
            ps = secs[st_shndx]
            out.append((sym, st_info & 0xF, name(shstrndx, ps[0]), bool(ps[2] & 4)))
    return out


def programs(path):
    """The programs of an object as "magic-kfunc vm" lists them (cli/vm.c):
    FUNC symbols defined in executable sections other than .text, as
    (name, section) pairs. None if the file is not a 64-bit ELF."""
    syms = elf_symbols(path)
    if syms is None:
        return None
    return [(n, sec) for n, t, sec, x in syms if t == 2 and sec and x and sec != ".text"]


def testmod_names(tree):
    """What a selftests tree's test modules define (bpf_testmod/, from
    6.15 on test_kmods/ with bpf_testmod and a few more): their kfuncs
    (the BTF_ID_FLAGS(func, ...) of their kfunc sets), and every name of
    their sources that starts with "bpf_testmod" (functions,
    tracepoints, struct_ops types)."""
    names = set()
    st = os.path.join(tree, "tools/testing/selftests/bpf")
    for sub in ("bpf_testmod", "test_kmods"):
        d = os.path.join(st, sub)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith((".c", ".h")):
                continue
            with open(os.path.join(d, f), errors="replace") as fh:
                text = fh.read()
            names.update(re.findall(r"BTF_ID_FLAGS\(func, (\w+)", text))
            names.update(re.findall(r"\b(bpf_testmod\w*)", text))
    if not names:
        raise FileNotFoundError("no bpf_testmod/ or test_kmods/ in " + st)
    return names


def needs_testmod(path, names, bpftool="bpftool"):
    """Why an object needs bpf_testmod (None if it does not): an extern
    (kfunc or variable) the module defines, a program attached to one
    of its functions or tracepoints, or a struct_ops map of its types."""
    syms = elf_symbols(path) or []
    for n, _, sec, _ in syms:
        if sec is None and n in names:
            return "extern " + n
    for n, sec in programs(path) or []:
        for word in re.split(r"[/:]", sec):
            if word in names:
                return "program %s in SEC(\"%s\")" % (n, sec)
    r = subprocess.run([bpftool, "-j", "btf", "dump", "file", path], capture_output=True, text=True)
    try:
        types = {t["id"]: t for t in json.loads(r.stdout)["types"]}
    except (ValueError, KeyError):
        return None
    for t in types.values():
        if t["kind"] != "DATASEC" or not t["name"].startswith(".struct_ops"):
            continue
        for v in t["vars"]:
            var = types.get(v["type_id"], {})
            st = types.get(var.get("type_id"), {})
            if st.get("name") in names:
                return "struct_ops map %s of struct %s" % (var.get("name"), st.get("name"))
    return None


def read_list(path):
    """[(id, path)] of an object list."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                oid, p = line.split(None, 1)
                out.append((oid, p))
    return out


def file_digest(paths):
    h = hashlib.sha256()
    for p in paths:
        h.update(p.encode() + b"\0")
        with open(p, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:16]


def load_run(path):
    with open(path) as f:
        return json.load(f)


def save_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def object_class(run, oid):
    """The object's class in a run; None in a run of before classes."""
    return (run.get("classes") or {}).get(oid, {}).get("class")


def loads(cell):
    return cell is not None and cell["status"] in ("ran", "loaded")


def verdict(prog):
    """What one program's pair of cells says: a tuple (kind, line).
    kind is "both", "plain-only" (a regression), "mkf-only", "neither",
    "retval" (both loaded, the test runs differ: a regression),
    "retval-weak" (they differ, and the library's plan binds weak externs
    plain libbpf leaves unresolved: the program took its other branch;
    run-kernels sets "explained") or "retval-nondet" (they differ, and
    one mode's own test run returns another value on the next load;
    run-kernels sets "nondeterministic")."""
    p, m = prog.get("libbpf"), prog.get("mkf")
    late = " (loaded again program by program, that boot ended early: %s)" % prog["unconfirmed"] \
        if prog.get("unconfirmed") else ""
    if loads(p) and not loads(m):
        why = m["reason"] if m and m.get("reason") else "no message"
        if m and m["status"] == "no-result":
            why = "no result: " + why
        return "plain-only", why + late
    if loads(p) and loads(m):
        if p["status"] == "ran" and m["status"] == "ran" and p["retval"] != m["retval"]:
            line = "plain libbpf's test run returned %s, the library's %s" % (p["retval"], m["retval"])
        elif p["status"] == "ran" and m["status"] != "ran":
            line = "plain libbpf's test run returned %s, the library's did not run: %s" % (
                p["retval"], m.get("reason") or "no message")
        else:
            return "both", None
        if prog.get("explained"):
            return "retval-weak", prog["explained"]
        if prog.get("nondeterministic"):
            return "retval-nondet", prog["nondeterministic"]
        return "retval", line + late
    if loads(m):
        return "mkf-only", None
    return "neither", None


def is_regression(kind):
    return kind in ("plain-only", "retval")
