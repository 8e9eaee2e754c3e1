#!/usr/bin/python3
"""rdc_events.py - gives each kernel of an llctrace trace the RenderDoc event ID of the same
call in a RenderDoc capture of the same frames (`llctrace capture --renderdoc` runs it).

RenderDoc's Python module (python3-renderdoc; it imports only in Debian's /usr/bin/python3)
opens the .rdc and lists its actions in order. Each class of kernel is matched, in order,
with the same class of action:
  draw      - actions flagged Drawcall (a multi-draw's sub-draws each)
  dispatch  - actions flagged Dispatch
  copy/blit - actions flagged Copy
  resolve   - actions flagged Resolve
  clear     - actions flagged Clear (vkCmdClear*, vkCmdFillBuffer)
The load/clear and store rows of render pass attachments are RenderDoc's begin and end of the
pass (actions flagged BeginPass / EndPass); not every pass has such rows, so they are placed by
their neighbours once the classes above are mapped: a store row gets the first EndPass after the
mapped kernel before it, a load/clear row the last BeginPass before the mapped kernel (or store
row) after it.
The capture layer starts RenderDoc one frame early (capture.renderdoc_from: the frame it
started in), so the .rdc's frames before the range are skipped first: up to the end of as many
submissions (submit frames, or auto frames before the program's swapchain) or presents as
frames lie between. Where a class has more kernels than events, the extra kernels lead (the
first frame can hold RenderDoc's own copies of initial contents, made through the program's
queue): that class is matched from its end. Where it has more events, they trail (the .rdc can
end a few calls after the range): it is matched from its start. Each mapped kernel gets
params.rdc_eid; the trace's settings get capture.renderdoc (the .rdc) and capture.renderdoc_map
(what was mapped).

usage: rdc_events.py TRACE.llct CAPTURE.rdc     prints one line: mapped N of M kernels
"""
import json
import re
import sqlite3
import sys

import renderdoc as rd


SUBMIT_END = re.compile(r'^=> vkQueueSubmit2?\((\d+)\)\[(\d+)\]: vkEndCommandBuffer')


def actions_of(path, skip):
    """The .rdc's actions in order, by class, after skipping `skip`: a list of 'submit' or
    'present' boundaries to pass first."""
    rd.InitialiseReplay(rd.GlobalEnvironment(), [])
    cap = rd.OpenCaptureFile()
    if cap.OpenFile(path, '', None) != rd.ResultCode.Succeeded:
        raise SystemExit(f"'{path}': RenderDoc cannot open it")
    st, ctrl = cap.OpenCapture(rd.ReplayOptions(), None)
    if st != rd.ResultCode.Succeeded:
        raise SystemExit(f"'{path}': RenderDoc cannot replay it ({st})")
    sf = ctrl.GetStructuredFile()
    out = []
    todo = list(skip)

    def walk(actions):
        for a in actions:
            name = a.GetName(sf)
            if todo:  # still before the range: look for the next boundary
                m = SUBMIT_END.match(name)
                if (todo[0] == 'submit' and m and int(m.group(2)) == int(m.group(1)) - 1) or \
                        (todo[0] == 'present' and name.startswith('vkQueuePresent')):
                    todo.pop(0)
                walk(a.children)
                continue
            f = a.flags
            if f & rd.ActionFlags.Drawcall and not f & rd.ActionFlags.MultiAction:
                out.append(('draw', a.eventId))
            elif f & rd.ActionFlags.Dispatch:
                out.append(('dispatch', a.eventId))
            elif f & rd.ActionFlags.Resolve:
                out.append(('resolve', a.eventId))
            elif f & rd.ActionFlags.Copy:
                out.append(('copy', a.eventId))
            elif f & rd.ActionFlags.Clear:
                out.append(('clear', a.eventId))
            elif f & rd.ActionFlags.CommandBufferBoundary:
                pass  # RenderDoc flags command buffer starts and ends as pass boundaries too
            elif f & rd.ActionFlags.BeginPass:
                out.append(('begin', a.eventId))
            elif f & rd.ActionFlags.EndPass:
                out.append(('end', a.eventId))
            walk(a.children)

    walk(ctrl.GetRootActions())
    ctrl.Shutdown()
    cap.Shutdown()
    rd.ShutdownReplay()
    return out, len(todo)


