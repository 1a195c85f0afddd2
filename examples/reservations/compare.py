#!/usr/bin/env python3
"""Compares the reservation runs of run.sh: reads <out>/<config>/reservation-metrics.json and
reservations.csv for each configuration, writes <out>/report.md and prints it. With --check,
exits 1 unless every reservation configuration (greedy-early, greedy-late, aligned) has a larger
share of deadline jobs finishing by their deadline than plain Capacity queues."""
import csv
import json
import sys
from pathlib import Path

CONFIGS = [
    ("plain", "plain Capacity queues (reservations refused: no reservable queue)"),
    ("greedy-early", "reservable, GreedyReservationAgent, favor-early-allocation true"),
    ("greedy-late", "reservable, GreedyReservationAgent, favor-early-allocation false"),
    ("aligned", "reservable, AlignedPlannerWithGreedy (YARN's default agent)"),
]


def load(out, name):
    d = out / name
    m = json.loads((d / "reservation-metrics.json").read_text())
    with open(d / "reservations.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return m, rows


def pct(x):
    return f"{100 * x:.1f} %"


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    check = "--check" in argv
    if len(args) != 1:
        print("usage: compare.py <out dir> [--check]", file=sys.stderr)
        return 2
    out = Path(args[0])
    runs = {name: load(out, name) for name, _ in CONFIGS}
    lines = [
        "# Reservations: plain queues against a reservable plan queue",
        "",
        "The same SYNTH workload (workload.json: deadline jobs and best-effort jobs in "
        "root.dedicated, batch jobs in root.batch) under each configuration. A deadline job "
        "asks for a reservation one plan step before it starts; accepted, it runs in its "
        "reservation's queue. Figures from reservation-metrics.json (docs/simulator.md).",
        "",
        "| configuration | deadline jobs | reserved | met deadline | met deadline (reserved) "
        "| cluster utilisation | best-effort latency mean / p95 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, desc in CONFIGS:
        m, _ = runs[name]
        lines.append(
            f"| {name}: {desc} | {m['reservationsAsked']} | {m['reservationsAccepted']} "
            f"({pct(m['acceptanceRatio'])}) | {m['askedMetDeadline']} "
            f"({pct(m['askedDeadlineShare'])}) | {m['acceptedMetDeadline']} "
            f"({pct(m['deadlineShare'])}) | {pct(m['clusterUtilisation'])} | "
            f"{m['bestEffortMeanLatencyMs'] / 1000:.0f} s / {m['bestEffortP95LatencyMs'] / 1000:.0f} s |")
    lines += [
        "",
        "Best-effort jobs are the finished jobs without a reservation (in plain, the deadline "
        "jobs too, which is why its best-effort figures count more jobs).",
        "",
    ]
    report = "\n".join(lines)
    (out / "report.md").write_text(report)
    print(report)
    if check:
        base = runs["plain"][0]["askedDeadlineShare"]
        failed = [name for name, _ in CONFIGS[1:] if runs[name][0]["askedDeadlineShare"] <= base]
        for name in failed:
            print(f"check failed: {name} met {pct(runs[name][0]['askedDeadlineShare'])} of "
                  f"deadlines, plain queues {pct(base)}", file=sys.stderr)
        if failed:
            return 1
        print(f"check: every reservation configuration beats plain queues' {pct(base)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
