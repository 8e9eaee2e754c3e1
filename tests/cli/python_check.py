"""python_check.py - the Python package (python/llctrace) against the command line: records equal
`llctrace dump --csv`, frames and kernels equal `llctrace info`, results tables equal `llctrace
sql --csv`; corrupt, truncated and foreign traces raise TraceError naming the file (and chunk); a
newer results schema is refused, an older one read through a copy that leaves the file as it was.
Then runs every Python example of docs/PYTHON.md on those files.
usage: python_check.py LLCTRACE DIR PYTHON.md  (DIR holds t.llct, i.llct, r.db, flip.llct, cut.llct,
new.db and old.db made by test_python.sh). Prints "ok: N checks" or the first failures."""
import csv
import hashlib
import io
import subprocess
import sys

import numpy as np

import llctrace

LLCTRACE, D = sys.argv[1], sys.argv[2]
fails, checks = [], 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        fails.append(what)


def run(*args):
    return subprocess.run([LLCTRACE, *args], check=True, capture_output=True, text=True).stdout


def dump(path):
    rows = list(csv.DictReader(io.StringIO(run("dump", "--csv", path))))
    return rows


# records, frame by frame, equal dump --csv (a synthetic trace and an imported one with SMs,
# kernels and tenants of every width)
for name in ("t.llct", "i.llct"):
    path = f"{D}/{name}"
    t = llctrace.open(path)
    want = dump(path)
    info = run("info", path)
    frames_line = [l for l in info.splitlines() if l.startswith("frames")][0]
    check(len(t.frames) == int(frames_line.split()[1]), f"{name}: frames {t.frames} vs '{frames_line}'")
    got_rows = 0
    for f in t.frames:
        r = t.records(f)
        check(r.dtype == llctrace.RECORD_DTYPE, f"{name}: dtype {r.dtype}")
        check(len(r) == t.n_records(f), f"{name}: frame {f}: {len(r)} records, index says {t.n_records(f)}")
        w = [x for x in want if int(x["frame"]) == f]
        check(len(w) == len(r), f"{name}: frame {f}: {len(r)} records, dump {len(w)}")
        if len(w) == len(r) and len(r):
            addr = np.array([int(x["addr"], 16) for x in w], np.uint64)
            stream = np.array([llctrace.STREAMS.index(x["stream"]) for x in w], np.uint8)
            op = np.array([x["op"] == "W" for x in w], np.uint8)
            for col, ref in (("addr", addr), ("stream", stream), ("op", op),
                             ("sm", np.array([int(x["sm"]) for x in w])),
                             ("kernel", np.array([int(x["kernel"]) for x in w])),
                             ("tenant", np.array([int(x["tenant"]) for x in w])),
                             ("site", np.array([int(x.get("site", 0)) for x in w]))):
                check(np.array_equal(r[col].astype(np.uint64), ref.astype(np.uint64)),
                      f"{name}: frame {f}: column {col} differs from dump --csv")
        got_rows += len(r)
    check(got_rows == len(want), f"{name}: {got_rows} records in all, dump {len(want)}")
    # the sites table: one row for each distinct site the records name (an import knows no more
    # of them than their numbers), none for the synthetic trace
    s = t.sites()
    named = sorted({int(x.get("site", 0)) for x in want} - {0})
    check(list(s["id"]) == named, f"{name}: sites {list(s['id'])}, records name {named}")
    check(name == "t.llct" or (len(named) == 7 and set(s["stage"]) == {"unknown"}),
          f"{name}: sites {s.to_dict('list')}")
    try:
        t.records(max(t.frames) + 1)
        check(False, f"{name}: a frame not in the trace gave records")
    except KeyError as e:
        check("not in the trace" in str(e), f"{name}: KeyError says '{e}'")
    t.close()

