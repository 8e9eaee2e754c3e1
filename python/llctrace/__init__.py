"""llctrace in Python: traces as numpy arrays, results databases as pandas DataFrames.

The records are decoded by llctrace's own C library (libllctrace.so, built with the project)
through ctypes; the trace's other tables and the results database are read with SQLite.

    import llctrace
    t = llctrace.open("cube.llct")
    t.frames                    # [5, 6, 7]
    r = t.records(5)            # numpy structured array: addr, stream, op, sm, kernel, tenant, site
    t.kernels()                 # DataFrame: id, frame, kind, name, params (rdc_eid pulled out)
    res = llctrace.results("results.db")
    res.table("stream_totals")  # any table or view, as a DataFrame
    res.query("SELECT ...")

A corrupt or truncated trace raises llctrace.TraceError naming the file, frame and chunk; a
results database of a newer schema than this build reads raises llctrace.ResultsError.
"""

import ctypes
import ctypes.util
import json
import os
import sqlite3

try:
    import numpy as np
except ImportError as e:  # say which package, and how to get it
    raise ImportError("llctrace's Python package needs numpy: apt-get install python3-numpy "
                      "(Debian), or pip install numpy") from e

from ._version import __version__

__all__ = ["open", "results", "Trace", "Results", "TraceError", "ResultsError",
           "STREAMS", "RECORD_DTYPE", "library_path", "__version__"]


