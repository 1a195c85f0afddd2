#!/usr/bin/env python3
"""The YARN-569 example's measurements beside the seed's numbers: prints the tables, writes
OUT/summary.json (the numbers, read by tests/yarn569_test.sh) and OUT/report.html (the tables
and both experiments' charts). run.sh calls it after the eight runs.

Usage: report.py [OUT]   (default: out/ next to this script; python3 standard library only)

Experiment 1 (OUT/1-elastic, OUT/1-capped, OUT/1-preempt, and the variants of 1-preempt:
OUT/1-preempt-wp with work-preserving preemption in the simulated AMs, OUT/1-preempt-r1 with
total_preemption_per_round 1.0, OUT/1-preempt-r1-wp with both), per configuration:
  A first task   seconds from sort_A's submission until it holds a container besides its AM
                 (metrics/variable.app.sort_A.live.containers.csv >= 2)
  A guarantee    seconds from sort_A's submission until queue A's allocated memory first reaches
                 95 % of its guarantee (80 % of the cluster) in realtimetrack.json. 95 %, not
                 100 %: the dead zone (max_ignored_over_capacity 0.1) lets B keep up to 110 % of
                 its 32 GB, so preemption alone brings A to 124.8 of 128 GB (97.5 %)
  A 100 %        likewise until A's allocated memory first reaches all of its guarantee (128 GB)
  B runtime      sort_B's runtime (jobs.csv), and its ratio to the elastic run's
  A runtime      sort_A's runtime (jobs.csv)
  utilisation    mean allocated / total memory over the whole run (realtimetrack.json), and over
                 [A's submission, B's end] (the contended part)
  preemption     containers marked and killed (realtimetrack.json preemption.* totals)
Experiment 2 (OUT/2-nopreempt, OUT/2-preempt): each queue's mean share of the allocated memory
  in three phases (only B; B and A; B, A and C), each phase starting SETTLE_S after the arrival
  that opens it and ending when the next job arrives or a running queue runs out of pending
  demand, beside the weighted fair split the seed reports (100 %; 33/66 %; the guarantees
  40/20/40 %); the largest difference in points; how long the arriving queue took to reach
  95 % of its share of the cluster; and (with preemption) how far the instantaneous allocation
  was from the round's ideal assignment.
"""
import csv
import html
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from svgchart import line_chart  # noqa: E402

OUT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(HERE, "out")
EXP1 = ("1-elastic", "1-capped", "1-preempt", "1-preempt-wp", "1-preempt-r1", "1-preempt-r1-wp")
# The runs with the default tunables and preemption on (the seed's figures apply to them).
DEFAULT_PREEMPT = ("1-preempt", "1-preempt-wp")
EXP2 = ("2-nopreempt", "2-preempt")
SETTLE_S = 100
# The seed's figures (reference/seeds/capacity-preemption-YARN-569.txt).
SEED1 = {"1-elastic": ("> 250 s", "almost 20 min", "baseline", "high"),
         "1-capped": ("at once", "at once", "over 2x", "very low"),
         "1-preempt": ("(prompt)", "within 30 s", "comparable to 1-elastic", "high")}
for _v in ("1-preempt-wp", "1-preempt-r1", "1-preempt-r1-wp"):
    SEED1[_v] = None  # variants of 1-preempt: the seed row is printed once, under 1-preempt
PHASES = [("B alone", {"B": 100.0}), ("B + A", {"B": 100 / 3, "A": 200 / 3}),
          ("B + A + C", {"A": 40.0, "B": 20.0, "C": 40.0})]


def load(config):
    d = os.path.join(OUT, config)
    with open(os.path.join(d, "realtimetrack.json")) as f:
        track = json.load(f)
    with open(os.path.join(d, "jobs.csv")) as f:
        jobs = {r["JobID"]: r for r in csv.DictReader(f)}
    return d, track, jobs


def total(r):
    return r["cluster.allocated.memory"] + r["cluster.available.memory"]


def secs(v):
    return int(v) / 1000 if v else None


def fmt_s(v):
    return "-" if v is None else f"{v:.0f} s"


