#!/usr/bin/env python3
"""Interleaved A/B runs of two spindle_bench binaries (or two spindle_sim_bench binaries): pass
after pass, A then B then A ..., so both see the same phases of a noisy machine. Prints, per
benchmark, the median items/s of each binary over the passes, the range, and B/A.

    tools/ab.py OLD/spindle_bench NEW/spindle_bench --filter 'Capacity.*nodes:10000' --passes 6
    tools/ab.py OLD/spindle_sim_bench NEW/spindle_sim_bench --sim '10000 --hours 6' --passes 4
"""
import argparse, json, re, statistics, subprocess, sys


def micro(binary, flt, min_time):
    out = subprocess.run([binary, "--benchmark_filter=" + flt, "--benchmark_format=json",
                          "--benchmark_min_time=%s" % min_time, "--benchmark_repetitions=3",
                          "--benchmark_report_aggregates_only=true"],
                         capture_output=True, text=True, check=True).stdout
    res = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            res[b["run_name"]] = b.get("items_per_second") or 1e9 / b["cpu_time"]
    return res


def sim(binary, args):
    out = subprocess.run([binary] + args.split(), capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        m = re.search(r"run ([\d.]+) s wall \(([\d.]+) s CPU\)", line)
        if m:
            res["sim %s: CPU s (lower is better)" % args] = float(m.group(2))
    return res


def main():
    p = argparse.ArgumentParser()
    p.add_argument("a"); p.add_argument("b")
    p.add_argument("--filter", default="Capacity|Fair")
    p.add_argument("--sim", help="spindle_sim_bench arguments (the binaries are sim benches)")
    p.add_argument("--passes", type=int, default=5)
    p.add_argument("--min-time", default="0.5")
    o = p.parse_args()
    runs = {"A": {}, "B": {}}
    for i in range(o.passes):
        for tag, binary in (("A", o.a), ("B", o.b)) if i % 2 == 0 else (("B", o.b), ("A", o.a)):
            r = sim(binary, o.sim) if o.sim else micro(binary, o.filter, o.min_time)
            for k, v in r.items():
                runs[tag].setdefault(k, []).append(v)
        print("pass %d done" % (i + 1), file=sys.stderr)
    print("| benchmark | A median (range) | B median (range) | B/A |")
    print("|---|---|---|---|")
    for k in runs["A"]:
        a, b = runs["A"][k], runs["B"].get(k, [float("nan")])
        ma, mb = statistics.median(a), statistics.median(b)
        f = lambda x: "%.0fk" % (x / 1e3) if x > 1e4 else "%.3g" % x
        print("| %s | %s (%s-%s) | %s (%s-%s) | %.3f |" % (k, f(ma), f(min(a)), f(max(a)),
                                                        f(mb), f(min(b)), f(max(b)), mb / ma))


if __name__ == "__main__":
    main()