def _pandas():
    """pandas, or an error that names the package and how to get it."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("this needs pandas: apt-get install python3-pandas (Debian), or pip "
                          "install pandas") from e
    return pandas

# The stream numbers records carry, in order (include/llct/llct.h).
STREAMS = ("VTX", "HIZ", "Z", "STC", "RT", "TEX", "DISP", "CS", "OTHER")

# One record, as `llctrace dump --csv` prints it: address, stream (index into STREAMS), op
# (0 read, 1 write), shader core, kernel (the trace's kernels.id), tenant and instruction site
# (the trace's sites.id; 0 for none, and in every record of a trace without sites).
RECORD_DTYPE = np.dtype([("addr", np.uint64), ("stream", np.uint8), ("op", np.uint8),
                         ("sm", np.uint16), ("kernel", np.uint32), ("tenant", np.uint16),
                         ("site", np.uint32)])


class TraceError(Exception):
    """A trace that cannot be opened or read; the message names the file (and chunk)."""


class ResultsError(Exception):
    """A results database that cannot be read: not one, or of a newer schema."""


def library_path():
    """Where libllctrace.so is: $LLCT_LIB; else, for a package installed by cmake --install or
    the Debian package, the library installed with it; else the build tree beside this package
    (a source checkout); else the system's library path."""
    env = os.environ.get("LLCT_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        from . import _installed  # written by cmake --install only
        p = os.path.normpath(os.path.join(here, _installed.LIBRARY))
        if os.path.exists(p):
            return p
    except ImportError:
        pass
    for build in ("build", "build-rel", "build-asan"):
        p = os.path.join(here, "..", "..", build, "libllctrace.so")
        if os.path.exists(p):
            return os.path.normpath(p)
    found = ctypes.util.find_library("llctrace")
    if found:
        return found
    raise OSError("libllctrace.so not found: build llctrace (./setup.sh build), install it "
                  "(cmake --install, or the Debian package), or set LLCT_LIB to its path")


_lib = None


def _load():
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(library_path())
    c_char_p, c_size_t, c_void_p = ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p
    lib.llct_py_results_version.restype = ctypes.c_int
    lib.llct_py_tool_version.restype = c_char_p
    lib.llct_py_open.argtypes = [c_char_p, c_char_p, c_size_t]
    lib.llct_py_open.restype = c_void_p
    lib.llct_py_close.argtypes = [c_void_p]
    lib.llct_py_id.argtypes = [c_void_p]
    lib.llct_py_id.restype = c_char_p
    lib.llct_py_frames.argtypes = [c_void_p, c_void_p, c_void_p, c_size_t]
    lib.llct_py_frames.restype = c_size_t
    lib.llct_py_read_frame.argtypes = [c_void_p, ctypes.c_uint32, ctypes.c_uint64] + \
        [c_void_p] * 7 + [c_char_p, c_size_t]
    lib.llct_py_read_frame.restype = ctypes.c_int64
    lib.llct_py_results_copy.argtypes = [c_char_p, c_char_p, c_size_t,
                                         ctypes.POINTER(ctypes.c_int64), c_char_p, c_size_t]
    lib.llct_py_results_copy.restype = ctypes.c_int
    _lib = lib
    return lib


def _msg(buf):
    return buf.value.decode("utf-8", "replace")


class _Closing:
    """close() on leaving a with-block and when garbage-collected."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit anything may be gone
            pass


class Trace(_Closing):
    """An open trace. `frames` lists its frame numbers; `records(frame)` decodes one frame."""

    def __init__(self, path):
        lib = _load()
        self.path = os.fspath(path)
        err = ctypes.create_string_buffer(1024)
        self._r = lib.llct_py_open(self.path.encode(), err, len(err))
        if not self._r:
            raise TraceError(_msg(err))
        n = lib.llct_py_frames(self._r, None, None, 0)
        frames = np.zeros(n, np.uint32)
        counts = np.zeros(n, np.uint64)
        lib.llct_py_frames(self._r, frames.ctypes.data, counts.ctypes.data, n)
        self._counts = dict(zip(frames.tolist(), counts.tolist()))
        self.frames = frames.tolist()
        self.id = lib.llct_py_id(self._r).decode()

    def close(self):
        if getattr(self, "_r", None):
            _load().llct_py_close(self._r)
            self._r = None

    def __repr__(self):
        return f"<llctrace.Trace {self.path!r}: {len(self.frames)} frames>"

    def n_records(self, frame):
        """Records of `frame`, from the trace's index."""
        return self._counts[frame]

    def records(self, frame):
        """Every record of `frame`, in order, as a numpy structured array (RECORD_DTYPE)."""
        if self._r is None:
            raise TraceError(f"'{self.path}': the trace is closed")
        if frame not in self._counts:
            raise KeyError(f"'{self.path}': frame {frame} is not in the trace "
                           f"(it holds {len(self.frames)} frames)")
        n = self._counts[frame]
        cols = {name: np.empty(n, RECORD_DTYPE[name]) for name in RECORD_DTYPE.names}
        err = ctypes.create_string_buffer(1024)
        got = _load().llct_py_read_frame(self._r, frame, n,
                                         *(cols[k].ctypes.data for k in RECORD_DTYPE.names),
                                         err, len(err))
        if got < 0:
            raise TraceError(_msg(err))
        out = np.empty(got, RECORD_DTYPE)
        for k in RECORD_DTYPE.names:
            out[k] = cols[k][:got]
        return out

    def _sql(self, sql):
        uri = "file:" + os.path.abspath(self.path) + "?mode=ro"
        with sqlite3.connect(uri, uri=True) as db:
            cur = db.execute(sql)
            names = [d[0] for d in cur.description]
            return names, cur.fetchall()

    def metadata(self):
        """The capture row and the settings (how the trace was made), as one dict."""
        names, rows = self._sql("SELECT * FROM capture")
        meta = dict(zip(names, rows[0])) if rows else {}
        meta.pop("id", None)
        meta.update(dict(self._sql("SELECT key, value FROM settings")[1]))
        return meta

    def kernels(self):
        """The kernels table (draws, dispatches, copies, ...) as a pandas DataFrame, with the
        RenderDoc event ID (capture --renderdoc) as its own column rdc_eid."""
        pd = _pandas()
        names, rows = self._sql("SELECT id, frame, kind, name, params FROM kernels ORDER BY id")
        df = pd.DataFrame(rows, columns=names)
        df["rdc_eid"] = [json.loads(p).get("rdc_eid") if p else None for p in df["params"]]
        return df

    def sites(self):
        """The sites table (trace format 2: the shader instructions tier 3 instrumented, which
        records name in their site column) as a pandas DataFrame; empty for a trace without."""
        pd = _pandas()
        cols = ["id", "pipeline", "stage", "word", "op", "set", "binding", "size"]
        if not self._sql("SELECT name FROM sqlite_schema WHERE name = 'sites'")[1]:
            return pd.DataFrame([], columns=cols)
        names, rows = self._sql('SELECT id, pipeline, stage, word, op, "set", binding, size '
                                "FROM sites ORDER BY id")
        return pd.DataFrame(rows, columns=names)

    def resources(self):
        """The resources table (buffers and images, where they lie) as a pandas DataFrame."""
        pd = _pandas()
        names, rows = self._sql("SELECT * FROM resources ORDER BY id")
        return pd.DataFrame(rows, columns=names)


def open(path):  # noqa: A001 - the package's entry point, as in the docs
    """Opens a trace (raises TraceError naming the file when it is not one this build reads)."""
    return Trace(path)


class Results(_Closing):
    """A results database, read-only. An older schema is read through an upgraded temporary
    copy (the file itself is never written); a newer one is refused."""

    def __init__(self, path):
        lib = _load()
        self.path = os.fspath(path)
        err = ctypes.create_string_buffer(1024)
        tmp = ctypes.create_string_buffer(4096)
        version = ctypes.c_int64(0)
        if lib.llct_py_results_copy(self.path.encode(), tmp, len(tmp), ctypes.byref(version),
                                    err, len(err)):
            raise ResultsError(_msg(err))
        self.version = version.value
        self._tmp = _msg(tmp) or None
        target = self._tmp or os.path.abspath(self.path)
        self._db = sqlite3.connect("file:" + target + "?mode=ro", uri=True)

    def close(self):
        if getattr(self, "_db", None) is not None:
            self._db.close()
            self._db = None
        if getattr(self, "_tmp", None):
            os.unlink(self._tmp)
            self._tmp = None

    def query(self, sql, params=()):
        """Any SQL over the tables and views of docs/RESULTS.md, as a pandas DataFrame."""
        pd = _pandas()
        return pd.read_sql_query(sql, self._db, params=params)

    def table(self, name):
        """A whole table or view (runs, stream_totals, kernel_totals, ...) as a DataFrame."""
        known = {r[0] for r in self._db.execute(
            "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')")}
        if name not in known:
            raise ResultsError(f"'{self.path}': no table or view '{name}' "
                               f"(it has: {', '.join(sorted(known))})")
        return self.query(f'SELECT * FROM "{name}"')

    def runs(self):
        """The runs table, params parsed from JSON into dicts."""
        df = self.table("runs")
        df["params"] = [json.loads(p) if p else {} for p in df["params"]]
        return df


def results(path):
    """Opens a results database for reading (raises ResultsError when it is not one, or is of
    a newer schema than this build reads)."""
    return Results(path)
