#!/usr/bin/env python3
"""check_trace.py TRACE.json [--pipes NAME,NAME...] [--flows N] — structural checks of a ptosim trace:
valid JSON in the Chrome trace event format; every complete event ('X') has a process and a thread
named by metadata; the threads that carry events are exactly the named pipes given (when --pipes);
every flow start ('s') has a matching finish ('f') with the same id and vice versa; at least N flows.
Exits 1 with a message on the first violation."""
import json, sys


def fail(msg):
    print("check_trace: " + msg)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    want_pipes, min_flows = None, 0
    while args:
        a = args.pop(0)
        if a == "--pipes":
            want_pipes = set(args.pop(0).split(","))
        elif a == "--flows":
            min_flows = int(args.pop(0))
    with open(path) as f:
        doc = json.load(f)
    ev = doc.get("traceEvents")
    if not isinstance(ev, list) or not ev:
        fail("no traceEvents list")
    procs, threads = {}, {}
    for e in ev:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
    used = set()
    for e in ev:
        if e.get("ph") != "X":
            continue
        for k in ("pid", "tid", "ts", "dur", "name"):
            if k not in e:
                fail("complete event without %s: %r" % (k, e))
        if e["dur"] < 0 or e["ts"] < 0:
            fail("negative time in %r" % e)
        if e["pid"] not in procs or (e["pid"], e["tid"]) not in threads:
            fail("event on an unnamed process or thread: %r" % e)
        used.add(threads[(e["pid"], e["tid"])])
    if want_pipes is not None and used != want_pipes:
        fail("tracks with events %s, expected %s" % (sorted(used), sorted(want_pipes)))
    starts = {e["id"] for e in ev if e.get("ph") == "s"}
    ends = {e["id"] for e in ev if e.get("ph") == "f"}
    if starts != ends:
        fail("flows without both ends: %s" % sorted(starts ^ ends))
    if len(starts) < min_flows:
        fail("%d flows, expected at least %d" % (len(starts), min_flows))
    print("check_trace: ok (%d events, %d flows, tracks %s)" % (len(ev), len(starts), ",".join(sorted(used))))


main()
