#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a KernelShark 2.2.1 session file (kernelshark -s FILE.json).

  kshark-session.py OUT.json TRACE --pids P,Q,... [--plugin SO]
                    [--range MIN_NS,MAX_NS]

The session opens TRACE's top stream with task plots for the pids (no
CPU plot) in a window of a fixed size.  A .dat gets KernelShark's default
plugins (sched_events, missed_events, kvm_combo); with --plugin (an .fxt)
the plugin is a user plugin named "fxt" and registered on the stream (its
plot part on).  --range sets the visible time range, in KernelShark's ns.

What KernelShark 2.2.1 needs of it (src/KsSession.cpp,
src/libkshark-configio.c): "time" of each file its mtime exactly (else the
file is refused), a "Markers" object (without one it crashes), a stream's
plugins by name.
"""
import argparse
import json
import os


def mtime(path):
    return int(os.stat(path).st_mtime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('trace')
    ap.add_argument('--pids', required=True)
    ap.add_argument('--plugin')
    ap.add_argument('--range')
    a = ap.parse_args()

    trace = os.path.abspath(a.trace)
    if a.plugin:
        plugins = [['fxt', True]]
    else:
        plugins = [['sched_events', True], ['missed_events', True],
                   ['kvm_combo', True]]
    stream = {
        'type': 'kshark.config.stream', 'stream id': 0,
        'data': {'type': 'kshark.config.data', 'file': trace,
                 'name': 'top buffer', 'time': mtime(trace)},
        'filters': {'type': 'kshark.config.filter', 'filter mask': 7},
        'plugins': {'type': 'kshark.config.plugins',
                    'registered': plugins},
        'CPUPlots': [],
        'TaskPlots': [int(p) for p in a.pids.split(',')],
    }
    session = {
        'type': 'kshark.config.session',
        'data streams': [stream],
        'MainWindow': [1200, 900],
        'Splitter': [560, 240],
        'Markers': {'type': 'kshark.config.markers',
                    'markA': {'isSet': False}, 'markB': {'isSet': False},
                    'Active': 'A'},
    }
    if a.plugin:
        so = os.path.abspath(a.plugin)
        session['User Plugins'] = {
            'type': 'kshark.config.plugins',
            'obj. files': [{'file': so, 'name': 'fxt', 'time': mtime(so)}],
        }
    if a.range:
        lo, hi = (int(x) for x in a.range.split(','))
        session['Model'] = {'type': 'kshark.config.model',
                            'range': [lo, hi], 'bins': 1000}
    with open(a.out, 'w') as f:
        json.dump(session, f, indent=1)


main()
