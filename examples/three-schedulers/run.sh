#!/usr/bin/env bash
# Runs the same workload under FIFO, Capacity and Fair into examples/three-schedulers/out/<sched>/.
# Works from any directory; SPINDLE (default build/spindle, relative to the repo root)
# overrides the binary. Exits non-zero as soon as a run fails.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spindle="${SPINDLE:-build/spindle}"
case "$spindle" in /*) ;; *) spindle="$root/$spindle" ;; esac
[ -x "$spindle" ] || { echo "run.sh: no spindle binary at $spindle (build it or set SPINDLE)" >&2; exit 1; }
for sched in fifo capacity fair; do
  out="$here/out/$sched"
  rm -rf "$out"
  echo "== $sched -> $out"
  "$spindle" sim --tracetype SLS --tracelocation "$here/jobs.json" --nodes "$here/nodes.json" \
    --conf "$here/conf-$sched" --output-dir "$out" --seed 1 --no-timings --quiet --print-simulation
done
