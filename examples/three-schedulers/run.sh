#!/usr/bin/env bash
# Runs the same workload under FIFO, Capacity, Fair (3.x preemption) and Fair with the 2.x
# preemption design into $OUT/<config>/ (default examples/three-schedulers/out/), then writes and
# prints the report ($OUT/report.md, compare.py). Works from any directory; SPINDLE (default
# build/spindle, relative to the repo root) overrides the binary. Exits non-zero as soon as a run
# fails; `run.sh --check` also fails when the seed's picture does not hold (compare.py --check).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spindle="${SPINDLE:-build/spindle}"
case "$spindle" in /*) ;; *) spindle="$root/$spindle" ;; esac
out="${OUT:-$here/out}"
[ -x "$spindle" ] || { echo "run.sh: no spindle binary at $spindle (build it or set SPINDLE)" >&2; exit 1; }
for sched in fifo capacity fair fair-2x; do
  dir="$out/$sched"
  rm -rf "$dir"
  echo "== $sched -> $dir"
  "$spindle" sim --tracetype SLS --tracelocation "$here/jobs.json" --nodes "$here/nodes.json" \
    --conf "$here/conf-$sched" --output-dir "$dir" --seed 1 --no-timings --quiet --decision-log \
    --print-simulation
done
python3 "$here/compare.py" "$out" "$@"
