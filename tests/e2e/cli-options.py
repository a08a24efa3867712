#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every option trace-fxt's code accepts, read from its sources.

The options are read from the C, not asked of the binary, so that what
the help, the man pages and the completion are checked against is what
the parser is given (cli-help.sh, cli-man.sh, cli-completion.sh):

 - each command's table: a `struct trace_fxt_cmd` (cmd-*.c, trace-fxt.c)
   names its `struct trace_fxt_opt` array (.opts), whose entries give the
   option's key, short form, long name, argument, default, direction;
   usage.c's trace_fxt_help_opt (-h, --help) goes to every command;
 - anything else that would parse options: a `struct option` entry, a
   getopt() string, a strcmp() of an argument with "-..." outside opts.c.
   Such an option (another branch's, say) is listed under its file's
   command too, and named on a "stray" line, so that the checks see it.

Prints one line per option: COMMAND<TAB>FORMS<TAB>VALUE<TAB>DEF<TAB>DIR
(COMMAND "trace-fxt" for the command's own; FORMS "-o --output"; VALUE
the argument as the help shows it, "" for a flag; DEF the default,
"required" or ""; DIR ".dat -> FXT", "FXT -> .dat" or ""), then
"stray<TAB>FILE<TAB>WHAT" lines.  Usage: cli-options.py SRC_DIR
"""
import os
import re
import sys

SRC = sys.argv[1]
STRING = r'"(?:[^"\\]|\\.)*"'
DIRS = {'TRACE_FXT_TO_FXT': '.dat -> FXT', 'TRACE_FXT_TO_DAT': 'FXT -> .dat'}


def strip_comments(text):
    """@text without its comments (string and char literals kept)."""
    return re.sub(r'(%s|\'(?:[^\'\\]|\\.)*\')|/\*.*?\*/|//[^\n]*' % STRING,
                  lambda m: m.group(1) or ' ', text, flags=re.S)


def unquote(lit):
    return bytes(lit[1:-1], 'utf-8').decode('unicode_escape')


def value(expr, defines):
    """A C initializer: concatenated literals, a char, a macro, a name."""
    expr = expr.strip()
    lits = re.findall(STRING, expr)
    if lits and re.fullmatch(r'(\s*%s\s*)+' % STRING, expr):
        return ''.join(unquote(s) for s in lits)
    m = re.fullmatch(r"'(.)'", expr)
    if m:
        return m.group(1)
    if expr in defines:
        return value(defines[expr], defines)
    return expr


def fields(body, defines):
    """.name = value pairs of one designated initializer."""
    out = {}
    parts = re.split(r'(?:^|,)\s*\.(\w+)\s*=', body)
    for i in range(1, len(parts) - 1, 2):
        out[parts[i]] = value(parts[i + 1].rstrip().rstrip(','), defines)
    return out


def blanked_strings(text):
    """@text with the insides of string literals blanked (for braces)."""
    return re.sub(STRING, lambda m: '"' + ' ' * (len(m.group(0)) - 2) + '"',
                  text)


def entries(text, blank, start, end):
    """The entries between @start and @end, braces found on @blank."""
    depth, first, out = 0, None, []
    for i in range(start, end):
        ch = blank[i]
        if ch == '{':
            depth += 1
            if depth == 1:
                first = i + 1
        elif ch == '}':
            depth -= 1
            if depth == 0:
                out.append(text[first:i])
    return out


def main():
    tables, cmds, stray = {}, [], []
    help_opts = []
    for fname in sorted(os.listdir(SRC)):
        if not fname.endswith('.c'):
            continue
        text = strip_comments(open(os.path.join(SRC, fname)).read())
        defines = dict(re.findall(r'#define\s+(\w+)\s+(%s)' % STRING, text))
        blank = blanked_strings(text)
        for m in re.finditer(r'struct trace_fxt_opt\s+(\w+)\[\]\s*=\s*\{',
                             blank):
            end = blank.index('};', m.end())
            opts = [fields(e, defines) for e in
                    entries(text, blank, m.end(), end)]
            opts = [o for o in opts if 'name' in o]
            tables[m.group(1)] = opts
            if m.group(1) == 'trace_fxt_help_opt':
                help_opts = opts
        for m in re.finditer(r'struct trace_fxt_cmd\s+(\w+)\s*=\s*\{',
                             blank):
            end = blank.index('};', m.end())
            f = fields(text[m.end():end], defines)
            cmds.append((f.get('name', 'trace-fxt'), f.get('opts'), fname))
        if fname == 'opts.c':
            continue
        # option parsing that does not go through the tables
        for m in re.finditer(r'\{\s*(%s)\s*,\s*(no|required|optional)_argument'
                             % STRING, text):
            stray.append((fname, '--' + unquote(m.group(1)),
                          'a struct option entry'))
        for m in re.finditer(r'getopt(?:_long)?\s*\([^;]*?(%s)' % STRING,
                             text):
            for ch in re.findall(r'[A-Za-z0-9]', unquote(m.group(1))):
                stray.append((fname, '-' + ch, 'a getopt() string'))
        for m in re.finditer(r'strn?cmp\s*\(\s*argv[^,]*,\s*"(-[^"]*)"',
                             text):
            stray.append((fname, m.group(1), 'compared with strcmp()'))
    by_file = {}
    for name, opts, fname in cmds:
        by_file.setdefault(fname, name)
        for o in tables.get(opts, []) + help_opts:
            forms = ('-%s ' % o['key'] if o.get('letter') == 'true'
                     else '') + '--' + o['name']
            val = o.get('value', '')
            if not val and o.get('arg', '').endswith('CHOICE'):
                val = o.get('words', '').replace(' ', '|')
            if o.get('arg', 'TRACE_FXT_ARG_NONE') == 'TRACE_FXT_ARG_NONE':
                val = ''
            default = 'required' if o.get('required') == 'true' else \
                o.get('def', '')
            print('\t'.join([name, forms, val, default,
                             DIRS.get(o.get('dirs', ''), '')]))
    for fname, form, what in stray:
        cmd = by_file.get(fname, re.sub(r'^cmd-|\.c$', '', fname))
        print('\t'.join([cmd, form, '', '', '']))
        print('\t'.join(['stray', fname, '%s (%s)' % (form, what)]))


main()
