#!/usr/bin/env python3
"""Checks examples/whatif's comparison (run.sh --check): every figure of comparison.json against
each run's own outputs, report.html naming every run, and the picture the README describes.
    check.py OUT
"""
import csv
import json
import math
import os
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


def plan_queue(queue):
    """A reservation queue (root.prod.reservation_0_0001) or the plan's default queue
    (root.prod.prod-default) counts as its plan queue, root.prod."""
    parent, _, leaf = queue.rpartition(".")
    if parent and (leaf.startswith("reservation_") or leaf == parent.rpartition(".")[2] + "-default"):
        return parent
    return queue


def leaf_group(leaf, leaves):
    """The same for the metrics' leaf names (one plan queue in this example)."""
    if leaf.endswith("-default"):
        return leaf[: -len("-default")]
    plans = [l[: -len("-default")] for l in leaves if l.endswith("-default")]
    return plans[0] if leaf.startswith("reservation_") and len(plans) == 1 else leaf


check("five runs, capacity first",
      runs == ["capacity", "capacity-preempt", "capacity-prod60", "capacity-reserved", "fair"])
html = open(f"{out}/report.html").read()
check("report.html names every run", all(f"<th>{r}</th>" in html for r in runs))

groups = {(g["kind"], g["name"]): g["runs"] for g in cmp["groups"]}
csv_rows = {(r["group_kind"], r["group"], r["run"]): r
            for r in csv.DictReader(open(f"{out}/comparison.csv"))}
for run in runs:
    rows = list(csv.DictReader(open(f"{out}/runs/{run}/jobs.csv")))
    by_queue = {"": rows}
    for r in rows:
        by_queue.setdefault(plan_queue(r["queue"]), []).append(r)
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
        # Preemption and AM restarts under every scheduler: jobs.csv's columns summed (absent
        # columns: none happened), in comparison.json and comparison.csv alike.
        sums = [sum(int(r.get(k) or 0) for r in members)
                for k in ("preemption_marked", "preemption_released", "preempted_killed",
                          "preempted_run_ms", "am_restarts")]
        row = csv_rows[("all", "", run) if queue == "" else ("queue", queue, run)]
        check(f"{name}: preemption and AM restarts",
              [fig[k] for k in ("preemptionMarked", "preemptionReleased", "preemptedKilled",
                                "preemptedRunMs", "amRestarts")] == sums and
              [int(row[k]) for k in ("preempted_marked", "preempted_released", "preempted_killed",
                                     "preempted_run_ms", "am_restarts")] == sums)
    # Each queue's memory share from the run's metrics.
    def series(name):
        with open(f"{out}/runs/{run}/metrics/{name}") as f:
            return {float(r[0]): float(r[1]) for r in list(csv.reader(f))[1:]}
    alloc = series("variable.cluster.allocated.memory.csv")
    avail = series("variable.cluster.available.memory.csv")
    leaves = [f[len("counter.queue."):-len(".allocated.memory.csv")]
              for f in os.listdir(f"{out}/runs/{run}/metrics")
              if f.startswith("counter.queue.") and f.endswith(".allocated.memory.csv")]
    for queue, share in cmp["runFigures"][run]["queueMemoryShare"].items():
        summed = {}
        for leaf in leaves:
            if leaf_group(leaf, leaves) != queue:
                continue
            for t, v in series(f"counter.queue.{leaf}.allocated.memory.csv").items():
                if alloc[t] + avail[t] > 0:
                    summed[t] = summed.get(t, 0) + v / (alloc[t] + avail[t])
        check(f"{run} {queue}: memory share",
              abs(share - sum(summed.values()) / len(summed)) < 1e-9)
    # Guaranteed against obtained share: the report's table from the run's realtimetrack.json.
    track = json.load(open(f"{out}/runs/{run}/realtimetrack.json"))
    track_leaves = {k[len("queue."):-len(".allocated.memory")] for rec in track for k in rec
                    if k.startswith("queue.") and k.endswith(".allocated.memory")}
    for queue in sorted({leaf_group(l, track_leaves) for l in track_leaves}):
        members = [l for l in track_leaves if leaf_group(l, track_leaves) == queue]
        fair = any(f"queue.{l}.fairshare.memory" in rec for rec in track for l in members)
        key = "fairshare" if fair else "guarantee"
        obtained, guaranteed, below = [], [], 0
        for rec in track:
            total = rec["cluster.allocated.memory"] + rec["cluster.available.memory"]
            present = [l for l in members if f"queue.{l}.allocated.memory" in rec]
            if total <= 0 or not present:
                continue
            o = sum(rec[f"queue.{l}.allocated.memory"] for l in present) / total
            obtained.append(o)
            gs = [rec[f"queue.{l}.{key}.memory"] for l in members
                  if f"queue.{l}.{key}.memory" in rec]
            if gs:
                g = sum(gs) / total
                guaranteed.append(g)
                pending = sum(rec.get(f"queue.{l}.pending.memory", 0) for l in members)
                below += pending > 0 and o < g
        source = "fair share" if fair else "configured guarantee"
        pct = lambda v: f"{100 * v:.2f}%"
        expected = (f"<tr><td>{queue}</td><td>{run}</td><td>{source}</td>"
                    f"<td>{pct(sum(obtained) / len(obtained))}</td>"
                    f"<td>{pct(sum(guaranteed) / len(guaranteed))}</td>"
                    f"<td>{pct(below / len(guaranteed))}</td></tr>")
        check(f"{run} {queue}: guaranteed and obtained share in the report", expected in html)
    check(f"{run}: its obtained-share lines in the charts", f"{run} obtained" in html)

