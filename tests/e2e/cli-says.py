#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Does a help text or a rendered man page say every option of a command?

  cli-says.py OPTIONS COMMAND TEXT WHERE

OPTIONS is cli-options.py's output, COMMAND the command whose options are
looked for, TEXT the help (trace-fxt COMMAND -h) or the page as man
renders it (plain text), WHERE what TEXT is, for the messages.  For each
option, its entry is found in the options' section (a line that begins
with its forms) and what follows it up to the next option's entry must
hold its argument, its default ("default: ..."), "required" or its
direction where it has them.
Prints one "PASS what" or "FAIL what" line per option.
"""
import re
import sys

opts_file, cmd, text_file, where = sys.argv[1:5]
opts = []
for line in open(opts_file):
    f = line.rstrip('\n').split('\t')
    if f[0] == cmd and len(f) == 5:
        opts.append(f)
lines = open(text_file, errors='replace').read().splitlines()
# only the options' section: "options:" in the help, OPTIONS in a page
top = [n for n, line in enumerate(lines) if line in ('options:', 'OPTIONS')]
if top:
    end = next((n for n in range(top[0] + 1, len(lines))
                if lines[n].strip() and not lines[n][:1].isspace()),
               len(lines))
    lines = lines[top[0] + 1:end]
else:
    lines = []


def forms_re(forms):
    """How an entry begins: "-o, --output" (help, man) or "--start"."""
    f = forms.split()
    if len(f) == 2:
        return re.compile(r'^\s*%s, %s(\s|$)' % (re.escape(f[0]),
                                                  re.escape(f[1])))
    return re.compile(r'^\s*%s(\s|$)' % re.escape(f[0]))


starts = [forms_re(o[1]) for o in opts]


def entry(i):
    """The text of option @i's entry, whitespace squeezed, or None."""
    for n, line in enumerate(lines):
        if not starts[i].search(line):
            continue
        body = [line]
        for nxt in lines[n + 1:]:
            if any(s.search(nxt) for s in starts) or \
               (nxt.strip() and not nxt[:1].isspace()):
                break
            body.append(nxt)
        return ' '.join(' '.join(body).split())
    return None


for i, (c, forms, value, default, direction) in enumerate(opts):
    text = entry(i)
    if text is None:
        print('FAIL %s: %s has no entry for %s' % (where, cmd, forms))
        continue
    want = []
    if value:
        want.append(value)
    if default == 'required':
        want.append('required')
    elif default:
        want.append('default: ' + default)
    if direction:
        want.append(direction)
    missing = [w for w in want if ' '.join(w.split()) not in text]
    if missing:
        print('FAIL %s: %s %s lacks %s (it says: %s)' %
              (where, cmd, forms, '; '.join(repr(m) for m in missing),
               text[:160]))
    else:
        print('PASS %s: %s %s%s' % (where, cmd, forms,
                                    (' with ' + ', '.join(want)) if want
                                    else ''))
