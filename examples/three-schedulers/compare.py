#!/usr/bin/env python3
"""The three-schedulers report (run.sh calls it; it reads out/<config>/ of each run):
  small wait        small jobs: seconds from submission to the AM container (jobs.csv wait_ms),
                    mean and max
  small runtime     small jobs: AM start to end (jobs.csv runtime_ms), mean and max; alone on half
                    the cluster one takes ~92 s
  big runtime       the big job's end - submit
  utilisation       mean allocated / total memory over [0, makespan] (realtimetrack.json)
  preempted         containers marked for preemption / killed (decisions.jsonl)
and, for the Fair runs, how the queues' allocations follow the fair shares the scheduler computed
(realtimetrack.json queue.<q>.allocated.memory against queue.<q>.fairshare.memory): in each
contended stretch (both queues want at least their fair share), the seconds until both are
within 5 % of it, and the largest deviation once SETTLE_S seconds of the stretch have passed.

Usage: compare.py [OUTDIR] [--check]
  writes OUTDIR/report.md (default OUTDIR: out/ next to this script) and prints it;
  --check exits 1 unless the seed's picture holds: FIFO's mean small-job wait is at least 5x
  Fair's (each Fair design), and under Fair the allocations stay within 5 % of the fair shares
  in every contended stretch after SETTLE_S seconds (and such stretches exist for every small
  job).
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
CHECK = "--check" in sys.argv[1:]
OUT = args[0] if args else os.path.join(HERE, "out")
CONFIGS = ("fifo", "capacity", "fair", "fair-2x")
FAIR = ("fair", "fair-2x")
QUEUES = ("large", "small")
TOLERANCE = 0.05
SETTLE_S = 30  # preemption timeout 10 s + the AM's container + the maps' round


def load(sched):
    d = os.path.join(OUT, sched)
    jobs = list(csv.DictReader(open(os.path.join(d, "jobs.csv"))))
    track = json.load(open(os.path.join(d, "realtimetrack.json")))
    marked = killed = 0
    log = os.path.join(d, "decisions.jsonl")
    if os.path.exists(log):
        for line in open(log):
            dec = json.loads(line)
            if dec["kind"] == "preempt-mark":
                marked += 1
            elif dec["kind"] == "kill" and dec.get("exitStatus") == -102:
                killed += 1
    return jobs, track, marked, killed


def stretches(track):
    """Runs of consecutive samples where every queue has a fair share and wants at least it."""
    runs, cur = [], []
    for r in track:
        ok = True
        for q in QUEUES:
            share = r.get(f"queue.{q}.fairshare.memory", 0)
            want = r.get(f"queue.{q}.allocated.memory", 0) + r.get(f"queue.{q}.pending.memory", 0)
            ok = ok and share > 0 and want >= share
        if ok:
            cur.append(r)
        elif cur:
            runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return runs


def within(r, q):
    share = r[f"queue.{q}.fairshare.memory"]
    return abs(r[f"queue.{q}.allocated.memory"] - share) <= TOLERANCE * share


def convergence(track):
    """Per contended stretch: (start, end, seconds to converge or None, worst deviation after
    SETTLE_S as a fraction of the share)."""
    out = []
    for run in stretches(track):
        start, end = run[0]["time"], run[-1]["time"]
        conv = next((r["time"] - start for r in run if all(within(r, q) for q in QUEUES)), None)
        late = [r for r in run if r["time"] - start >= SETTLE_S]
        worst = max((abs(r[f"queue.{q}.allocated.memory"] - r[f"queue.{q}.fairshare.memory"])
                     / r[f"queue.{q}.fairshare.memory"] for r in late for q in QUEUES),
                    default=None)
        out.append((start, end, conv, worst, len(late)))
    return out


rows, lines, failures, waits = [], [], [], {}
mm = lambda v: f"{sum(v) / len(v):.0f} / {max(v):.0f} s" if v else "-"
for sched in CONFIGS:
    if not os.path.isdir(os.path.join(OUT, sched)):
        failures.append(f"{sched}: no output in {OUT}/{sched} (run run.sh)")
        continue
    jobs, track, marked, killed = load(sched)
    unfinished = [j["JobID"] for j in jobs if j["state"] != "FINISHED"]
    if unfinished:
        failures.append(f"{sched}: unfinished jobs {', '.join(unfinished)}")
    small = [j for j in jobs if j["JobID"].startswith("small_") and j["end_ms"]]
    w = [int(j["wait_ms"]) / 1000 for j in small if j["wait_ms"]]
    runtimes = [int(j["runtime_ms"]) / 1000 for j in small if j["runtime_ms"]]
    waits[sched] = sum(w) / len(w) if w else None
    big = next(j for j in jobs if j["JobID"] == "big")
    big_run = (int(big["end_ms"]) - int(big["submit_ms"])) / 1000 if big["end_ms"] else None
    makespan = max(int(j["end_ms"]) for j in jobs if j["end_ms"]) / 1000
    rs = [r for r in track if r["time"] <= makespan]
    util = 100 * sum(r["cluster.allocated.memory"] for r in rs) / sum(
        r["cluster.allocated.memory"] + r["cluster.available.memory"] for r in rs)
    rows.append(f"| {sched} | {mm(w)} | {mm(runtimes)} | "
                f"{f'{big_run:.0f} s' if big_run else '-'} | {makespan:.0f} s | {util:.0f} % | "
                f"{marked} / {killed} |")
    if sched in FAIR:
        conv = convergence(track)
        for start, end, c, worst, n in conv:
            lines.append(f"| {sched} | {start:.0f}-{end:.0f} s | "
                         f"{'never' if c is None else f'{c:.0f} s'} | "
                         f"{'-' if worst is None else f'{100 * worst:.1f} %'} ({n} samples) |")
            if worst is None or worst > TOLERANCE:
                failures.append(f"{sched}: stretch {start:.0f}-{end:.0f} s: allocations off the "
                                f"fair shares by {'-' if worst is None else f'{100 * worst:.1f} %'} "
                                f"after {SETTLE_S} s")
        if len(conv) < len(small):
            failures.append(f"{sched}: {len(conv)} contended stretches for {len(small)} small jobs")

for sched in FAIR:
    if waits.get("fifo") is not None and waits.get(sched):
        if waits["fifo"] < 5 * waits[sched]:
            failures.append(f"FIFO mean small-job wait {waits['fifo']:.0f} s is not 5x {sched}'s "
                            f"{waits[sched]:.0f} s")

report = ["# Three schedulers, one workload", "",
          "| scheduler | small wait mean / max | small runtime mean / max | big runtime | makespan "
          "| utilisation | preempted (marked / killed) |",
          "|---|---|---|---|---|---|---|", *rows, "",
          f"Fair shares (both queues want at least their share; within {TOLERANCE:.0%}):", "",
          "| scheduler | contended | converged after | worst deviation after "
          f"{SETTLE_S} s |", "|---|---|---|---|", *lines, ""]
if waits.get("fifo") and waits.get("fair"):
    report.append(f"FIFO's mean small-job wait is {waits['fifo'] / waits['fair']:.0f}x Fair's.")
report += ["", "Checks: " + ("all hold" if not failures else "FAILED"), *[f"* {f}" for f in failures]]
text = "\n".join(report) + "\n"
os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, "report.md"), "w") as f:
    f.write(text)
print(text, end="")
sys.exit(1 if (failures and CHECK) else 0)