def measure1(config):
    d, track, jobs = load(config)
    a, b = jobs["sort_A"], jobs["sort_B"]
    a_submit = secs(a["submit_ms"])
    first_task = None
    with open(os.path.join(d, "metrics", "variable.app.sort_A.live.containers.csv")) as f:
        for r in csv.DictReader(f):
            if float(r["t"]) >= a_submit and float(r["value"]) >= 2:
                first_task = float(r["t"]) - a_submit
                break
    guarantee = next((r["time"] - a_submit for r in track if r["time"] >= a_submit and
                      r.get("queue.A.allocated.memory", 0) >= 0.95 * 0.8 * total(r)), None)
    full = next((r["time"] - a_submit for r in track if r["time"] >= a_submit and
                 r.get("queue.A.allocated.memory", 0) >= 0.8 * total(r)), None)
    b_end = secs(b["end_ms"]) or track[-1]["time"]
    util = sum(r["cluster.allocated.memory"] for r in track) / sum(total(r) for r in track)
    cont = [r for r in track if a_submit <= r["time"] <= b_end]
    util_c = (sum(r["cluster.allocated.memory"] for r in cont) / sum(total(r) for r in cont)
              if cont else 0)
    last = track[-1]
    return {"a_submit_s": a_submit, "a_first_task_s": first_task, "a_guarantee_s": guarantee,
            "a_full_guarantee_s": full, "b_runtime_s": secs(b["runtime_ms"]), "a_runtime_s": secs(a["runtime_ms"]),
            "utilisation": util, "utilisation_contended": util_c,
            "preemption_rounds": last.get("preemption.rounds", 0),
            "containers_marked": last.get("preemption.containers.marked", 0),
            "containers_killed": last.get("preemption.containers.killed", 0)}


def measure2(config):
    d, track, jobs = load(config)
    arrivals = sorted((secs(j["submit_ms"]), j["queue"].split(".")[-1]) for j in jobs.values())
    phases = []
    for i, (name, ideal) in enumerate(PHASES):
        arrival, newcomer = arrivals[i]
        lo = arrival + (SETTLE_S if i else 0)
        hi = arrivals[i + 1][0] if i + 1 < len(arrivals) else track[-1]["time"]
        end = next((r["time"] for r in track if lo <= r["time"] <= hi and any(
            r.get(f"queue.{q}.pending.memory", 0) <= 0 for q in ideal)), hi)
        rs = [r for r in track if lo <= r["time"] < end and r["cluster.allocated.memory"] > 0]
        shares = {q: (sum(100 * r.get(f"queue.{q}.allocated.memory", 0) /
                          r["cluster.allocated.memory"] for r in rs) / len(rs)) if rs else 0
                  for q in ("A", "B", "C")}
        reach = next((r["time"] - arrival for r in track if r["time"] >= arrival and
                      r.get(f"queue.{newcomer}.allocated.memory", 0) >=
                      0.95 * ideal[newcomer] / 100 * total(r)), None)
        diff = max(abs(shares[q] - ideal.get(q, 0)) for q in shares)
        phases.append({"name": name, "from_s": lo, "to_s": end, "shares": shares,
                       "fair": {q: ideal.get(q, 0.0) for q in ("A", "B", "C")},
                       "max_diff_points": diff, "newcomer": newcomer, "reach_s": reach})
    # Instantaneous allocation against the round's ideal assignment (seed: "very close").
    gaps = []
    for r in track:
        if r["time"] < arrivals[1][0]:
            continue
        for q in ("A", "B", "C"):
            key = f"queue.{q}.ideal.assigned.memory"
            if key in r and r.get(f"queue.{q}.pending.memory", 0) > 0:
                gaps.append(abs(r[f"queue.{q}.allocated.memory"] - r[key]) / total(r) * 100)
    last = track[-1]
    return {"phases": phases, "ideal_gap_points": sum(gaps) / len(gaps) if gaps else None,
            "preemption_rounds": last.get("preemption.rounds", 0),
            "containers_marked": last.get("preemption.containers.marked", 0),
            "containers_killed": last.get("preemption.containers.killed", 0)}


