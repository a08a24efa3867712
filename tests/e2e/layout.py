#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The tree's architecture, checked on what the build made (layout.sh).

Prints one "PASS what" or "FAIL what" line per check:

 - link lines (make -n of each product's link, the product's own file
   made new with -W): a product links objects of its own folder and the
   libraries, never another product's object;
 - tiers (nm): the core calls nothing above it, libfxt-tep.a nothing but
   the core, a library no product, and no product another;
 - calling order (nm): inside each folder, no file calls into a file that
   calls it, directly or round a longer circle;
 - the mapping's headers: no map-*.c includes the header of a file that
   calls it.
"""
import os
import re
import subprocess
import sys

TOP = sys.argv[1] if len(sys.argv) > 1 else '.'
os.chdir(TOP)

# folder -> (tier, what it is); lower tiers never call higher ones.
LIBS = {
    'common': (0, 'libfxt.a'),
    'common/fxt-tep': (1, 'libfxt-tep.a'),
    'trace-cmd-plugin/dat-check': (2, 'libdatcheck.a'),
}
PRODUCTS = {
    'trace-cmd-plugin/trace-fxt-input': 'trace-fxt-input.so',
    'trace-cmd-plugin/trace-fxt': 'trace-fxt',
    'kernelshark-plugin': 'plugin-fxt.so',
    'plugins': 'plugin_eventheader.so, plugin_fxt.so',
}
# product file -> the source whose "newness" makes make print its link
LINKS = {
    'trace-cmd-plugin/trace-fxt-input/trace-fxt-input.so':
        'trace-cmd-plugin/trace-fxt-input/plugin-fxt-input.c',
    'trace-cmd-plugin/trace-fxt/trace-fxt':
        'trace-cmd-plugin/trace-fxt/trace-fxt.c',
    'kernelshark-plugin/plugin-fxt.so': 'kernelshark-plugin/plugin-fxt.c',
    'plugins/plugin_eventheader.so': 'plugins/plugin_eventheader.c',
    'plugins/plugin_fxt.so': 'plugins/plugin_fxt.c',
}
LIB_FILES = {'common/libfxt.a', 'common/fxt-tep/libfxt-tep.a',
             'trace-cmd-plugin/dat-check/libdatcheck.a'}


def say(good, what):
    print(('PASS ' if good else 'FAIL ') + what)


def link_line(target, src):
    out = subprocess.run(['make', '-n', '-W', src, target],
                         capture_output=True, text=True)
    text = out.stdout.replace('\\\n', ' ')
    for line in text.splitlines():
        if re.search(r'\s-o\s+%s(\s|$)' % re.escape(target), line):
            return line
    return None


def check_links():
    for target, src in LINKS.items():
        folder = os.path.dirname(target)
        line = link_line(target, src)
        if line is None:
            say(False, 'link line of %s found by make -n' % target)
            continue
        ins = [t for t in line.split() if t.endswith(('.o', '.a'))]
        objs = [t for t in ins if t.endswith('.o')]
        libs = [t for t in ins if t.endswith('.a')]
        foreign = [o for o in objs if os.path.dirname(o) != folder]
        bad_libs = [a for a in libs if a not in LIB_FILES]
        say(not foreign and not bad_libs and objs,
            'link of %s: %d objects of %s/, libraries %s%s' %
            (target, len(objs), folder, ' '.join(libs) or 'none',
             (' (foreign: %s)' % ' '.join(foreign + bad_libs))
             if foreign or bad_libs else ''))


def objects(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if f.endswith('.o'))


# The system libraries whose functions a file of the tree may define in
# their stead (kallsyms.c interposes one of libtraceevent's): such a
# definition is the library's function, not a call into that file.
SYSTEM_LIBS = ('libtraceevent.so', 'libtracecmd.so')


def system_symbols():
    out = subprocess.run(['ldconfig', '-p'], capture_output=True,
                         text=True).stdout
    paths = set()
    for line in out.splitlines():
        name, _, path = line.strip().partition(' => ')
        if name.split(' ')[0].startswith(SYSTEM_LIBS) and path:
            paths.add(path)
    names = set()
    for path in paths:
        out = subprocess.run(['nm', '-D', '--defined-only', '-P', path],
                             capture_output=True, text=True).stdout
        names.update(line.split()[0] for line in out.splitlines()
                     if line.split())
    return names


SYSTEM = system_symbols()


def nm(obj):
    out = subprocess.run(['nm', '-P', obj], capture_output=True,
                         text=True, check=True).stdout
    defined, undef = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == 'U':
            undef.add(name)
        elif kind in 'TDBRVWCG' and name not in SYSTEM:
            defined.add(name)
    return defined, undef


def check_tiers(syms):
    owner = {}
    for obj, (defined, _) in syms.items():
        for s in defined:
            owner.setdefault(s, obj)
    folder = lambda o: os.path.dirname(o)
    calls = {}
    for obj, (_, undef) in syms.items():
        for s in undef:
            if s in owner and folder(owner[s]) != folder(obj):
                calls.setdefault((folder(obj), folder(owner[s])),
                                 set()).add(s)
    for (a, b), names in sorted(calls.items()):
        if a in LIBS and b in LIBS:
            good = LIBS[b][0] < LIBS[a][0]
        elif a in LIBS:
            good = False		# a library calling a product
        else:
            good = b in LIBS	# a product calling a library
        say(good, '%s calls %s (%d symbols)%s' %
            (a, b, len(names), '' if good else
             ': ' + ' '.join(sorted(names)[:5])))
    return owner


def cycles(graph):
    """Every file that lies on a circle of calls."""
    state, on = {}, set()

    def visit(n, stack):
        state[n] = 1
        stack.append(n)
        for m in graph.get(n, ()):
            if state.get(m) == 1:
                on.update(stack[stack.index(m):])
            elif not state.get(m):
                visit(m, stack)
        stack.pop()
        state[n] = 2
    for n in graph:
        if not state.get(n):
            visit(n, [])
    return on


def check_order(syms, owner):
    for folder in list(LIBS) + list(PRODUCTS):
        objs = [o for o in syms if os.path.dirname(o) == folder]
        graph = {}
        for o in objs:
            for s in syms[o][1]:
                d = owner.get(s)
                if d and d != o and os.path.dirname(d) == folder:
                    graph.setdefault(o, set()).add(d)
        edges = sum(len(v) for v in graph.values())
        bad = cycles(graph)
        say(not bad, '%s: %d files, %d calls between them, none back '
            'into a caller%s' % (folder, len(objs), edges,
                                 (' (circle through %s)' %
                                  ' '.join(sorted(os.path.basename(b)
                                                  for b in bad)))
                                 if bad else ''))


def check_map_headers(syms, owner):
    folder = 'trace-cmd-plugin/trace-fxt-input'
    srcs = sorted(f for f in os.listdir(folder)
                  if f.startswith('map-') and f.endswith('.c'))
    bad, seen = [], 0
    for src in srcs:
        obj = os.path.join(folder, src[:-2] + '.o')
        text = open(os.path.join(folder, src)).read()
        for h in re.findall(r'#include "(map-[a-z-]+)\.h"', text):
            callee = os.path.join(folder, h + '.o')
            if callee == obj or callee not in syms:
                continue		# its own header, or types only
            seen += 1
            mine = syms[obj][0]
            if mine & syms[callee][1]:
                bad.append('%s includes %s.h, whose file calls it' %
                           (src, h))
    say(not bad and seen, 'the mapping: %d includes of another file\'s '
        'header, none of a caller\'s%s' % (seen, ('; ' + '; '.join(bad))
                                           if bad else ''))


def main():
    check_links()
    syms = {}
    for folder in list(LIBS) + list(PRODUCTS):
        for o in objects(folder):
            syms[o] = nm(o)
    owner = check_tiers(syms)
    check_order(syms, owner)
    check_map_headers(syms, owner)


main()
