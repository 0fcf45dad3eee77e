#!/usr/bin/env python3
"""test_report.py --build BUILD — machine-readable stats and the HTML report of `ptosim run`:

* --stats-format=json and --stats-file: one JSON document valid against docs/stats.schema.json (checked by the
  small validator below), with values known by hand for examples/abs_kernel_2d.pto (a 32x32 f32 tile: 4096
  bytes in on MTE2, 4096 out on MTE3, one block, one AIV);
* nothing but diagnostics on stdout with --diagnostics-format=json (every line a JSON object) or sarif (one
  JSON document), also with --stats --profile;
* the closing "N warnings: results may be invalid" line after a run that reported warnings, none otherwise;
* --report: one self-contained file (no network address, no external script or style), which headless
  Chromium (Debian's `chromium`) loads without a console message or error, drawing one timeline row per
  core and pipe that ran (4 for abs_kernel_2d: scalar unit, V, MTE2, MTE3), and of which it takes a screenshot.
  Skipped, with a message, when chromium is not installed.
* src/api/report_page.inc is what tools/embed_text.py makes of src/api/report_page.html."""
import json, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish

PTOSIM = os.path.join(BUILD, "ptosim")
ABS = os.path.join(ROOT, "examples", "abs_kernel_2d.pto")
ABS_ARGS = [ABS, "fill:4096:191", "zeros:4096"]


def ptosim(*args, cwd=None):
    p = subprocess.run([PTOSIM] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


# ---------------------------------------------------------------- a JSON Schema subset validator

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def type_ok(v, t):
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, TYPES[t])


def validate(v, s, path="$"):
    """Errors of value v against schema s (type, const, enum, required, properties, additionalProperties,
    items, minimum: what docs/stats.schema.json uses)."""
    errs = []
    if "const" in s and v != s["const"]:
        errs.append("%s: %r is not %r" % (path, v, s["const"]))
    if "enum" in s and v not in s["enum"]:
        errs.append("%s: %r not in %r" % (path, v, s["enum"]))
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(type_ok(v, t) for t in ts):
            return errs + ["%s: %r is not of type %s" % (path, v, ts)]
    if "minimum" in s and isinstance(v, (int, float)) and v < s["minimum"]:
        errs.append("%s: %r < %r" % (path, v, s["minimum"]))
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                errs.append("%s: missing %s" % (path, k))
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props:
                errs += validate(x, props[k], path + "." + k)
            elif s.get("additionalProperties") is False:
                errs.append("%s: unexpected %s" % (path, k))
            elif isinstance(s.get("additionalProperties"), dict):
                errs += validate(x, s["additionalProperties"], path + "." + k)
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            errs += validate(x, s["items"], "%s[%d]" % (path, i))
    return errs


SCHEMA = json.load(open(os.path.join(ROOT, "docs", "stats.schema.json")))
check(validate({"format": "x"}, SCHEMA) != [], "the validator rejects a document missing fields")