# Reservations: the reservation-enabled run's figures are its reservation-metrics.json's; the
# other runs have none.
res = json.load(open(f"{out}/runs/capacity-reserved/reservation-metrics.json"))
got = cmp["runFigures"]["capacity-reserved"]["reservations"]
check("reservation figures from the run's reservation-metrics.json",
      got is not None and got["asked"] == res["reservationsAsked"] and
      got["accepted"] == res["reservationsAccepted"] and
      abs(got["acceptanceRatio"] - res["acceptanceRatio"]) < 1e-9 and
      abs(got["deadlineShare"] - res["deadlineShare"]) < 1e-9 and
      f"{res['reservationsAccepted']} / {res['reservationsAsked']}" in html)
check("reservation figures in comparison.csv",
      abs(float(csv_rows[("all", "", "capacity-reserved")]["reservation_acceptance_ratio"])
          - res["acceptanceRatio"]) < 1e-4)
check("only the reservation-enabled run has reservation figures",
      all(cmp["runFigures"][r]["reservations"] is None for r in runs if r != "capacity-reserved"))
check("every prod job asked for a reservation; some were accepted",
      res["reservationsAsked"] == 48 and 0 < res["reservationsAccepted"] <= 48)

# The picture: preemption takes containers back for prod, and prod's p95 wait falls.
fig = cmp["runFigures"]
total = {run: groups[("all", "")][run] for run in runs}
check("capacity preemption marked containers; the baseline none",
      (fig["capacity-preempt"]["preemptedMarked"] or 0) > 0 and fig["capacity"]["preemptedMarked"] is None
      and total["capacity-preempt"]["preemptionMarked"] > 0
      and total["capacity"]["preemptionMarked"] == 0)
check("the Fair run's preemptions are counted too, with the work they cost",
      total["fair"]["preemptionMarked"] > 0 and total["fair"]["preemptedRunMs"] > 0)
check("preemption's run time lost is the given-back and killed containers'",
      all((total[r]["preemptedRunMs"] > 0) == (total[r]["preemptionReleased"]
                                               + total[r]["preemptedKilled"] > 0) for r in runs))
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