def read_bounds():
    """OUT/bounds.json (bounds.py, run by run.sh before this script), or {} when absent."""
    try:
        with open(os.path.join(OUT, "bounds.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def claims(m1, m2, bounds):
    """The seed's claims, each with the criterion that decides it, the bound the policy's
    arithmetic allows under the default tunables (total_preemption_per_round 0.1,
    natural_termination_factor 0.2, max_ignored_over_capacity 0.1, monitoring_interval 3 s;
    bounds.py derives them), the measured figure and whether the claim holds here:
    (claim, criterion, bound, measured, holds)."""
    out = []
    e, c = m1.get("1-elastic"), m1.get("1-capped")
    rounds = bounds.get("rounds", {}).get("1024", {}).get("defaults")
    a_bound = None if rounds is None else 3 * (rounds - 1)
    b_ratio = bounds.get("b_bound_ratio", {})
    for config in DEFAULT_PREEMPT:
        p = m1.get(config)
        if not p:
            continue
        f = p["a_first_task_s"]
        out.append((f"{config}: A gets resources within 30 s",
                    "A holds a container besides its AM at most 30 s after its submission",
                    "the first round, at most 3 s after A's submission",
                    fmt_s(f), f is not None and f <= 30))
        g = p["a_guarantee_s"]
        if a_bound is not None:
            out.append((f"{config}: A reaches its guarantee through preemption",
                        "A holds 95 % of its guarantee no later than two monitoring intervals "
                        "(6 s) after the per-round bound",
                        f"{rounds} rounds of 1 GB containers: at least {a_bound} s",
                        fmt_s(g), g is not None and g <= a_bound + 6))
        if e and c:
            r, rc = p["b_runtime_s"] / e["b_runtime_s"], c["b_runtime_s"] / e["b_runtime_s"]
            key = "work_preserving" if config.endswith("-wp") else "restart_all"
            bound = f"at least {b_ratio[key]:.2f}x of 1-elastic's" if key in b_ratio else "-"
            out.append((f"{config}: B's runtime is comparable to 1-elastic's",
                        f"B's runtime, as a multiple of 1-elastic's, is below 1-capped's "
                        f"({rc:.2f}x)", bound, f"{r:.2f}x", r < rc))
    if e and c:
        r = c["b_runtime_s"] / e["b_runtime_s"]
        out.append(("1-capped (80/20): B takes over 2x longer",
                    "B's runtime is at least 2x 1-elastic's", "none: no preemption",
                    f"{r:.2f}x", r >= 2))
    if "2-preempt" in m2:
        d = max(ph["max_diff_points"] for ph in m2["2-preempt"]["phases"])
        out.append(("2-preempt: one queue gets 100 %, two get 33/66 %, three their guarantees",
                    "every phase's shares within 5 points of the weighted fair split",
                    "the round's ideal assignment (total_preemption_per_round 1.0)",
                    f"{d:.1f} points", d <= 5))
    return out


CLAIM_HEAD = ("the seed's claim", "criterion", "bound under the default tunables", "measured",
              "holds")


def exp1_rows(m1):
    rows = []
    base = m1.get("1-elastic", {}).get("b_runtime_s")
    for config in EXP1:
        if config not in m1:
            continue
        m = m1[config]
        ratio = f"{m['b_runtime_s'] / base:.2f}x" if m["b_runtime_s"] and base else "-"
        rows.append((config, fmt_s(m["a_first_task_s"]), fmt_s(m["a_guarantee_s"]),
                     fmt_s(m["a_full_guarantee_s"]), f"{fmt_s(m['b_runtime_s'])} ({ratio})", fmt_s(m["a_runtime_s"]),
                     f"{100 * m['utilisation']:.0f} % / {100 * m['utilisation_contended']:.0f} %",
                     f"{m['containers_marked']:.0f} / {m['containers_killed']:.0f}"))
    return rows


HEAD1 = ("config", "A first task", "A guarantee", "A 100 %", "B runtime", "A runtime",
         "util all / contended", "marked / killed")


def print_tables(m1, m2):
    print("Experiment 1: sort_B in B (20 %) at 0 s, sort_A in A (80 %) at 400 s; 10 nodes, 160 GB")
    widths = [15, 13, 12, 8, 16, 10, 21, 15]
    line = lambda cells: "  " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths))
    print(line(HEAD1))
    for row in exp1_rows(m1):
        print(line(row))
        s = SEED1[row[0]]
        if s:
            print(line(("  seed", s[0], s[1], "-", s[2], "-", s[3], "")))
    print()
    print("The seed's claims (criterion; bound under the default tunables):")
    for claim, criterion, bound, v, ok in claims(m1, m2, read_bounds()):
        print(f"  {'holds     ' if ok else 'not here  '}  {claim}: {v} ({criterion}; {bound})")
    print()
    print("Experiment 2: queues A/B/C 40/20/40 %; sort_B at 0 s, sort_A at 300 s, sort_C at 600 s")
    for config in EXP2:
        if config not in m2:
            continue
        print(f"  {config}:")
        for p in m2[config]["phases"]:
            cells = ", ".join(f"{q} {p['shares'][q]:5.1f} % (fair {p['fair'][q]:.0f} %)"
                              for q in ("A", "B", "C"))
            print(f"    {p['name']:<10} [{p['from_s']:.0f}, {p['to_s']:.0f}) s: {cells}; "
                  f"max diff {p['max_diff_points']:.1f} points; {p['newcomer']} reached 95 % of "
                  f"its share {fmt_s(p['reach_s'])} after arriving")
        gap = m2[config]["ideal_gap_points"]
        if gap is not None:
            print(f"    allocation vs ideal assignment: mean |difference| {gap:.1f} % of the "
                  f"cluster per queue with pending demand")
    print()


