#!/usr/bin/env python3
"""Prints, per scheduler, what the three-schedulers example is about (run ./run.sh first):
  small wait      small jobs: seconds from submission to the AM container (jobs.csv wait_ms),
                  mean and max
  small turnaround  small jobs: end - submit (jobs.csv), mean and max; alone one takes ~35 s
  big runtime     the big job's end - submit
  makespan        last job's end
  utilisation     mean allocated / total memory over [0, makespan] (realtimetrack.json)
Usage: compare.py [OUTDIR]   (default: out/ next to this script)
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "out")

print(f"{'scheduler':<10} {'small wait mean/max':>20} {'small turnaround mean/max':>26} "
      f"{'big runtime':>12} {'makespan':>9} {'utilisation':>12}")
missing = False
for sched in ("fifo", "capacity", "fair"):
    d = os.path.join(OUT, sched)
    if not os.path.isdir(d):
        print(f"{sched:<10} missing (run ./run.sh)")
        missing = True
        continue
    jobs = list(csv.DictReader(open(os.path.join(d, "jobs.csv"))))
    track = json.load(open(os.path.join(d, "realtimetrack.json")))
    unfinished = [j["JobID"] for j in jobs if j["state"] != "FINISHED"]
    small = [j for j in jobs if j["JobID"].startswith("small_") and j["end_ms"]]
    waits = [int(j["wait_ms"]) / 1000 for j in small if j["wait_ms"]]
    turns = [(int(j["end_ms"]) - int(j["submit_ms"])) / 1000 for j in small]
    big = next(j for j in jobs if j["JobID"] == "big")
    big_run = (int(big["end_ms"]) - int(big["submit_ms"])) / 1000 if big["end_ms"] else None
    makespan = max(int(j["end_ms"]) for j in jobs if j["end_ms"]) / 1000
    rs = [r for r in track if r["time"] <= makespan]
    util = 100 * sum(r["cluster.allocated.memory"] for r in rs) / sum(
        r["cluster.allocated.memory"] + r["cluster.available.memory"] for r in rs)
    mm = lambda v: f"{sum(v) / len(v):.0f} / {max(v):.0f} s" if v else "-"
    print(f"{sched:<10} {mm(waits):>20} {mm(turns):>26} "
          f"{(f'{big_run:.0f} s' if big_run else '-'):>12} {makespan:>7.0f} s {util:>10.0f} %"
          + (f"   unfinished: {', '.join(unfinished)}" if unfinished else ""))
sys.exit(1 if missing else 0)
