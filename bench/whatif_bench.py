#!/usr/bin/env python3
"""`spindle whatif` against single `spindle sim` runs: three configurations (Capacity 50/30/20,
the same with the preemption monitor on, Fair 5:3:2 with fair-share preemption) on one
generated day of about 1 million task containers on 10,000 nodes (a SYNTH workload, so every
run generates the same trace from the seed instead of parsing a file).

    bench/whatif_bench.py [--spindle build/spindle] [--work /tmp/whatif-bench] [--jobs N]

Runs the three configurations together with `spindle whatif` (wall; CPU of it and its runs),
then each alone (wall and CPU of the `spindle sim` process), and prints the ratio of the
whatif wall to the slowest single run's and the bound the machine allows: with C cores and the
runs' CPU times t1 >= t2 >= t3, no schedule finishes before max(t1, (t1 + t2 + t3) / C). The
load average before and after each measurement is printed with it: the machine is shared.
Not a test; the figures go to bench/README.md and docs/whatif.md.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time

QUEUES = [("prod", 50, 5), ("dev", 30, 3), ("adhoc", 20, 2)]


def synth(jobs):
    """A day of MapReduce jobs in three queues: 70 % small (10 maps), 25 % medium (100 maps),
    5 % large (600 maps); maps of 40 minutes, reduces of 20 minutes; a diurnal arrival rate
    (twice as many jobs at midday as at night)."""
    classes = [
        {"class_name": "small", "class_weight": 0.70, "mtasks_avg": 10, "mtasks_stddev": 3,
         "rtasks_avg": 1, "mtime_avg": 2400, "mtime_stddev": 900, "rtime_avg": 1200,
         "rtime_stddev": 300},
        {"class_name": "medium", "class_weight": 0.25, "mtasks_avg": 100, "mtasks_stddev": 30,
         "rtasks_avg": 5, "rtasks_stddev": 1, "mtime_avg": 2400, "mtime_stddev": 900,
         "rtime_avg": 1200, "rtime_stddev": 300},
        {"class_name": "large", "class_weight": 0.05, "mtasks_avg": 600, "mtasks_stddev": 150,
         "rtasks_avg": 20, "rtasks_stddev": 5, "mtime_avg": 2400, "mtime_stddev": 900,
         "rtime_avg": 1200, "rtime_stddev": 300},
    ]
    day = [{"time": h * 3600, "weight": 1 + (1 - abs(h - 12) / 12)} for h in range(0, 24)]
    day.append({"time": 86400, "weight": 0})
    return {
        "description": "whatif benchmark: a day of MapReduce on 10,000 nodes",
        "num_nodes": 10000, "nodes_per_rack": 40, "num_jobs": jobs, "rand_seed": 42,
        "workloads": [
            {"workload_name": q, "workload_weight": share / 100, "queue_name": q,
             "job_classes": [dict(c, user_name=f"{q}_user") for c in classes],
             "time_distribution": day}
            for q, share, _ in QUEUES],
    }


def prop(name, value):
    return f"  <property><name>{name}</name><value>{value}</value></property>\n"


def write_confs(work):
    sls = "".join(prop(k, v) for k, v in [
        ("yarn.sls.nm.memory.mb", 10240), ("yarn.sls.nm.vcores", 10),
        ("yarn.sls.nm.heartbeat.interval.ms", 1000), ("yarn.sls.am.heartbeat.interval.ms", 1000),
        ("yarn.sls.container.memory.mb", 1024), ("yarn.sls.container.vcores", 1),
        ("yarn.sls.metrics.switch", "ON"), ("yarn.sls.metrics.record.interval.ms", 60000)])
    cap = prop("yarn.scheduler.capacity.root.queues", "prod,dev,adhoc")
    for q, share, _ in QUEUES:
        cap += prop(f"yarn.scheduler.capacity.root.{q}.capacity", share)
        cap += prop(f"yarn.scheduler.capacity.root.{q}.maximum-capacity", 100)
        cap += prop(f"yarn.scheduler.capacity.root.{q}.user-limit-factor", 2)
    # A round every 15 s: at 10,000 nodes each round of ProportionalCapacityPreemptionPolicy
    # walks every node's containers, and YARN's default 3 s makes the run several times slower.
    monitor = (prop("yarn.resourcemanager.scheduler.monitor.enable", "true") +
               prop("yarn.resourcemanager.monitor.capacity.preemption.observe_only", "false") +
               prop("yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval",
                    15000))
    confs = {
        "capacity": {"yarn-site.xml": prop("yarn.resourcemanager.scheduler.class", "capacity"),
                     "capacity-scheduler.xml": cap},
        "capacity-preempt": {"yarn-site.xml": prop("yarn.resourcemanager.scheduler.class",
                                                   "capacity") + monitor,
                             "capacity-scheduler.xml": cap},
        "fair": {"yarn-site.xml": prop("yarn.resourcemanager.scheduler.class", "fair") +
                 prop("yarn.scheduler.fair.preemption", "true")},
    }
    fair = "<?xml version=\"1.0\"?>\n<allocations>\n"
    for q, _, weight in QUEUES:
        fair += f"  <queue name=\"{q}\"><weight>{weight}</weight></queue>\n"
    fair += ("  <defaultFairSharePreemptionTimeout>30</defaultFairSharePreemptionTimeout>\n"
             "</allocations>\n")
    dirs = []
    for name, files in confs.items():
        d = os.path.join(work, "conf", name)
        os.makedirs(d, exist_ok=True)
        for f, body in dict(files, **{"sls-runner.xml": sls}).items():
            with open(os.path.join(d, f), "w") as out:
                out.write(f"<?xml version=\"1.0\"?>\n<configuration>\n{body}</configuration>\n")
        if name == "fair":
            with open(os.path.join(d, "fair-scheduler.xml"), "w") as out:
                out.write(fair)
        dirs.append(d)
    return dirs


def timed(cmd):
    """Runs cmd; returns (wall s, CPU s of its process tree) and the load before and after."""
    load0 = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, check=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, load0, os.getloadavg()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spindle", default="build/spindle")
    ap.add_argument("--work", default="/tmp/whatif-bench")
    ap.add_argument("--jobs", type=int, default=15400)
    ap.add_argument("--skip-single", action="store_true", help="only the whatif run")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    trace = os.path.join(a.work, "synth.json")
    with open(trace, "w") as f:
        json.dump(synth(a.jobs), f, indent=1)
    confs = write_confs(a.work)
    common = ["--tracetype", "SYNTH", "--tracelocation", trace, "--seed", "1"]
    # The comparison first (not quiet: it prints each run's wall time), then each configuration
    # alone.
    cmd = [a.spindle, "whatif", *common, "--output-dir", os.path.join(a.work, "whatif")]
    for c in confs:
        cmd += ["--conf", c]
    whatif_wall, cpu, l0, l1 = timed(cmd)
    print(f"whatif (3 runs, {os.cpu_count()} cores): wall {whatif_wall:.1f} s, CPU {cpu:.1f} s "
          f"(load {l0:.1f} -> {l1:.1f})", flush=True)
    singles = {}
    if not a.skip_single:
        for c in confs:
            name = os.path.basename(c)
            out = os.path.join(a.work, "single", name)
            singles[name] = timed([a.spindle, "sim", *common, "--conf", c, "--output-dir", out,
                                   "--no-timings", "--quiet"])
            w, cpu, l0, l1 = singles[name]
            print(f"single {name}: wall {w:.1f} s, CPU {cpu:.1f} s (load {l0:.1f} -> {l1:.1f})",
                  flush=True)
        with open(os.path.join(a.work, "single", "capacity", "jobs.csv")) as f:
            print(f"jobs: {sum(1 for _ in f) - 1}")
    if singles:
        cpus = sorted((v[1] for v in singles.values()), reverse=True)
        slowest = max(v[0] for v in singles.values())
        cores = os.cpu_count() or 1
        bound = max(cpus[0], sum(cpus) / cores)
        print(f"whatif / slowest single wall: {whatif_wall / slowest:.3f} (target <= 1.10)")
        print(f"CPU bound on {cores} cores: max({cpus[0]:.1f}, {sum(cpus):.1f} / {cores}) = "
              f"{bound:.1f} s; 1.1 x slowest CPU = {1.1 * cpus[0]:.1f} s: the target "
              f"{'can' if bound <= 1.1 * cpus[0] else 'cannot'} hold on an idle machine")


if __name__ == "__main__":
    sys.exit(main())
