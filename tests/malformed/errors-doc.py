#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
"""Check that docs/errors.md and the malformed inputs agree.

usage: errors-doc.py ERRORS_MD MANIFEST

Every row of the tables of ERRORS_MD that have a "Message" column must
be said by a case of MANIFEST (mutate.py's): the row's message, the
first `code` of its Message column, with its placeholders filled in,
is in the case's message or cli_message, and the case has the row's
errno (the first `code` of the errno column, if it has one) and exit
status. Placeholders: N, H and O+L are numbers, X a name or number,
FILE, KERNEL and OUT paths, <...> any text.

Prints one line a row, "ok<TAB>what" or "FAIL<TAB>what"; exits 1 if a
row failed or the tables are not found.
"""
import re
import sys

# The kinds of case (mutate.py) that may say a table's rows. The
# objects' "fits nothing" row is a good object on a kernel without the
# function: a "kbtf" case.
TABLE_KINDS = {
    'Objects': {'obj', 'plan', 'patch', 'kbtf'},
    'Files': {'path'},
    'Kernel BTF': {'kbtf', 'kball', 'mbtf'},
}
HOLES = {
    'N': r'[0-9]+', 'H': r'[0-9]+', 'O+L': r'[0-9]+\+[0-9]+', 'X': r"[^' ]+",
    'FILE': r'.+?', 'KERNEL': r'.+?', 'OUT': r'.+?',
}
HOLE = re.compile(r"(\bO\+L\b|<[^>]*>|\b(?:N|H|X|FILE|KERNEL|OUT)\b)")


def pattern(msg):
    """The message as a regular expression, placeholders as wildcards."""
    out = ''
    for i, part in enumerate(HOLE.split(msg)):
        if i % 2 == 0:
            out += re.escape(part)
        else:
            out += HOLES.get(part, '.+?')
    return re.compile(out)


def code(cell):
    spans = re.findall(r'`([^`]+)`', cell)
    return spans[0] if spans else None


def tables(path):
    """(heading, input, errno, status, message) of each row with a message."""
    heading, columns, rows = None, None, []
    for line in open(path, encoding='utf-8'):
        line = line.strip()
        if line.startswith('## '):
            heading = line[3:].strip()
        if not line.startswith('|'):
            columns = None
            continue
        cells = [c.strip() for c in line.strip('|').split('|')]
        if columns is None:
            columns = [c.lower() for c in cells]
            continue
        if set(''.join(cells)) <= set('-: '):
            continue  # the header's underline
        row = dict(zip(columns, cells))
        msg_col = next((c for c in columns if c.startswith('message')), None)
        if msg_col:
            rows.append((heading, row.get('input', ''), code(row.get('errno', '')),
                         row.get('status', ''), row[msg_col]))
    return rows


def main():
    doc, manifest = sys.argv[1:3]
    cases = [line.rstrip('\n').split('\t') for line in open(manifest, encoding='utf-8')]
    failed = False
    seen = set()

    def report(ok, what):
        nonlocal failed
        failed |= not ok
        print('%s\t%s' % ('ok' if ok else 'FAIL', what))

    for heading, inp, err, status, cell in tables(doc):
        seen.add(heading)
        msg = code(cell)
        where = 'docs/errors.md, %s: ' % heading
        kinds = TABLE_KINDS.get(heading)
        if kinds is None or msg is None:
            report(False, where + "row '%s': %s" % (
                inp, 'no message in `code`' if kinds else 'a table this check does not know'))
            continue
        pat = pattern(msg)
        said = [c[0] for c in cases
                if c[1] in kinds and (err is None or c[3] == err) and c[4] == status
                and (pat.search(c[5]) or pat.search(c[6]))]
        if said:
            report(True, where + '"%s" (%s, status %s): %s' % (
                msg, err or 'no errno', status, ', '.join(said)))
        else:
            report(False, where + '"%s" (%s, status %s): no input of the manifest says it' % (
                msg, err or 'no errno', status))
    for heading in sorted(set(TABLE_KINDS) - seen):
        report(False, 'docs/errors.md: no "%s" table with a Message column' % heading)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
