#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The tree's architecture, checked on what the build made (layout.sh).

Prints one "PASS what" or "FAIL what" line per check:

 - link lines (make -n of each product's link, the product's own file
   made new with -W): a product links objects of its own folder and the
   libraries it uses (directly or through another library on its line),
   never another product's object;
 - declared uses: each library's .mk names the libraries it uses (its
   *_LINK line), and they go one way, with no circle;
 - tiers (nm): a library calls only the libraries its .mk declares, no
   library a product, and no product another;
 - calling order (nm): inside each folder, no file calls into a file that
   calls it, directly or round a longer circle;
 - the mapping's headers: no map-*.c includes the header of a file that
   calls it;
 - sources only: the build left nothing in a source folder (it all goes
   to make's O, default build/);
 - others' names: no object of the tree defines a function or variable
   that libtraceevent, libtracecmd, libtracefs or libkshark exports (the
   dynamic linker would bind those libraries' own calls to it), and each
   product's dynamic symbols are the entry points its host looks up.
"""
import glob
import os
import re
import subprocess
import sys

TOP = sys.argv[1] if len(sys.argv) > 1 else '.'
os.chdir(TOP)
# Where the build put objects and products (make's O), as make names it.
BUILD = os.path.relpath(os.environ.get('BUILD_DIR') or 'build')

# The libraries, lowest first: folder -> archive.  Which other libraries
# each one uses is declared once, in its .mk (its *_LINK line), and read
# from there (declared()).
LIBS = {
    'common/util': 'libutil.a',
    'common/fxt': 'libfxt.a',
    'common/dat': 'libdat.a',
    'common/eventheader': 'libeventheader.a',
    'common/perfetto': 'libperfetto-pkt.a',
    'common/fxt-tep': 'libfxt-tep.a',
    'common/pft2dat': 'libpft2dat.a',
    'trace-cmd-plugin/dat-check': 'libdatcheck.a',
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
LIB_FILES = {os.path.join(BUILD, f, a): f for f, a in LIBS.items()}


def declared():
    """Folder -> the library folders its .mk's *_LINK line names."""
    var_dir, links = {}, {}
    for folder in LIBS:
        for mk in glob.glob(os.path.join(folder, '*.mk')):
            text = open(mk).read().replace('\\\n', ' ')
            for m in re.finditer(r'^(\w+)_LIB\s*:?=', text, re.M):
                var_dir[m.group(1)] = folder
            for m in re.finditer(r'^(\w+)_LINK\s*:?=(.*)$', text, re.M):
                links[folder] = re.findall(r'\$\((\w+)_LINK\)',
                                           m.group(2))
    return {f: sorted({var_dir[v] for v in links.get(f, ())
                       if v in var_dir})
            for f in LIBS}


def say(good, what):
    print(('PASS ' if good else 'FAIL ') + what)


def link_line(target, src):
    out = subprocess.run(['make', '-n', '-W', src, 'O=' + BUILD, target],
                         capture_output=True, text=True)
    text = out.stdout.replace('\\\n', ' ')
    for line in text.splitlines():
        if re.search(r'\s-o\s+%s(\s|$)' % re.escape(target), line):
            return line
    return None


def objects(folder):
    d = os.path.join(BUILD, folder)
    return sorted(os.path.join(d, f) for f in os.listdir(d)
                  if f.endswith('.o'))


def folder_of(obj):
    return os.path.relpath(os.path.dirname(obj), BUILD)


# The libraries of the tools the tree plugs into: none of their exported
# names may be defined here.
SYSTEM_LIBS = ('libtraceevent.so', 'libtracecmd.so', 'libtracefs.so',
               'libkshark.so')

# What each product may export: the entry points its host looks up by
# name (libtracecmd's, libtraceevent's and KernelShark's plugin loaders),
# the linker's own marks, and the C++ library's inline templates.
EXPORTS = {
    'trace-cmd-plugin/trace-fxt-input/trace-fxt-input.so': {
        'tracecmd_plugin_loader', 'tracecmd_plugin_unloader',
        'tracecmd_plugin_alias'},
    'trace-cmd-plugin/trace-fxt/trace-fxt': set(),
    'kernelshark-plugin/plugin-fxt.so': {
        'kshark_data_plugin_initializer', 'kshark_data_plugin_deinitializer',
        'kshark_plugin_menu_initializer', 'kshark_input_initializer',
        'kshark_input_deinitializer', 'kshark_input_check',
        'kshark_input_format'},
    'plugins/plugin_eventheader.so': {'tep_plugin_loader',
                                      'tep_plugin_unloader'},
    'plugins/plugin_fxt.so': {'tep_plugin_loader', 'tep_plugin_unloader'},
}
LINKER_MARKS = {'__bss_start', '_edata', '_end', '_init', '_fini'}


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
        elif kind in 'TDBRVWCG':
            defined.add(name)
    return defined, undef


def folder_calls(syms):
    """(caller folder, callee folder) -> the symbols, across folders."""
    owner = {}
    for obj, (defined, _) in syms.items():
        for s in defined:
            owner.setdefault(s, obj)
    calls = {}
    for obj, (_, undef) in syms.items():
        for s in undef:
            if s in owner and folder_of(owner[s]) != folder_of(obj):
                calls.setdefault((folder_of(obj), folder_of(owner[s])),
                                 set()).add(s)
    return owner, calls


def check_links(calls):
    """A product links its own objects and libraries it uses, directly
    or through another library on its line."""
    for target, src in LINKS.items():
        folder = os.path.dirname(target)
        built = os.path.join(BUILD, target)
        line = link_line(built, src)
        if line is None:
            say(False, 'link line of %s found by make -n' % built)
            continue
        ins = [t for t in line.split() if t.endswith(('.o', '.a'))]
        objs = [t for t in ins if t.endswith('.o')]
        libs = list(dict.fromkeys(t for t in ins if t.endswith('.a')))
        foreign = [o for o in objs if folder_of(o) != folder]
        bad_libs = [a for a in libs if a not in LIB_FILES]
        on_line = {LIB_FILES[a] for a in libs if a in LIB_FILES}
        users = on_line | {folder}
        unused = [a for a in libs if a in LIB_FILES and
                  not any((u, LIB_FILES[a]) in calls for u in users)]
        say(not foreign and not bad_libs and not unused and objs,
            'link of %s: %d objects of %s/, libraries %s%s%s' %
            (target, len(objs), folder,
             ' '.join(os.path.basename(a) for a in libs) or 'none',
             (' (foreign: %s)' % ' '.join(foreign + bad_libs))
             if foreign or bad_libs else '',
             (' (used by nothing on the line: %s)' % ' '.join(unused))
             if unused else ''))


def check_declared(decl):
    """The libraries' declared uses go one way: no library uses itself,
    round any circle."""
    bad = cycles({f: set(u) for f, u in decl.items()})
    say(not bad, 'libraries: %d, each using only libraries declared in '
        'its .mk (%s), with no circle%s' %
        (len(decl), '; '.join('%s: %s' % (os.path.basename(f),
                                          ' '.join(os.path.basename(u)
                                                   for u in us) or '-')
                             for f, us in decl.items()),
         ' (circle through %s)' % ' '.join(sorted(bad)) if bad else ''))


def check_tiers(calls, decl):
    for (a, b), names in sorted(calls.items()):
        if a in LIBS and b in LIBS:
            good = b in decl[a]	# a library calls what it declares
            why = 'not declared in its .mk'
        elif a in LIBS:
            good = False		# a library calling a product
            why = 'a library calls a product'
        else:
            good = b in LIBS	# a product calling a library
            why = 'a product calls another'
        say(good, '%s calls %s (%d symbols)%s' %
            (a, b, len(names), '' if good else
             ' - %s: %s' % (why, ' '.join(sorted(names)[:5]))))
    for a, uses in decl.items():
        idle = [u for u in uses if (a, u) not in calls]
        say(not idle, '%s calls every library its .mk declares%s' %
            (a, ' (not: %s)' % ' '.join(idle) if idle else ''))


def cycles(graph):
    """Every node that lies on a circle."""
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
    for n in list(graph):
        if not state.get(n):
            visit(n, [])
    return on


def check_order(syms, owner):
    for folder in list(LIBS) + list(PRODUCTS):
        objs = [o for o in syms if folder_of(o) == folder]
        graph = {}
        for o in objs:
            for s in syms[o][1]:
                d = owner.get(s)
                if d and d != o and folder_of(d) == folder:
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
        obj = os.path.join(BUILD, folder, src[:-2] + '.o')
        text = open(os.path.join(folder, src)).read()
        for h in re.findall(r'#include "(map-[a-z-]+)\.h"', text):
            callee = os.path.join(BUILD, folder, h + '.o')
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


def check_sources_only():
    """The build wrote nothing into a source folder."""
    made = subprocess.run(['git', 'ls-files', '--others', '--exclude-standard',
                           '--', 'common', 'trace-cmd-plugin',
                           'kernelshark-plugin', 'plugins', 'samples',
                           'tests', 'scripts'],
                          capture_output=True, text=True)
    if made.returncode:
        print('skip: not a git checkout, the source folders were not listed')
        return
    left = [f for f in made.stdout.split() if f.endswith(
        ('.o', '.d', '.a', '.so')) or os.access(f, os.X_OK) and
        not f.endswith(('.sh', '.py', '.bash'))]
    say(not left, 'the source folders hold no build output (%s)' %
        (' '.join(left[:5]) if left else 'git lists none untracked'))


def check_others_names(syms):
    """No object defines what the tools' libraries export."""
    taken = sorted('%s (%s)' % (s, obj) for obj, (defined, _) in syms.items()
                   for s in defined & SYSTEM)
    say(SYSTEM and not taken, 'no object defines a name libtraceevent, '
        'libtracecmd, libtracefs or libkshark exports (%d names of theirs'
        '%s)' % (len(SYSTEM), ': ' + ', '.join(taken[:5]) if taken else
                 ', none defined here'))


def check_exports():
    """Each product exports its host's entry points only."""
    for product, allowed in sorted(EXPORTS.items()):
        path = os.path.join(BUILD, product)
        out = subprocess.run(['nm', '-D', '--defined-only', '-P', path],
                             capture_output=True, text=True).stdout
        names = {line.split()[0] for line in out.splitlines()
                 if line.split()}
        extra = sorted(n for n in names - allowed - LINKER_MARKS
                       if not n.startswith('_ZNS'))
        say(os.path.exists(path) and not extra,
            'nm -D of %s: %s' % (product, ', '.join(extra) if extra else
                                 'only ' + ', '.join(sorted(names & allowed))
                                 if names & allowed else 'nothing exported'))


def main():
    decl = declared()
    syms = {}
    for folder in list(LIBS) + list(PRODUCTS):
        for o in objects(folder):
            syms[o] = nm(o)
    owner, calls = folder_calls(syms)
    check_links(calls)
    check_declared(decl)
    check_tiers(calls, decl)
    check_order(syms, owner)
    check_map_headers(syms, owner)
    check_sources_only()
    check_others_names(syms)
    check_exports()


main()