# --- report.html -----------------------------------------------------------------------------

def series(track, key, t0=0.0):
    return [(r["time"] - t0, r[key]) for r in track if key in r]


def table(head, rows):
    out = ["<table><thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) +
           "</tr></thead><tbody>"]
    for r in rows:
        cls = ' class="seed"' if str(r[0]).startswith("seed") else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def exp1_charts(m1):
    charts = []
    tracks = {c: load(c)[1] for c in EXP1 if c in m1}
    for config, track in tracks.items():
        tot = total(track[0])
        charts.append(line_chart(
            f"{config}: memory per queue", [("queue A allocated", series(track,
                                             "queue.A.allocated.memory")),
                                            ("queue B allocated", series(track,
                                             "queue.B.allocated.memory"))],
            x_label="simulated seconds", y_label="GB", y_max=tot,
            hlines=[("A's guarantee (80 %)", 0.8 * tot), ("B's guarantee (20 %)", 0.2 * tot)]))
    if tracks:
        a_submit = m1[next(iter(tracks))]["a_submit_s"]
        tot = total(next(iter(tracks.values()))[0])
        charts.append(line_chart(
            "Queue A's memory in the 10 minutes after its submission",
            [(c, series(t, "queue.A.allocated.memory", a_submit)) for c, t in tracks.items()],
            x_label="seconds after sort_A's submission", y_label="GB", y_max=tot,
            x_range=(0, 600), hlines=[("A's guarantee", 0.8 * tot)]))
        charts.append(line_chart(
            "Cluster memory allocated", [(c, series(t, "cluster.allocated.memory"))
                                         for c, t in tracks.items()],
            x_label="simulated seconds", y_label="GB", y_max=tot))
    return charts


def exp2_charts(m2):
    charts = []
    for config in EXP2:
        if config not in m2:
            continue
        track = load(config)[1]
        tot = total(track[0])
        charts.append(line_chart(
            f"{config}: memory per queue", [(f"queue {q}", series(track,
                                             f"queue.{q}.allocated.memory"))
                                            for q in ("A", "B", "C")],
            x_label="simulated seconds", y_label="GB", y_max=tot))
    if "2-preempt" in m2:
        track = load("2-preempt")[1]
        tot = total(track[0])
        for q in ("A", "B", "C"):
            keys = [("used", "allocated"), ("pending (clipped at the cluster size)", "pending"),
                    ("guaranteed", "guaranteed"), ("ideal assignment", "ideal.assigned"),
                    ("ideal preemption", "ideal.preemption"),
                    ("actual preemption", "actual.preemption")]
            charts.append(line_chart(
                f"2-preempt, queue {q}: the seed's figure",
                [(name, series(track, f"queue.{q}.{k}.memory")) for name, k in keys],
                x_label="simulated seconds", y_label="GB", y_max=tot, y_clip=tot))
    return charts


CSS = """body{font-family:sans-serif;max-width:1500px;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 8px;
text-align:left;font-size:13px}th{background:#f3f3f3}tr.seed td{color:#666;font-style:italic}
.charts{display:flex;flex-wrap:wrap;gap:8px}.charts svg{border:1px solid #eee}p.note{color:#555}"""