tmp = tempfile.mkdtemp(prefix="ptosim-report-")
try:
    # ---------------------------------------------------------------- stats as JSON
    code, out, err = ptosim("run", "-q", "--stats-format=json", "--profile", *ABS_ARGS, cwd=tmp)
    try:
        doc = json.loads(out)
    except ValueError as e:
        doc = None
        check(False, "--stats-format=json prints one JSON document", "%s\n%s" % (e, out[:2000]))
    if doc is not None:
        errs = validate(doc, SCHEMA)
        check(not errs, "--stats-format=json is valid against docs/stats.schema.json", "\n".join(errs[:20]))
        by_hand = (doc["blocks"] == 1 and len(doc["cores"]) == 1 and doc["cores"][0]["core"] == "AIV"
                   and sorted(doc["bytes"].values()).count(4096) == 2 and doc["profile"] is not None
                   and doc["target"] == "a5" and doc["entry"] == "abs_kernel_2d")
        check(by_hand, "the stats of abs_kernel_2d: one block, one AIV, 4096 bytes in and 4096 out, a profile", out[:1500])
        # the summary line's cycles are the document's
        c2, o2, e2 = ptosim("run", *ABS_ARGS, cwd=tmp)
        m = re.search(r"(\d+) cycles", e2)
        check(m and int(m.group(1)) == doc["cycles"], "the JSON cycles are the summary line's", e2 + out[:300])
        lines = [l for l in doc["profile"]["lines"]]
        check(lines == sorted(lines, key=lambda l: -(l["cycles"] + l["stall"])) and doc["profile"]["total"] ==
              sum(l["cycles"] + l["stall"] for l in lines), "the profile's lines are ranked and total is their sum")
    sf = os.path.join(tmp, "s.json")
    code, out, err = ptosim("run", "-q", "--stats-file", sf, *ABS_ARGS, cwd=tmp)
    ok = code == 0 and out == "" and os.path.exists(sf)
    try:
        ok = ok and not validate(json.load(open(sf)), SCHEMA)
    except ValueError:
        ok = False
    check(ok, "--stats-file X.json writes a valid JSON document there and nothing on stdout", out + err)
    tf = os.path.join(tmp, "s.txt")
    code, out, err = ptosim("run", "-q", "--stats-file", tf, "--profile", *ABS_ARGS, cwd=tmp)
    text = open(tf).read() if os.path.exists(tf) else ""
    check(code == 0 and out == "" and text.startswith("time: ") and "profile:" in text,
          "--stats-file X.txt writes the text stats and profile", out + err + text[:500])

    # ---------------------------------------------------------------- the diagnostics stream stays clean
    race = os.path.join(ROOT, "tests", "sanitize", "uninit_read.pto")
    code, out, err = ptosim("run", "--diagnostics-format=json", "--stats", "--profile", race, "zeros:256", "zeros:256", cwd=tmp)
    recs = []
    bad = []
    for line in out.splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            bad.append(line)
    check(code == 0 and not bad and any(r.get("id") == "W-UNINIT" for r in recs) and "time: " in err,
          "--diagnostics-format=json --stats --profile: stdout holds only JSON Lines diagnostics, the stats go to stderr",
          "\n".join(bad[:5]) + err[:500])
    code, out, err = ptosim("run", "--diagnostics-format=sarif", "--stats-format=json", "--profile", race, "zeros:256",
                            "zeros:256", cwd=tmp)
    try:
        log = json.loads(out)
        ok = log.get("version") == "2.1.0" and any(r.get("ruleId") == "W-UNINIT" for r in log["runs"][0]["results"])
    except (ValueError, KeyError, IndexError):
        ok = False
    check(ok, "--diagnostics-format=sarif --stats-format=json: stdout is one SARIF log", out[:1500] + err[:500])
    check('"format":"ptosim-stats"' in err, "... and the stats document is on stderr", err[:500])

    # ---------------------------------------------------------------- -b 8: one table for blocks alike
    code, out, err = ptosim("run", "-q", "-b", "8", "--stats", *ABS_ARGS, cwd=tmp)
    check(code == 0 and out.count("blocks 0..7 AIV (8 blocks, each):") == 1 and not re.search(r"^block \d", out, re.M),
          "-b 8 --stats: the 8 blocks, all alike, get one table", out[:800])

    # ---------------------------------------------------------------- the closing warnings line
    code, out, err = ptosim("run", "-q", race, "zeros:256", "zeros:256", cwd=tmp)
    nw = len(re.findall(r"warning: .*\[W-", err))
    m = re.search(r"ptosim: (\d+) warnings?: results may be invalid", err)
    check(code == 0 and nw > 0 and m and int(m.group(1)) == nw,
          "a run that reported N warnings closes with 'N warnings: results may be invalid' (also with -q)", err)
    code, out, err = ptosim("run", "-q", *ABS_ARGS, cwd=tmp)
    check(code == 0 and "results may be invalid" not in err, "a clean run has no such line", err)

    # ---------------------------------------------------------------- the HTML report
    rep = os.path.join(tmp, "r.html")
    code, out, err = ptosim("run", "-q", "--report", rep, *ABS_ARGS, cwd=tmp)
    html = open(rep, encoding="utf-8").read() if os.path.exists(rep) else ""
    check(code == 0 and html.startswith("<!DOCTYPE html>"), "--report writes an HTML page", err)
    ext = re.findall(r"""(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[/"']|<script[^>]+src=|<link[^>]+href=|@import|url\(""", html, re.I)
    ext = [x for x in ext if "json-schema.org" not in x]
    check(html and not ext, "the report refers to nothing outside itself (no URL, no external script or style)", repr(ext[:5]))
    emb = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "embed_text.py"), "--check",
                          os.path.join(ROOT, "src", "api", "report_page.html"), os.path.join(ROOT, "src", "api", "report_page.inc")],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    check(emb.returncode == 0, "src/api/report_page.inc is generated from report_page.html", emb.stdout.decode())

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: chromium is not installed (Debian: apt-get install chromium); the report was not opened in a browser")
    else:
        base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--enable-logging=stderr", "--v=0", "--window-size=1400,1100"]
        url = "file://" + rep

        def browse(*extra):
            prof = tempfile.mkdtemp(prefix="chromium-", dir=tmp)
            try:
                p = subprocess.run(base + ["--user-data-dir=" + prof] + list(extra) + [url], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=120)
                return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
            except subprocess.TimeoutExpired:
                return -1, "", "chromium timed out"
        code, dom, log = browse("--dump-dom")
        console = [l for l in log.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
        check(code == 0 and 'data-report="ok"' in dom and not console,
              "headless Chromium loads the report without a console message or script error",
              "\n".join(console[:10]) + "\n" + log[-1500:])
        m = re.search(r'data-drawn="(\d+)"', dom)
        check(m and int(m.group(1)) == 4, "the timeline has one row per core and pipe that ran (4)", m and m.group(0))
        shot = os.path.join(tmp, "shot.png")
        code, _, log = browse("--screenshot=" + shot)
        png = open(shot, "rb").read() if os.path.exists(shot) else b""
        check(code == 0 and png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000, "headless Chromium takes a screenshot of it", log[-800:])
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
