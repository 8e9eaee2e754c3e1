#!/usr/bin/python3
"""rdc_check.py - checks a trace's RenderDoc event IDs against the .rdc with RenderDoc's own
Python module: every kernel that has one names an action of its kind, with the same counts
(draws: indices or vertices, instances, indexed or not; dispatches: group counts; render pass
load/clear and store rows: a begin of a pass whose ops clear or load, an end that stores), and
every draw and dispatch of the .rdc is some kernel's.
usage: rdc_check.py TRACE.llct CAPTURE.rdc     prints 'ok: N kernels' or the mismatches"""
import json
import sqlite3
import sys

import renderdoc as rd

trace, rdc = sys.argv[1:3]
rd.InitialiseReplay(rd.GlobalEnvironment(), [])
cap = rd.OpenCaptureFile()
assert cap.OpenFile(rdc, '', None) == rd.ResultCode.Succeeded, 'cannot open the .rdc'
st, ctrl = cap.OpenCapture(rd.ReplayOptions(), None)
assert st == rd.ResultCode.Succeeded, f'cannot replay the .rdc: {st}'
actions = {}


def walk(acts):
    for a in acts:
        actions[a.eventId] = a
        walk(a.children)


walk(ctrl.GetRootActions())
bad = []
seen = set()
rows = sqlite3.connect(trace).execute('SELECT id, kind, params FROM kernels ORDER BY id').fetchall()
n = 0
for kid, kind, params in rows:
    p = json.loads(params)
    if 'rdc_eid' not in p:
        continue
    n += 1
    a = actions.get(p['rdc_eid'])
    if a is None:
        bad.append(f'kernel {kid}: event {p["rdc_eid"]} is no action')
        continue
    seen.add(a.eventId)
    f = a.flags
    if kind == 'draw':
        if not f & rd.ActionFlags.Drawcall:
            bad.append(f'kernel {kid} (draw): event {a.eventId} is not a draw')
        elif (a.numIndices, a.numInstances, bool(f & rd.ActionFlags.Indexed)) != (p['count'], p['instances'], bool(p['indexed'])):
            bad.append(f'kernel {kid}: count {p["count"]} x{p["instances"]} indexed {p["indexed"]}, event {a.eventId}: {a.numIndices} x{a.numInstances}')
    elif kind == 'dispatch':
        if not f & rd.ActionFlags.Dispatch or list(a.dispatchDimension) != p['groups']:
            bad.append(f'kernel {kid}: groups {p["groups"]}, event {a.eventId}: {list(a.dispatchDimension)}')
    elif kind in ('copy', 'blit'):
        if not f & rd.ActionFlags.Copy:
            bad.append(f'kernel {kid} ({kind}): event {a.eventId} is not a copy')
    elif kind == 'resolve':
        if not f & rd.ActionFlags.Resolve:
            bad.append(f'kernel {kid}: event {a.eventId} is not a resolve')
    elif p.get('what', '').startswith('render pass'):
        name = a.GetName(ctrl.GetStructuredFile())
        want, op = (rd.ActionFlags.EndPass, 'Store') if kind == 'store' else \
            (rd.ActionFlags.BeginPass, 'Load' if kind == 'load' else 'Clear')
        if not f & want or f & rd.ActionFlags.CommandBufferBoundary or op not in name:
            bad.append(f'kernel {kid} ({p["what"]}): event {a.eventId} is {name}')
    elif kind == 'clear':
        if not f & rd.ActionFlags.Clear:
            bad.append(f'kernel {kid}: event {a.eventId} is not a clear')
for eid, a in actions.items():
    if (a.flags & (rd.ActionFlags.Drawcall | rd.ActionFlags.Dispatch)) and not a.flags & rd.ActionFlags.MultiAction and eid not in seen:
        bad.append(f'event {eid} ({a.GetName(ctrl.GetStructuredFile())}) is no kernel\'s')
ctrl.Shutdown()
cap.Shutdown()
rd.ShutdownReplay()
if bad or n == 0:
    print('\n'.join(bad) or 'no kernel has an event ID')
    sys.exit(1)
print(f'ok: {n} kernels')
