#!/usr/bin/env python3
"""check_trace.py TRACE.json [--pipes NAME,NAME...] [--flows N] [--nested N] — structural checks of a
ptosim trace (Chrome trace event format). Computed from the JSON alone, never from ptosim's other output:

* valid JSON with a non-empty traceEvents list; every complete event ('X') has pid, tid, ts, dur, name,
  non-negative times, and its process and thread are named by metadata ('M');
* times are exact: ts and dur are decimal numbers of microseconds, compared as exact decimals (no float
  rounding), and each event's args.cycles is its duration in cycles, consistent with dur at the clock
  of otherData.clock_hz to within one printed unit;
* slices on one track (pid, tid) nest: two slices either do not overlap or one contains the other;
* flows: every id has exactly one start ('s') and one finish ('f'), on named tracks; the start is not
  later than the finish (arrows run forward in time); each end lies inside a slice of its track (so a
  viewer binds the arrow to an op);
* --pipes: the tracks that carry events are exactly these names; --flows N: at least N flows;
  --nested N: at least N slices lie inside another slice of their track (vector-scope loops and
  iterations); --names A,B,...: slices with these names exist.
Exits 1 with a message on the first violation."""
import json, sys
from decimal import Decimal


def fail(msg):
    print("check_trace: " + msg)
    sys.exit(1)


def check_nesting(track, slices):
    """slices: (ts, end, event) exact; returns how many lie inside another one."""
    slices.sort(key=lambda s: (s[0], -s[1]))
    stack, inner = [], 0
    for ts, end, e in slices:
        while stack and stack[-1][1] <= ts:
            stack.pop()
        if stack:
            top = stack[-1]
            if end > top[1]:
                fail("slices overlap without nesting on track %s: %r [%s, %s) and %r [%s, %s)"
                     % (track, top[2].get("name"), top[0], top[1], e.get("name"), ts, end))
            inner += 1
        stack.append((ts, end, e))
    return inner


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    want_pipes, min_flows, min_nested, want_names = None, 0, 0, []
    while args:
        a = args.pop(0)
        if a == "--pipes":
            want_pipes = set(args.pop(0).split(","))
        elif a == "--flows":
            min_flows = int(args.pop(0))
        elif a == "--nested":
            min_nested = int(args.pop(0))
        elif a == "--names":
            want_names = args.pop(0).split(",")
        else:
            fail("unknown option %s" % a)
    with open(path) as f:
        try:
            doc = json.load(f, parse_float=Decimal, parse_int=Decimal)
        except ValueError as e:
            fail("not JSON: %s" % e)
    ev = doc.get("traceEvents")
    if not isinstance(ev, list) or not ev:
        fail("no traceEvents list")
    clock = (doc.get("otherData") or {}).get("clock_hz")
    procs, threads = {}, {}
    for e in ev:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
    used, tracks = set(), {}
    unit = Decimal("0.0001")
    for e in ev:
        if e.get("ph") != "X":
            continue
        for k in ("pid", "tid", "ts", "dur", "name"):
            if k not in e:
                fail("complete event without %s: %r" % (k, e))
        if not isinstance(e["ts"], Decimal) or not isinstance(e["dur"], Decimal):
            fail("non-numeric time in %r" % e)
        if e["dur"] < 0 or e["ts"] < 0:
            fail("negative time in %r" % e)
        if e["pid"] not in procs or (e["pid"], e["tid"]) not in threads:
            fail("event on an unnamed process or thread: %r" % e)
        cyc = (e.get("args") or {}).get("cycles")
        if clock and cyc is not None:
            want = Decimal(cyc) / Decimal(clock) * Decimal(1000000)
            if abs(want - e["dur"]) > unit:
                fail("dur %s of %r is not its %s cycles at %s Hz (%s us)" % (e["dur"], e.get("name"), cyc, clock, want))
        used.add(threads[(e["pid"], e["tid"])])
        tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"], e))
    if want_pipes is not None and used != want_pipes:
        fail("tracks with events %s, expected %s" % (sorted(used), sorted(want_pipes)))
    nested = 0
    for t, sl in sorted(tracks.items()):
        nested += check_nesting("%s/%s" % (procs.get(t[0]), threads.get(t)), sl)

    def inside(fe):
        for ts, end, _ in tracks.get((fe["pid"], fe["tid"]), ()):
            if ts <= fe["ts"] <= end:
                return True
        return False

    starts, ends = {}, {}
    for e in ev:
        if e.get("ph") in ("s", "f"):
            for k in ("id", "pid", "tid", "ts"):
                if k not in e:
                    fail("flow event without %s: %r" % (k, e))
            d = starts if e["ph"] == "s" else ends
            if e["id"] in d:
                fail("flow id %s has two '%s' events" % (e["id"], e["ph"]))
            d[e["id"]] = e
            if (e["pid"], e["tid"]) not in threads:
                fail("flow event on an unnamed track: %r" % e)
            if not inside(e):
                fail("flow %s end '%s' at %s lies in no slice of its track" % (e["id"], e["ph"], e["ts"]))
    if set(starts) != set(ends):
        fail("flows without both ends: %s" % sorted(set(starts) ^ set(ends)))
    for i, s in starts.items():
        if s["ts"] > ends[i]["ts"]:
            fail("flow %s runs backwards in time: starts at %s, ends at %s" % (i, s["ts"], ends[i]["ts"]))
    if len(starts) < min_flows:
        fail("%d flows, expected at least %d" % (len(starts), min_flows))
    if nested < min_nested:
        fail("%d slices nested in another, expected at least %d" % (nested, min_nested))
    names = {e.get("name") for e in ev if e.get("ph") == "X"}
    for n in want_names:
        if n not in names:
            fail("no slice named %r" % n)
    print("check_trace: ok (%d events, %d flows, %d nested, tracks %s)"
          % (len(ev), len(starts), nested, ",".join(sorted(used))))


main()
