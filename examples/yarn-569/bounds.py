#!/usr/bin/env python3
"""Lower bounds behind the seed's two experiment-1 figures that the runs miss (README.md,
"Where the model and the seed differ"; docs/preemption.md, "End to end"). Prints them and writes
OUT/bounds.json (read by report.py and tests/yarn569_test.sh; run.sh runs it).

Usage: bounds.py [OUT]   (OUT as for run.sh, default out/ next to this script; needs run.sh's
                          outputs there; SPINDLE as for run.sh; python3 standard library only)

1. A's guarantee. The premise of the seed's configuration 1 (A waits > 250 s for any container
   besides its AM without preemption) means the cluster is full for A's tasks when A arrives and
   no B container ends in A's first 250 s: a container that ended would go to A (the most
   under-served queue) in 1-elastic as well. So until then only preemption moves capacity to A.
   `policy_rounds` replays ProportionalCapacityPreemptionPolicy's per-round arithmetic
   (PreemptableResourceCalculator.computeIdealResourceDistribution's scalingFactor, then the
   dead zone and natural_termination_factor): the surplus over B's ideal is scaled to at most
   total_preemption_per_round x cluster, times natural_termination_factor (half-up),
   then containers are taken while that target is > 0 (the last overshoots); nothing is taken
   once B is within its dead zone (used <= 1.1 x guarantee). It counts the rounds until A could
   hold 95 % of its guarantee, for several container sizes (A's and B's tasks the same size,
   nodes of 16 GB, B holding everything but A's 1 GB AM), assuming B gives every marked
   container back at once. Rounds are monitoring_interval (3 s) apart, so A needs at least
   3 x (rounds - 1) s after the first round; 100 % needs B below its dead zone, which only
   B's own completions can bring, hence not before 250 s.
2. B's runtime. B's remaining reduce work at A's submission (the 1-elastic run, where every B
   reduce alive at 400 s runs to its end: container-seconds after 400 s) must be done in the
   capacity A leaves B (cluster - B's AM - A's allocation, per second of 1-preempt's
   realtimetrack.json; A's allocation is identical in 1-preempt and 1-preempt-wp). B cannot end
   before that capacity adds up to its work: with work-preserving preemption that is the
   remaining work itself (whatever order the AM resumes tasks in); restarting from zero adds
   the work the preempted reduces lose (the first ramp's victims, and all victims of the run).
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(HERE, "out")
SPINDLE = os.environ.get("SPINDLE", "build/spindle")
if not os.path.isabs(SPINDLE):
    SPINDLE = os.path.join(ROOT, SPINDLE)
GB = 1024
CLUSTER_MB, NODE_MB, NODES = 160 * GB, 16 * GB, 10
GUARANTEE_A, GUARANTEE_B = 128 * GB, 32 * GB
A_SUBMIT_MS = 400000


def policy_rounds(container_mb, per_round=0.1, ntf=0.2, dead_zone=0.1, share=0.95):
    """(rounds until A can hold `share` of its guarantee or None, GB A can hold at the end)."""
    b_used = min(NODES * (NODE_MB // container_mb) * container_mb, CLUSTER_MB - GB)
    budget0 = int(CLUSTER_MB * per_round)
    rounds = 0
    while True:
        a_can = GB + (CLUSTER_MB - b_used - GB) // container_mb * container_mb
        if a_can >= share * GUARANTEE_A:
            return rounds, a_can / GB
        if b_used <= int(GUARANTEE_B * (1 + dead_zone)):
            return None, a_can / GB
        target = int(min(b_used - GUARANTEE_B, budget0) * ntf + 0.5)
        budget, taken = budget0, 0
        while target > 0 and container_mb <= budget and taken < b_used:
            target -= container_mb
            budget -= container_mb
            taken += container_mb
        b_used -= taken
        rounds += 1


def decisions(config, workdir):
    """Containers of sort_B's reduces (priority 10): id -> (allocated ms, ended ms, how)."""
    out = os.path.join(workdir, config)
    subprocess.run([SPINDLE, "sim", "--tracetype", "SLS", "--tracelocation",
                    os.path.join(HERE, "exp1.json"), "--nodes", os.path.join(HERE, "nodes.json"),
                    "--conf", os.path.join(HERE, f"conf-{config}"), "--output-dir", out,
                    "--seed", "1", "--no-timings", "--quiet", "--decision-log", "--overwrite"],
                   check=True,
                   stdout=subprocess.DEVNULL)
    alloc, end = {}, {}
    with open(os.path.join(out, "decisions.jsonl")) as f:
        for line in f:
            d = json.loads(line)
            if d["kind"] == "allocate" and d.get("appName") == "sort_B" and d["priority"] == 10:
                alloc[d["container"]] = d["time"]
            elif d["kind"] in ("complete", "kill", "release"):
                end[d["container"]] = (d["time"], d["kind"])
    return {c: (t, *end[c]) for c, t in alloc.items() if c in end}


