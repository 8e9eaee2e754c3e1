#!/usr/bin/env python3
"""report_check.py - opens an llctrace report page in headless Chromium and checks it.

Drives Debian's Chromium through the DevTools protocol over a pipe (--remote-debugging-pipe:
no websocket, no npm package). For each selection given (a URL fragment), it loads the page
from file://, waits until the page says it is ready, and fails when:
  - a console error or warning, an uncaught exception or a dialog appears;
  - the page asks for anything but file:, data: or blob: URLs (it must work offline);
  - a part named in --expect has no chart, or a chart with no marks;
  - a table differs from the rows its query (shown beside it) returns from the results database
    itself, run here with Python's sqlite3;
  - a chart does not export as SVG and PNG.
It saves a full-page screenshot per selection.

usage: report_check.py CHROMIUM PAGE.html RESULTS.db SHOTS_DIR SEL [SEL...]
  SEL: NAME|FRAGMENT|PART,PART,...  (FRAGMENT as in page.html#FRAGMENT; PARTs must have charts)
"""
import base64
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse


class Browser:
    """Chromium with the DevTools protocol on fds 3 (commands in) and 4 (events out)."""

    def __init__(self, exe):
        self.profile = tempfile.mkdtemp(prefix='llct-chromium-')
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def child():
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)

        self.proc = subprocess.Popen(
            [exe, '--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe',
             '--user-data-dir=' + self.profile, '--no-first-run', '--no-default-browser-check',
             '--disable-extensions', '--disable-background-networking', '--disable-sync',
             '--window-size=1280,1000', 'about:blank'],
            pass_fds=(3, 4, to_r, from_w), preexec_fn=child,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buf = b''
        self.next_id = 0
        self.events = []

    def _read(self, timeout):
        import select
        while b'\0' not in self.buf:
            r, _, _ = select.select([self.from_r], [], [], timeout)
            if not r:
                raise TimeoutError('no answer from Chromium')
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise RuntimeError('Chromium closed the pipe')
            self.buf += chunk
        msg, self.buf = self.buf.split(b'\0', 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.to_w, json.dumps(msg).encode() + b'\0')
        while True:
            m = self._read(timeout)
            if m.get('id') == self.next_id:
                if 'error' in m:
                    raise RuntimeError(f'{method}: {m["error"]}')
                return m.get('result', {})
            self.events.append(m)

    def pump(self, seconds):
        end = time.time() + seconds
        while time.time() < end:
            try:
                self.events.append(self._read(max(0.01, end - time.time())))
            except TimeoutError:
                return

    def close(self):
        try:
            self.call('Browser.close', timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        subprocess.run(['rm', '-rf', self.profile])


def fmt(v):
    """A value as the page shows it (report.js fmt)."""
    if v is None:
        return '–'
    if isinstance(v, (int, float)):
        return str(int(v)) if float(v).is_integer() else f'{v:.4f}'
    return str(v)


def same(shown, want):
    if shown == want:
        return True
    try:  # toFixed and Python round halves differently: allow half a unit of the 4th decimal
        return abs(float(shown) - float(want)) <= 0.00005 + 1e-12
    except ValueError:
        return False


def check_selection(b, page, results, shots, name, fragment, expect, problems):
    tgt = b.call('Target.createTarget', {'url': 'about:blank'})['targetId']
    ses = b.call('Target.attachToTarget', {'targetId': tgt, 'flatten': True})['sessionId']
    for d in ('Runtime.enable', 'Log.enable', 'Page.enable', 'Network.enable'):
        b.call(d, session=ses)
    b.events.clear()
    url = 'file://' + urllib.parse.quote(os.path.abspath(page)) + ('#' + fragment if fragment else '')
    b.call('Page.navigate', {'url': url}, session=ses)
    t0 = time.time()
    ready = False
    while time.time() - t0 < 120:
        r = b.call('Runtime.evaluate', {'expression': 'window.llctReport ? window.llctReport.ready : false',
                                        'returnByValue': True}, session=ses)
        if r.get('result', {}).get('value'):
            ready = True
            break
        b.pump(0.25)
    if not ready:
        problems.append(f'{name}: the page was not ready after 120 s')
    b.pump(0.5)
    load_s = time.time() - t0
    # what the page did, and each part's table as shown
    js = """(() => {
      const s = window.llctReport;
      return { errors: s.errors, filters: s.filters, parts: s.parts.map(p => {
        const box = document.querySelector('div.part[data-part="' + p.id + '"]');
        const det = box;
        const rows = det ? [...det.querySelectorAll('table.rows tbody tr')].map(tr => [...tr.children].map(td => td.textContent)) : [];
        const cols = det ? [...det.querySelectorAll('table.rows thead th')].map(th => th.textContent) : [];
        const svgMarks = box ? box.querySelectorAll('svg .mark-rect path, svg .mark-line path, svg .mark-symbol path, svg .mark-area path').length : 0;
        const rowsNote = box ? !!box.querySelector('p.frames-missing') : false;
        return Object.assign({}, p, { table: rows, cols: cols, svgMarks: svgMarks, rowsNote: rowsNote,
          shownSql: det ? det.querySelector('pre.sql').textContent : null });
      })};
    })()"""
    r = b.call('Runtime.evaluate', {'expression': js, 'returnByValue': True}, session=ses)
    state = r['result']['value']
    for e in state['errors']:
        problems.append(f'{name}: page error: {e}')
    for ev in b.events:
        m, p = ev.get('method'), ev.get('params', {})
        if m == 'Runtime.consoleAPICalled' and p.get('type') in ('error', 'warning', 'assert'):
            text = ' '.join(str(a.get('value', a.get('description', ''))) for a in p.get('args', []))
            problems.append(f'{name}: console {p["type"]}: {text}')
        elif m == 'Runtime.exceptionThrown':
            problems.append(f'{name}: exception: {p["exceptionDetails"].get("text")} '
                            f'{p["exceptionDetails"].get("exception", {}).get("description", "")}')
        elif m == 'Log.entryAdded' and p['entry'].get('level') == 'error':
            problems.append(f'{name}: log error: {p["entry"].get("text")} {p["entry"].get("url", "")}')
        elif m == 'Page.javascriptDialogOpening':
            problems.append(f'{name}: a dialog opened: {p.get("message")}')
        elif m == 'Network.requestWillBeSent':
            u = p['request']['url']
            if not u.startswith(('file:', 'data:', 'blob:')):
                problems.append(f'{name}: the page asked the network for {u}')
    db = sqlite3.connect('file:' + urllib.parse.quote(os.path.abspath(results)) + '?mode=ro', uri=True)
    checked = charts = 0
    for p in state['parts']:
        if p['shownSql'] != p['sql']:
            problems.append(f'{name}/{p["id"]}: the query shown is not the query run')
        try:
            cur = db.execute(p['sql'])
            want_cols = [d[0] for d in cur.description]
            want = cur.fetchall()
        except sqlite3.Error as e:
            problems.append(f'{name}/{p["id"]}: the query fails on the results database: {e}')
            continue
        if p.get('framesMissing'):
            # per-frame rows of some runs left out of the page (--max-frame-rows): what is
            # shown must still be rows of the query, and the page must say so
            if not p['rowsNote']:
                problems.append(f'{name}/{p["id"]}: per-frame rows left out without a note')
            have = {tuple(fmt(v) for v in row) for row in want}
            for i, got in enumerate(p['table']):
                checked += len(got)
                if not any(all(same(g, e) for g, e in zip(got, w)) for w in have):
                    problems.append(f'{name}/{p["id"]}: row {i} {got} is not a row of the query')
                    break
            continue
        if p['rows'] != len(want):
            problems.append(f'{name}/{p["id"]}: the page got {p["rows"]} rows, results.db gives {len(want)}')
        if want and p['cols'] != want_cols:
            problems.append(f'{name}/{p["id"]}: columns {p["cols"]} != {want_cols}')
        if len(p['table']) != min(len(want), 300):
            problems.append(f'{name}/{p["id"]}: {len(p["table"])} rows shown of {len(want)}')
        for i, (got, exp) in enumerate(zip(p['table'], want)):
            for j, (g, e) in enumerate(zip(got, exp)):
                checked += 1
                if not same(g, fmt(e)):
                    problems.append(f'{name}/{p["id"]}: row {i} column {want_cols[j]}: shown {g!r}, results.db {fmt(e)!r}')
                    break
        if p['id'] in expect:
            if not p['chart'] or p['marks'] <= 0 or p['svgMarks'] <= 0:
                problems.append(f'{name}/{p["id"]}: empty chart (rows {p["rows"]}, marks {p["marks"]}, svg marks {p["svgMarks"]})')
            else:
                charts += 1
    missing = set(expect) - {p['id'] for p in state['parts']}
    for m in sorted(missing):
        problems.append(f'{name}: no part {m}')
    # exports
    r = b.call('Runtime.evaluate', {'expression': """(async () => {
        const v = window.llctReport.views;
        if (!v.length) return 'no views';
        const text = async (u) => (await fetch(u)).text();
        const svg = await text(await v[0].toImageURL('svg')), png = await v[0].toImageURL('png');
        return svg.slice(0, 4) + ' ' + svg.length + ' ' + png.slice(0, 22) + ' ' + png.length;
      })()""", 'awaitPromise': True, 'returnByValue': True}, session=ses)
    ex = r['result'].get('value', '')
    parts = ex.split()
    if expect and (len(parts) != 4 or parts[0] != '<svg' or int(parts[1]) < 1000
                   or not parts[2].startswith('data:image/png') or int(parts[3]) < 1000):
        problems.append(f'{name}: chart export failed: {ex}')
    # full-page screenshot
    lm = b.call('Page.getLayoutMetrics', session=ses)
    size = lm.get('cssContentSize', lm.get('contentSize'))
    shot = b.call('Page.captureScreenshot', {'format': 'png', 'captureBeyondViewport': True,
                                             'clip': {'x': 0, 'y': 0, 'width': size['width'],
                                                      'height': min(size['height'], 16000), 'scale': 1}},
                  session=ses)
    path = os.path.join(shots, f'report-{name}.png')
    with open(path, 'wb') as f:
        f.write(base64.b64decode(shot['data']))
    # and one per section, to look at
    r = b.call('Runtime.evaluate', {'expression': """[...document.querySelectorAll('main > section')].map(s => {
        const r = s.getBoundingClientRect();
        return [s.id, r.left + scrollX, r.top + scrollY, r.width, r.height]; })""", 'returnByValue': True}, session=ses)
    for sid, x, y, w, h in r['result']['value']:
        if w > 0 and h > 0:
            shot = b.call('Page.captureScreenshot', {'format': 'png', 'captureBeyondViewport': True,
                                                     'clip': {'x': x, 'y': y, 'width': w, 'height': min(h, 4000), 'scale': 1}},
                          session=ses)
            with open(os.path.join(shots, f'report-{name}-{sid}.png'), 'wb') as f:
                f.write(base64.b64decode(shot['data']))
    b.call('Target.closeTarget', {'targetId': tgt})
    print(f'{name}: {len(state["parts"])} parts, {charts} charts checked, {checked} cells equal to '
          f'results.db, loaded in {load_s:.1f}s; screenshot {path}')


def main():
    if len(sys.argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    exe, page, results, shots = sys.argv[1:5]
    os.makedirs(shots, exist_ok=True)
    problems = []
    b = Browser(exe)
    try:
        for sel in sys.argv[5:]:
            name, fragment, expect = sel.split('|', 2)
            check_selection(b, page, results, shots, name, fragment,
                            [e for e in expect.split(',') if e], problems)
    finally:
        b.close()
    for p in problems:
        print('FAIL ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
