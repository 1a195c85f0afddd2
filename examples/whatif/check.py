#!/usr/bin/env python3
"""Checks examples/whatif's comparison (run.sh --check): every figure of comparison.json against
each run's own outputs, report.html naming every run, and the picture the README describes.
    check.py OUT
"""
import csv
import json
import math
import sys

out = sys.argv[1]
cmp = json.load(open(f"{out}/comparison.json"))
runs = cmp["runs"]
fails = []


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name)
    if not ok:
        fails.append(name)


def p95(values):
    values = sorted(values)
    return values[math.ceil(0.95 * len(values)) - 1] if values else None


check("four runs, capacity first", runs == ["capacity", "capacity-preempt", "capacity-prod60", "fair"])
html = open(f"{out}/report.html").read()
check("report.html names every run", all(f"<th>{r}</th>" in html for r in runs))

groups = {(g["kind"], g["name"]): g["runs"] for g in cmp["groups"]}
for run in runs:
    rows = list(csv.DictReader(open(f"{out}/runs/{run}/jobs.csv")))
    by_queue = {"": rows}
    for r in rows:
        by_queue.setdefault(r["queue"], []).append(r)
    for queue, members in sorted(by_queue.items()):
        fig = groups[("all", "") if queue == "" else ("queue", queue)][run]
        waits = [int(r["wait_ms"]) for r in members if r["wait_ms"]]
        runtimes = [int(r["runtime_ms"]) for r in members if r["state"] == "FINISHED"]
        name = f"{run} {queue or 'all'}"
        check(f"{name}: jobs and finished", fig["jobs"] == len(members) and
              fig["finished"] == sum(r["state"] == "FINISHED" for r in members))
        check(f"{name}: p95 and mean wait", fig["wait"]["p95Ms"] == p95(waits) and
              abs(fig["wait"]["meanMs"] - sum(waits) / len(waits)) < 1e-6)
        check(f"{name}: p95 runtime", fig["runtime"]["p95Ms"] == p95(runtimes))
    # Each queue's memory share from the run's metrics.
    def series(name):
        with open(f"{out}/runs/{run}/metrics/{name}") as f:
            return {float(r[0]): float(r[1]) for r in list(csv.reader(f))[1:]}
    alloc = series("variable.cluster.allocated.memory.csv")
    avail = series("variable.cluster.available.memory.csv")
    for queue, share in cmp["runFigures"][run]["queueMemoryShare"].items():
        q = series(f"counter.queue.{queue}.allocated.memory.csv")
        shares = [v / (alloc[t] + avail[t]) for t, v in q.items() if alloc[t] + avail[t] > 0]
        check(f"{run} {queue}: memory share", abs(share - sum(shares) / len(shares)) < 1e-9)

# The picture: preemption takes containers back for prod, and prod's p95 wait falls.
fig = cmp["runFigures"]
check("capacity preemption marked containers; the baseline none",
      (fig["capacity-preempt"]["preemptedMarked"] or 0) > 0 and fig["capacity"]["preemptedMarked"] is None)
prod = {run: groups[("queue", "root.prod")][run] for run in runs}
print("prod p95 wait (s):", {r: f["wait"]["p95Ms"] / 1000 for r, f in prod.items()})
check("preemption lowers prod's p95 wait",
      prod["capacity-preempt"]["wait"]["p95Ms"] < prod["capacity"]["wait"]["p95Ms"])
dev = {run: groups[("queue", "root.dev")][run]["wait"]["meanMs"] for run in runs}
check("capping dev at 60 % raises dev's mean wait several times over",
      dev["capacity-prod60"] > 3 * dev["capacity"])
if fails:
    sys.exit(f"{len(fails)} checks failed")
print("all checks passed")