def capacity_reaches(track, work_gbs):
    """First time (s) at which B's capacity since A's submission adds up to work_gbs."""
    acc = 0.0
    for r in track:
        if r["time"] < A_SUBMIT_MS / 1000:
            continue
        tot = r["cluster.allocated.memory"] + r["cluster.available.memory"]
        acc += tot - 1 - r.get("queue.A.allocated.memory", 0)  # 1 s samples, GB
        if acc >= work_gbs:
            return r["time"]
    return None


def main():
    if not os.access(SPINDLE, os.X_OK):
        print(f"bounds.py: no spindle binary at {SPINDLE}", file=sys.stderr)
        return 1
    result = {"rounds": {}}
    print("1. Rounds until A can hold 95 % of its guarantee by preemption alone "
          "(B holds the cluster but A's AM; nothing of B ends by itself):")
    for c in (1024, 1536, 2048, 3072, 4096, 6144, 8192):
        r, a = policy_rounds(c)
        r1, _ = policy_rounds(c, per_round=1.0)
        result["rounds"][str(c)] = {"defaults": r, "per_round_1": r1, "a_can_hold_gb": a}
        shown = "never (dead zone)" if r is None else f"{r} rounds, >= {3 * (r - 1)} s"
        print(f"   containers {c / GB:g} GB: defaults {shown}; total_preemption_per_round 1.0: "
              f"{r1} rounds")
    r100, a100 = policy_rounds(GB, share=1.0)
    result["full_guarantee_by_preemption"] = r100
    print(f"   100 % of the guarantee by preemption alone: "
          f"{'never' if r100 is None else r100}; B keeps its dead zone, A at most {a100:.0f} GB")

    with open(os.path.join(OUT, "1-elastic", "jobs.csv")) as f:
        b_elastic = next(int(l.split(",")[8]) for l in f if l.startswith("sort_B,")) / 1000
    with open(os.path.join(OUT, "1-preempt", "realtimetrack.json")) as f:
        track = json.load(f)
    with tempfile.TemporaryDirectory() as work:
        elastic = decisions("1-elastic", work)
        preempt = decisions("1-preempt", work)
    alive = [(a, e) for a, e, _ in elastic.values() if a <= A_SUBMIT_MS < e]
    remaining = sum(e - A_SUBMIT_MS for a, e in alive) / 1000
    released = [(a, e) for a, e, how in preempt.values() if how == "release"]
    first = [(a, e) for a, e in released if e < 600000]
    lost_first = sum(e - a for a, e in first) / 1000
    lost_all = sum(e - a for a, e in released) / 1000
    bounds = {"work_preserving": capacity_reaches(track, remaining),
              "restart_first_ramp": capacity_reaches(track, remaining + lost_first),
              "restart_all": capacity_reaches(track, remaining + lost_all)}
    result.update({"b_elastic_s": b_elastic, "b_reduces_alive_at_400": len(alive),
                   "b_remaining_gbs": remaining, "preempted_first_ramp": len(first),
                   "lost_first_ramp_gbs": lost_first, "preempted_all": len(released),
                   "lost_all_gbs": lost_all,
                   "b_bound_s": bounds,
                   "b_bound_ratio": {k: v / b_elastic for k, v in bounds.items()}})
    print(f"2. B at A's submission: {len(alive)} reduces with {remaining:,.0f} GB*s still to run "
          f"(1-elastic; B ends at {b_elastic:.0f} s, 1.25x = {1.25 * b_elastic:.0f} s)")
    print(f"   work-preserving: B cannot end before {bounds['work_preserving']} s "
          f"({bounds['work_preserving'] / b_elastic:.2f}x)")
    print(f"   restart from zero: the first ramp preempts {len(first)} reduces, losing "
          f"{lost_first:,.0f} GB*s: not before {bounds['restart_first_ramp']} s "
          f"({bounds['restart_first_ramp'] / b_elastic:.2f}x); all {len(released)} preemptions "
          f"of the run lose {lost_all:,.0f} GB*s: {bounds['restart_all']} s "
          f"({bounds['restart_all'] / b_elastic:.2f}x)")
    with open(os.path.join(OUT, "bounds.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
