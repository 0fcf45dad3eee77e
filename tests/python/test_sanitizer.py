#!/usr/bin/env python3
"""test_sanitizer.py [--build BUILD] — the Python package's sanitizer and reports match `ptosim run`'s:
W-UNINIT and W-RACE on by default (the kernels of tests/sanitize and tests/python say where, by hand), off with
initcheck=False / race=False / sanitize=False; W-UNWRITTEN for the parameters named in outputs= (as for an OUT
file on the command line: tests/sanitize/unwritten_half.pto stores 256 of 512 bytes); every warning issued as a
ptosim.SanitizerWarning through the warnings module (an "error" filter makes it raise) and kept on the result;
strict_gm; the stats document (docs/stats.schema.json fields) and the HTML report from Python."""
import os, sys, warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib
from testlib import ROOT, check, finish

testlib.require_numpy_and_library()
import json

import numpy as np
import ptosim

S = lambda n: os.path.join(ROOT, "tests", "sanitize", n)


def run(m, *args, **kw):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = m.run(*args, **kw)
    return r, [x for x in w if issubclass(x.category, ptosim.SanitizerWarning)]


u = ptosim.load(S("uninit_read.pto"))
r, w = run(u, np.zeros(64, np.float32), np.zeros(64, np.float32))
ids = [x.message.diagnostic.id for x in w]
check("W-UNINIT" in ids and [d.id for d in r.warnings] == ids, "W-UNINIT by default, issued as SanitizerWarning and on the result", ids)
check(any(x.message.diagnostic.line == 17 and x.message.diagnostic.col == 12 for x in w)
      and "[W-UNINIT]" in str(next(x.message for x in w if x.message.diagnostic.id == "W-UNINIT")),
      "the warning's location (17:12) and text", [str(x.message) for x in w])
r, w = run(u, np.zeros(64, np.float32), np.zeros(64, np.float32), initcheck=False)
check(not w and not r.warnings, "initcheck=False: no W-UNINIT", [str(x.message) for x in w])
with warnings.catch_warnings():
    warnings.simplefilter("error", ptosim.SanitizerWarning)
    try:
        u.run(np.zeros(64, np.float32), np.zeros(64, np.float32))
        raised = None
    except ptosim.SanitizerWarning as e:
        raised = e
check(raised is not None and raised.diagnostic.id == "W-UNINIT", "an error filter turns the warning into an exception")

rc = ptosim.load(os.path.join(ROOT, "tests", "python", "race.pto"))
r, w = run(rc, np.zeros(1024, np.float32), np.zeros(1024, np.float32))
check("W-RACE" in [d.id for d in r.warnings], "W-RACE by default", [d.id for d in r.warnings])
r, w = run(rc, np.zeros(1024, np.float32), np.zeros(1024, np.float32), sanitize=False)
check("W-RACE" not in [d.id for d in r.warnings] and "W-UNINIT" not in [d.id for d in r.warnings],
      "sanitize=False: no W-RACE, no W-UNINIT", [d.id for d in r.warnings])

h = ptosim.load(S("unwritten_half.pto"))
r, w = run(h, np.zeros(64, np.float32), np.zeros(128, np.float32))
check("W-UNWRITTEN" not in [d.id for d in r.warnings], "no outputs named: no W-UNWRITTEN (as without an OUT file)")
r, w = run(h, np.zeros(64, np.float32), np.zeros(128, np.float32), outputs=["dst"])
un = [d for d in r.warnings if d.id == "W-UNWRITTEN"]
check(len(un) == 1 and "bytes [256, 512)" in un[0].message, "outputs=['dst']: W-UNWRITTEN names bytes [256, 512)",
      [d.message for d in r.warnings])
r2, _ = run(h, np.zeros(64, np.float32), np.zeros(128, np.float32), outputs=[1], unwritten=False)
check(not [d for d in r2.warnings if d.id == "W-UNWRITTEN"], "unwritten=False: none")
try:
    h.run(np.zeros(64, np.float32), np.zeros(128, np.float32), outputs=["nope"])
    bad = False
except ValueError:
    bad = True
check(bad, "outputs= naming no parameter is a ValueError")

a = ptosim.load(os.path.join(ROOT, "tests", "python", "axpy.pto"))
x, y, z = np.ones(1024, np.float32), np.ones(1024, np.float32), np.zeros(1024, np.float32)
r, w = run(a, x, y, z, 2.0, 1024, stats_json=True, report=True)
doc = json.loads(r.stats_json)
check(doc["format"] == "ptosim-stats" and doc["entry"] == "axpy" and doc["cycles"] == r.stats.cycles
      and doc["bytes"]["PIPE_MTE2"] == 8192 and doc["profile"] is not None,
      "stats_json: the stats document (8192 bytes in: x and y, 4096 each)", r.stats_json[:400])
check(r.report and r.report.startswith("<!DOCTYPE html>") and "axpy" in r.report, "report=True: the HTML report")
check(not w, "a clean run issues no warning", [str(x.message) for x in w])
try:
    a.run(np.ones(512, np.float32), y, z, 2.0, 1024, strict_gm=True)
    trapped = None
except ptosim.TrapError as e:
    trapped = e
check(trapped is not None and trapped.trap.id == "T-OOB", "strict_gm: an array too small traps T-OOB")
finish()