def skip_of(db):
    """The boundaries between where the .rdc starts and the range's first frame."""
    settings = dict(db.execute("SELECT key, value FROM settings WHERE key LIKE 'capture.%'"))
    start = settings.get('capture.renderdoc_from')
    first = db.execute('SELECT min(frame) FROM frames').fetchone()[0]
    if start is None or first is None:
        return []
    mode = settings.get('capture.boundary', 'present')
    switch = None  # auto: presents from this frame on
    m = re.match(r'present \(submissions before frame (\d+)\)', settings.get('capture.boundary_auto', ''))
    if m:
        switch = int(m.group(1))
    out = []
    for f in range(int(start), int(first)):
        if mode == 'submit' or (mode == 'auto' and (switch is None or f < switch)):
            out.append('submit')
        else:
            out.append('present')
    return out


def kernel_class(kind, params):
    if kind in ('draw', 'dispatch', 'resolve'):
        return kind
    if kind in ('copy', 'blit'):
        return 'copy'
    if str(params.get('what', '')).startswith('render pass'):
        return 'end' if kind == 'store' else 'begin'
    if kind == 'clear':
        return 'clear'
    return None


def place_pass_rows(rows, begins, ends):
    """Event IDs for the render-pass rows: rows is every kernel in order as [class, params],
    the other classes' params already holding rdc_eid where mapped."""
    def eid(i):
        return rows[i][1].get('rdc_eid')
    n = 0
    for i, (c, p) in enumerate(rows):  # store rows: first EndPass after the mapped kernel before
        if c != 'end':
            continue
        prev = next((eid(j) for j in range(i - 1, -1, -1) if rows[j][0] not in ('begin', 'end') and eid(j) is not None), 0)
        e = next((e for e in ends if e > prev), None)
        if e is not None:
            p['rdc_eid'] = e
            n += 1
    for i, (c, p) in enumerate(rows):  # load/clear rows: last BeginPass before the next mapped
        if c != 'begin':
            continue
        nxt = next((eid(j) for j in range(i + 1, len(rows)) if rows[j][0] != 'begin' and eid(j) is not None), None)
        b = [b for b in begins if nxt is None or b < nxt]
        if b:
            p['rdc_eid'] = b[-1]
            n += 1
    return n


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    trace, rdc = sys.argv[1:]
    db = sqlite3.connect(trace)
    skip = skip_of(db)
    acts, unskipped = actions_of(rdc, skip)
    rows = db.execute('SELECT id, kind, params FROM kernels ORDER BY id').fetchall()
    every, by_class = [], {}
    for kid, kind, params in rows:
        p = json.loads(params) if params else {}
        c = kernel_class(kind, p)
        every.append((kid, c, p))
        if c and c not in ('begin', 'end'):
            by_class.setdefault(c, []).append((kid, p))
    events = {}
    for c, eid in acts:
        events.setdefault(c, []).append(eid)
    mapped, notes = 0, []
    if skip:
        notes.append(f'{len(skip) - unskipped} frames before the range skipped')
    for c in sorted(set(by_class) | set(events) - {'begin', 'end'}):
        ks, es = by_class.get(c, []), events.get(c, [])
        n = min(len(ks), len(es))
        if len(ks) > len(es):  # leading extra kernels: match from the end
            pairs = list(zip(ks[len(ks) - n:], es))
        else:  # trailing extra events (or none): match from the start
            pairs = list(zip(ks, es[:n]))
        for (kid, p), eid in pairs:
            p['rdc_eid'] = eid
            mapped += 1
        notes.append(f'{c}: {n}' + (f' of {len(ks)} kernels, {len(es)} events' if len(ks) != len(es) else ''))
    n_pass = sum(1 for _, c, _ in every if c in ('begin', 'end'))
    if n_pass:
        n = place_pass_rows([[c, p] for _, c, p in every], events.get('begin', []), events.get('end', []))
        mapped += n
        notes.append(f'render pass rows: {n}' + (f' of {n_pass}' if n != n_pass else ''))
    for kid, c, p in every:
        if 'rdc_eid' in p:
            db.execute('UPDATE kernels SET params = ? WHERE id = ?', (json.dumps(p, separators=(',', ':')), kid))
    summary = f'mapped {mapped} of {len(rows)} kernels (' + '; '.join(notes) + ')'
    db.execute('INSERT OR REPLACE INTO settings VALUES (?, ?)', ('capture.renderdoc', rdc))
    db.execute('INSERT OR REPLACE INTO settings VALUES (?, ?)', ('capture.renderdoc_map', summary))
    db.commit()
    print(summary)
    return 0


if __name__ == '__main__':
    sys.exit(main())
