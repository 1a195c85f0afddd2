#!/usr/bin/env bash
# Compares five configurations on one seeded, day-long trace with `spindle whatif`: the baseline
# Capacity split, the same split with capacity preemption on, a different Capacity split, the
# same split with prod reservable (the reservation system on), and the Fair Scheduler. Writes $OUT (default examples/whatif/out/): runs/<label>/ (each run's simulator
# outputs), comparison.csv, comparison.json and report.html, then prints the headline. Works from
# any directory; SPINDLE (default build/spindle, relative to the repo root) overrides the binary.
# Extra arguments go to `spindle whatif` (for example --seeds 3 or --scale-load 1.5);
# `run.sh --check` (first argument) then also checks the comparison against each run's own outputs
# and that the example's picture holds (check.py), failing if not.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spindle="${SPINDLE:-build/spindle}"
case "$spindle" in /*) ;; *) spindle="$root/$spindle" ;; esac
out="${OUT:-$here/out}"
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
[ -x "$spindle" ] || { echo "run.sh: no spindle binary at $spindle (build it or set SPINDLE)" >&2; exit 1; }
"$spindle" whatif --tracetype SLS --tracelocation "$here/jobs.json" --nodes "$here/nodes.json" \
  --conf "$here/capacity" --conf "$here/capacity-preempt" --conf "$here/capacity-prod60" \
  --conf "$here/capacity-reserved" --conf "$here/fair" --output-dir "$out" --overwrite --quiet "$@"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
cmp = json.load(open(f"{out}/comparison.json"))
print(f"runs: {', '.join(cmp['runs'])} (baseline {cmp['runs'][0]})")
for g in cmp["groups"]:
    if g["kind"] not in ("all", "queue"):
        continue
    cells = []
    for run in cmp["runs"]:
        fig = g["runs"].get(run)
        if fig and fig.get("wait"):
            cells.append(f"{run} {fig['wait']['p95Ms'] / 1000:.0f}s")
    print(f"p95 wait {g['kind']} {g['name']}: " + ", ".join(cells))
print(f"report: {out}/report.html")
PY
if [ $check = 1 ]; then python3 "$here/check.py" "$out"; fi