def write_html(m1, m2, path):
    parts = ["<!DOCTYPE html>", "<html><head><meta charset=\"utf-8\">",
             "<title>YARN-569 experiments in Spindle</title>", f"<style>{CSS}</style>",
             "</head><body>", "<h1>YARN-569: Capacity Scheduler with and without preemption</h1>",
             "<p class=\"note\">The two experiments Carlo Curino attached to YARN-569, replayed "
             "by <code>spindle sim</code> (examples/yarn-569/README.md explains the model and the "
             "configurations). Grey italic rows are the seed's own figures. Each run's full "
             "report: " + ", ".join(f'<a href="{c}/report.html">{c}</a>'
                                    for c in EXP1 + EXP2 if c in m1 or c in m2) + ".</p>",
             "<h2>The seed's claims and the criteria that decide them</h2>",
             table(CLAIM_HEAD, [(cl, cr, b, v, "yes" if ok else "not in this model")
                                for cl, cr, b, v, ok in claims(m1, m2, read_bounds())]),
             "<p class=\"note\">The bounds follow from ProportionalCapacityPreemptionPolicy's "
             "per-round arithmetic under the default tunables (examples/yarn-569/bounds.py; "
             "examples/yarn-569/README.md, \"Where the model and the seed differ\", derives "
             "them). 1-preempt-wp: the simulated AMs resume preempted "
             "tasks (work-preserving preemption); 1-preempt-r1: total_preemption_per_round 1.0; "
             "1-preempt-r1-wp: both.</p>",
             "<h2>Experiment 1: two sorts, B (20 %) then A (80 %) 400 s later</h2>"]
    rows = []
    for row in exp1_rows(m1):
        rows.append(row)
        s = SEED1[row[0]]
        if s:
            rows.append(("seed", s[0], s[1], "-", s[2], "-", s[3], ""))
    parts.append(table(HEAD1, rows))
    parts.append("<div class=\"charts\">" + "".join(exp1_charts(m1)) + "</div>")
    parts.append("<h2>Experiment 2: three queues A/B/C at 40/20/40 %</h2>")
    rows = []
    for config in EXP2:
        if config not in m2:
            continue
        for p in m2[config]["phases"]:
            rows.append((config, p["name"], f"{p['from_s']:.0f}-{p['to_s']:.0f} s",
                         *(f"{p['shares'][q]:.1f} %" for q in ("A", "B", "C")),
                         f"{p['max_diff_points']:.1f}", f"{p['newcomer']}: {fmt_s(p['reach_s'])}"))
    for name, fair in PHASES:
        rows.append(("seed (weighted fair split)", name, "",
                     *(f"{fair.get(q, 0):.0f} %" if q in fair else "-" for q in ("A", "B", "C")),
                     "", "(prompt)"))
    parts.append(table(("config", "phase", "window", "A share", "B share", "C share",
                        "max diff (points)", "newcomer reaches 95 % of its share"), rows))
    gap = m2.get("2-preempt", {}).get("ideal_gap_points")
    if gap is not None:
        parts.append(f"<p class=\"note\">2-preempt: instantaneous allocation against the last "
                     f"round's ideal assignment: mean |difference| {gap:.1f} % of the cluster per "
                     f"queue with pending demand (the seed: \"very close to each other\"). "
                     f"{m2['2-preempt']['containers_marked']:.0f} containers marked, "
                     f"{m2['2-preempt']['containers_killed']:.0f} killed.</p>")
    parts.append("<div class=\"charts\">" + "".join(exp2_charts(m2)) + "</div>")
    parts.append("</body></html>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    m1 = {c: measure1(c) for c in EXP1 if os.path.isdir(os.path.join(OUT, c))}
    m2 = {c: measure2(c) for c in EXP2 if os.path.isdir(os.path.join(OUT, c))}
    missing = [c for c in EXP1 + EXP2 if c not in m1 and c not in m2]
    if missing:
        print(f"report.py: no output for {', '.join(missing)} in {OUT} (run run.sh)",
              file=sys.stderr)
    print_tables(m1, m2)
    with open(os.path.join(OUT, "summary.json"), "w") as f:
        json.dump({"experiment1": m1, "experiment2": m2,
                   "claims": [{"claim": cl, "criterion": cr, "bound": b, "measured": v,
                               "holds": ok}
                              for cl, cr, b, v, ok in claims(m1, m2, read_bounds())]},
                  f, indent=1, sort_keys=True)
        f.write("\n")
    write_html(m1, m2, os.path.join(OUT, "report.html"))
    print(f"wrote {os.path.join(OUT, 'report.html')} and summary.json")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
