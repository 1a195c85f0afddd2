#!/usr/bin/env python3
"""Prints the YARN-569 example's measurements beside the seed's numbers (run ./run.sh first).

Experiment 1 (out/1-elastic, out/1-capped, out/1-preempt), per configuration:
  A first task   seconds from sort_A's submission until it holds a container besides its AM
                 (metrics/variable.app.sort_A.live.containers.csv >= 2)
  A guarantee    seconds from sort_A's submission until queue A's allocated memory first reaches
                 95 % of its guarantee (80 % of the cluster) in realtimetrack.json
  B runtime      sort_B's runtime (jobs.csv), and its ratio to the elastic run's
  A runtime      sort_A's runtime (jobs.csv)
  utilisation    mean allocated / total memory over the whole run (realtimetrack.json), and over
                 [A's submission, B's end] (the contended part)
Experiment 2 (out/2-*): each queue's mean share of the allocated memory in three phases (only
  B; B and A; B, A and C), each phase starting 100 s after the arrival that opens it and
  ending when the next job arrives or a queue runs out of pending demand, beside the
  shares the seed reports (100 %; 33/66 %; the guarantees 40/20/40 %), and how long the
  arriving queue took to reach 95 % of its share of the cluster.
Usage: compare.py [OUTDIR]   (default: out/ next to this script)
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "out")


def load(config):
    d = os.path.join(OUT, config)
    track = json.load(open(os.path.join(d, "realtimetrack.json")))
    jobs = {r["JobID"]: r for r in csv.DictReader(open(os.path.join(d, "jobs.csv")))}
    return d, track, jobs


def total(r):
    return r["cluster.allocated.memory"] + r["cluster.available.memory"]


def fmt_s(v):
    return "-" if v is None else f"{v:.0f} s"


def experiment1():
    print("Experiment 1: sort_B in B (20 %) at 0 s, sort_A in A (80 %) at 400 s; 10 nodes, 160 GB")
    rows, base_b = [], None
    for config in ("1-elastic", "1-capped", "1-preempt"):
        if not os.path.isdir(os.path.join(OUT, config)):
            print(f"  {config}: missing (run ./run.sh)")
            continue
        d, track, jobs = load(config)
        a, b = jobs["sort_A"], jobs["sort_B"]
        a_submit = int(a["submit_ms"]) / 1000
        first_task = None
        with open(os.path.join(d, "metrics", "variable.app.sort_A.live.containers.csv")) as f:
            for r in csv.DictReader(f):
                if float(r["t"]) >= a_submit and float(r["value"]) >= 2:
                    first_task = float(r["t"]) - a_submit
                    break
        guarantee = None
        for r in track:
            if r["time"] >= a_submit and r.get("queue.A.allocated.memory", 0) >= 0.95 * 0.8 * total(r):
                guarantee = r["time"] - a_submit
                break
        b_run = int(b["runtime_ms"]) / 1000 if b["runtime_ms"] else None
        a_run = int(a["runtime_ms"]) / 1000 if a["runtime_ms"] else None
        if config == "1-elastic":
            base_b = b_run
        b_end = int(b["end_ms"]) / 1000 if b["end_ms"] else track[-1]["time"]
        util = sum(r["cluster.allocated.memory"] for r in track) / sum(total(r) for r in track)
        cont = [r for r in track if a_submit <= r["time"] <= b_end]
        util_c = (sum(r["cluster.allocated.memory"] for r in cont) / sum(total(r) for r in cont)
                  if cont else 0)
        ratio = f"{b_run / base_b:.2f}x" if b_run and base_b else "-"
        rows.append((config, fmt_s(first_task), fmt_s(guarantee), f"{fmt_s(b_run)} ({ratio})",
                     fmt_s(a_run), f"{100 * util:.0f} % / {100 * util_c:.0f} %"))
    seed = {"1-elastic": ("> 250 s", "~20 min", "baseline", "", "high"),
            "1-capped": ("at once", "at once", "> 2x", "", "very low"),
            "1-preempt": ("< 30 s", "< 30 s", "~ baseline", "", "high")}
    head = ("config", "A first task", "A guarantee", "B runtime", "A runtime",
            "util all / contended")
    widths = [11, 13, 12, 16, 10, 21]
    line = lambda cells: "  " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths))
    print(line(head))
    for row in rows:
        print(line(row))
        s = seed[row[0]]
        print(line(("  seed",) + s[:3] + ("-", s[4])))
    print()


def experiment2():
    print("Experiment 2: queues A/B/C 40/20/40 %; sort_B at 0 s, sort_A at 300 s, sort_C at 600 s")
    queues = ("A", "B", "C")
    for config in ("2-nopreempt", "2-preempt"):
        if not os.path.isdir(os.path.join(OUT, config)):
            print(f"  {config}: missing (run ./run.sh)")
            continue
        d, track, jobs = load(config)
        arrivals = sorted((int(j["submit_ms"]) / 1000, j["queue"].split(".")[-1])
                          for j in jobs.values())
        phases = [("B alone", {"B": 100}), ("B + A", {"B": 33.3, "A": 66.7}),
                  ("B + A + C", {"A": 40, "B": 20, "C": 40})]
        print(f"  {config}:")
        for i, (name, ideal) in enumerate(phases):
            lo = arrivals[i][0] + (100 if i else 0)
            hi = arrivals[i + 1][0] if i + 1 < len(arrivals) else track[-1]["time"]
            active = list(ideal)
            end = hi
            for r in track:
                if lo <= r["time"] <= hi and any(
                        r.get(f"queue.{q}.pending.memory", 0) <= 0 for q in active):
                    end = r["time"]
                    break
            rs = [r for r in track if lo <= r["time"] < end and r["cluster.allocated.memory"] > 0]
            cells = []
            for q in queues:
                mean = (sum(100 * r.get(f"queue.{q}.allocated.memory", 0) /
                            r["cluster.allocated.memory"] for r in rs) / len(rs)) if rs else 0
                cells.append(f"{q} {mean:5.1f} % (seed {ideal.get(q, 0):.0f} %)")
            arrival, newcomer = arrivals[i]
            reach = next((r["time"] - arrival for r in track if r["time"] >= arrival and
                          r.get(f"queue.{newcomer}.allocated.memory", 0) >=
                          0.95 * ideal[newcomer] / 100 * total(r)), None)
            print(f"    {name:<10} [{lo:.0f}, {end:.0f}) s: " + ", ".join(cells) +
                  f"; {newcomer} reached 95 % of its share {fmt_s(reach)} after arriving")
    print()


experiment1()
experiment2()
print("The preemption monitor is not wired into the scheduler yet: 1-preempt and 2-preempt "
      "run without preemption until it is (their rows then equal 1-elastic and 2-nopreempt).")
