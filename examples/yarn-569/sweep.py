#!/usr/bin/env python3
"""What each preemption tunable does, measured: reruns experiment 1 with preemption on
(conf-1-preempt, sort_B in B at 0 s, sort_A in A at 400 s) with one tunable varied at a time,
and writes one chart per tunable to docs/preemption-tunables/<tunable>.svg plus a table
(docs/preemption-tunables/results.md) of the figures report.py uses. docs/preemption.md
("Tunables") shows and explains them.

Usage: sweep.py [OUT]   (default out/sweep next to this script; SPINDLE as for run.sh;
                         python3 standard library only; about 25 runs of < 1 s each)

Every other key keeps conf-1-preempt's value (the defaults). max_wait_before_kill only matters
when AMs do not give containers back themselves, so its sweep sets Spindle's
spindle.sls.am.honour-preemption to false (the AMs ignore the preemption message, as
MapReduce's default NoopAMPreemptionPolicy does) and compares with the honouring AM.
"""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from svgchart import line_chart  # noqa: E402

OUT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(HERE, "out", "sweep")
DOCS = os.path.join(ROOT, "docs", "preemption-tunables")
SPINDLE = os.environ.get("SPINDLE", "build/spindle")
if not os.path.isabs(SPINDLE):
    SPINDLE = os.path.join(ROOT, SPINDLE)
P = "yarn.resourcemanager.monitor.capacity.preemption."
A_SUBMIT = 400.0

# tunable -> (values, default, what is plotted, x range in s after A's submission, extra conf)
SWEEPS = [
    ("monitoring_interval", ["1000", "3000", "10000", "30000"], "3000", "A", 300, {}),
    ("total_preemption_per_round", ["0.02", "0.1", "0.3", "1.0"], "0.1", "A", 300, {}),
    ("natural_termination_factor", ["0.05", "0.2", "0.5", "1.0"], "0.2", "A", 300, {}),
    ("max_ignored_over_capacity", ["0", "0.1", "0.5", "1.0"], "0.1", "B", 300, {}),
    ("max_wait_before_kill", ["5000", "15000", "60000"], "15000", "A", 600,
     {"spindle.sls.am.honour-preemption": "false"}),
    ("observe_only", ["false", "true"], "false", "A", 600, {}),
]


def set_property(xml, name, value):
    """Sets (or adds) a <property> in a Hadoop configuration file's text."""
    pat = re.compile(r"(<name>" + re.escape(name) + r"</name>\s*<value>)[^<]*(</value>)")
    if pat.search(xml):
        return pat.sub(lambda m: m.group(1) + value + m.group(2), xml)
    prop = f"  <property><name>{name}</name><value>{value}</value></property>\n"
    return xml.replace("</configuration>", prop + "</configuration>")


def run(name, yarn_site, sls_runner):
    d = os.path.join(OUT, name)
    conf = os.path.join(d, "conf")
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(os.path.join(HERE, "conf-1-preempt"), conf)
    for fname, props in (("yarn-site.xml", yarn_site), ("sls-runner.xml", sls_runner)):
        path = os.path.join(conf, fname)
        with open(path) as f:
            text = f.read()
        for k, v in props.items():
            text = set_property(text, k, v)
        with open(path, "w") as f:
            f.write(text)
    out = os.path.join(d, "run")
    subprocess.run([SPINDLE, "sim", "--tracetype", "SLS", "--tracelocation",
                    os.path.join(HERE, "exp1.json"), "--nodes", os.path.join(HERE, "nodes.json"),
                    "--conf", conf, "--output-dir", out, "--seed", "1", "--no-timings",
                    "--quiet", "--track-jobs", "sort_A,sort_B"], check=True,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "realtimetrack.json")) as f:
        return json.load(f), out


def figures(track, out):
    import csv
    with open(os.path.join(out, "jobs.csv")) as f:
        jobs = {r["JobID"]: r for r in csv.DictReader(f)}
    tot = lambda r: r["cluster.allocated.memory"] + r["cluster.available.memory"]
    guarantee = next((r["time"] - A_SUBMIT for r in track if r["time"] >= A_SUBMIT and
                      r.get("queue.A.allocated.memory", 0) >= 0.95 * 0.8 * tot(r)), None)
    half = next((r["time"] - A_SUBMIT for r in track if r["time"] >= A_SUBMIT and
                 r.get("queue.A.allocated.memory", 0) >= 0.5 * 0.8 * tot(r)), None)
    last = track[-1]
    b = jobs["sort_B"]
    return {"half": half, "guarantee": guarantee,
            "b_runtime": int(b["runtime_ms"]) / 1000 if b["runtime_ms"] else None,
            "marked": last.get("preemption.containers.marked", 0),
            "killed": last.get("preemption.containers.killed", 0)}


def fmt(v):
    return "-" if v is None else f"{v:.0f}"


def main():
    if not os.access(SPINDLE, os.X_OK):
        print(f"sweep.py: no spindle binary at {SPINDLE} (build it or set SPINDLE)",
              file=sys.stderr)
        return 1
    os.makedirs(DOCS, exist_ok=True)
    table = ["| tunable | value | A at 50 % of its guarantee | A at 95 % | B runtime | "
             "containers marked / killed |", "|---|---|---|---|---|---|"]
    for key, values, default, queue, span, extra in SWEEPS:
        lines = []
        runs = [(v, {P + key: v}, extra) for v in values]
        if key == "max_wait_before_kill":  # the honouring AM, for comparison
            runs.append(("15000, AMs honour", {P + key: "15000"}, {}))
        for label, yarn_site, sls in runs:
            track, out = run(f"{key}={label.replace(', ', '-').replace(' ', '-')}", yarn_site,
                             sls)
            f = figures(track, out)
            shown = label + (" (default)" if label == default else "")
            table.append(f"| {key} | {shown} | {fmt(f['half'])} s | {fmt(f['guarantee'])} s | "
                         f"{fmt(f['b_runtime'])} s | {f['marked']:.0f} / {f['killed']:.0f} |")
            pts = [(r["time"] - A_SUBMIT, r[f"queue.{queue}.allocated.memory"]) for r in track
                   if f"queue.{queue}.allocated.memory" in r]
            lines.append((f"{key} = {shown}", pts))
        total = track[0]["cluster.allocated.memory"] + track[0]["cluster.available.memory"]
        hl = ([("A's guarantee (80 %)", 0.8 * total)] if queue == "A" else
              [("B's guarantee (20 %)", 0.2 * total)])
        svg = line_chart(f"{key}: queue {queue}'s memory after sort_A arrives (experiment 1)",
                         lines, x_label="seconds after sort_A's submission",
                         y_label=f"queue {queue} allocated (GB)", hlines=hl, y_max=total,
                         x_range=(-20, span), legend_cols=2)
        with open(os.path.join(DOCS, f"{key}.svg"), "w") as fh:
            fh.write(svg)
        print(f"wrote docs/preemption-tunables/{key}.svg")
    with open(os.path.join(DOCS, "results.md"), "w") as fh:
        fh.write("<!-- written by examples/yarn-569/sweep.py; times in seconds after sort_A's "
                 "submission -->\n" + "\n".join(table) + "\n")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