# kernels and resources as DataFrames, the trace's id as info prints it
t = llctrace.open(f"{D}/t.llct")
k = t.kernels()
n_kernels = int([l for l in run("info", f"{D}/t.llct").splitlines() if l.startswith("kernels")][0].split()[1])
check(len(k) == n_kernels, f"kernels: {len(k)} rows, info says {n_kernels}")
check(list(k.columns) == ["id", "frame", "kind", "name", "params", "rdc_eid"], f"kernel columns {list(k.columns)}")
info_id = [l for l in run("info", f"{D}/t.llct").splitlines() if l.startswith("id")][0].split()[1]
check(t.id == info_id, f"id {t.id} vs info {info_id}")
check(t.metadata().get("source") == "synth", f"metadata {t.metadata()}")
check(len(t.resources()) >= 0, "resources")
# the docs' example: reuse distances of TEX, frame 0 (PYTHON.md)
r = t.records(t.frames[0])
tex = r[r["stream"] == llctrace.STREAMS.index("TEX")]
lines = tex["addr"] >> 6
last, dist = {}, []
for i, line in enumerate(lines.tolist()):
    if line in last:
        dist.append(i - last[line])
    last[line] = i
check(len(dist) > 0, "no TEX reuse in the example")
t.close()

# bad traces: the message names the file, and the chunk where one is bad
for name, want in (("flip.llct", "chunk"), ("cut.llct", "cut.llct"), ("r.db", "results database, not a trace"),
                   ("nothere.llct", "nothere.llct")):
    try:
        t = llctrace.open(f"{D}/{name}")
        for f in t.frames:
            t.records(f)
        check(False, f"{name}: no TraceError")
    except llctrace.TraceError as e:
        check(name in str(e) and want in str(e), f"{name}: TraceError '{e}' lacks '{want}'")

# results: tables equal sql --csv; a newer schema refused; an older one read through a copy
res = llctrace.results(f"{D}/r.db")
df = res.query("SELECT run_id, stream, reads, read_hits FROM stream_totals ORDER BY run_id, stream")
want = list(csv.reader(io.StringIO(run("sql", "--csv", f"{D}/r.db",
                                       "SELECT run_id, stream, reads, read_hits FROM stream_totals ORDER BY run_id, stream"))))[1:]
check([[str(v) for v in row] for row in df.itertuples(index=False)] == want, "stream_totals differ from sql --csv")
runs = res.runs()
check(isinstance(runs["params"][0], dict) and len(runs) == len(res.table("runs")), "runs params")
check(len(res.table("kernel_totals")) > 0, "kernel_totals empty (the test replays with --per-kernel)")
try:
    res.table("no_such_view")
    check(False, "a missing view gave rows")
except llctrace.ResultsError as e:
    check("stream_totals" in str(e), f"missing view message '{e}'")
res.close()
try:
    llctrace.results(f"{D}/new.db")
    check(False, "a newer schema was read")
except llctrace.ResultsError as e:
    check("new.db" in str(e) and "upgrade llctrace" in str(e), f"newer schema message '{e}'")
try:
    llctrace.results(f"{D}/t.llct")
    check(False, "a trace was read as results")
except llctrace.ResultsError as e:
    check("an llctrace trace, not a results database" in str(e), f"trace as results: '{e}'")
before = hashlib.md5(open(f"{D}/old.db", "rb").read()).hexdigest()
with llctrace.results(f"{D}/old.db") as old:
    check(old.version == 5, f"old version {old.version}")
    check(len(old.table("epoch_reuse")) > 0 and "hits_per_entry" in old.table("epoch_reuse").columns,
          "older file not read through an upgraded copy")
check(hashlib.md5(open(f"{D}/old.db", "rb").read()).hexdigest() == before, "reading changed the older file")

# every example of docs/PYTHON.md runs, on these files
import contextlib
import re
for i, block in enumerate(re.findall(r"```python\n(.*?)```", open(sys.argv[3]).read(), re.S)):
    block = block.replace('"cube.llct"', f'"{D}/t.llct"').replace('"results.db"', f'"{D}/r.db"')
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, f"PYTHON.md example {i + 1}", "exec"), {})
        check(True, "")
    except Exception as e:  # noqa: BLE001 - any failure of an example is the finding
        check(False, f"docs/PYTHON.md example {i + 1} fails: {type(e).__name__}: {e}")

if fails:
    print(f"{len(fails)} of {checks} checks failed:")
    for f in fails[:20]:
        print("  " + f)
    sys.exit(1)
print(f"ok: {checks} checks")
