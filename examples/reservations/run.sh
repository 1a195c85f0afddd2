#!/usr/bin/env bash
# Runs the same deadline-heavy SYNTH workload (workload.json) under plain Capacity queues and
# under a reservable plan queue with the greedy agent placing early, placing late, and the
# aligned agent (AlignedPlannerWithGreedy), into $OUT/<config>/ (default
# examples/reservations/out/), then writes and prints the comparison ($OUT/report.md,
# compare.py). Works from any directory; SPINDLE (default build/spindle, relative to the repo
# root) overrides the binary. `run.sh --check` also fails unless every reservation
# configuration raises the share of deadline jobs that meet their deadline above plain queues'.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spindle="${SPINDLE:-build/spindle}"
case "$spindle" in /*) ;; *) spindle="$root/$spindle" ;; esac
out="${OUT:-$here/out}"
[ -x "$spindle" ] || { echo "run.sh: no spindle binary at $spindle (build it or set SPINDLE)" >&2; exit 1; }
for conf in plain greedy-early greedy-late aligned; do
  dir="$out/$conf"
  rm -rf "$dir"
  echo "== $conf -> $dir"
  "$spindle" sim --tracetype SYNTH --tracelocation "$here/workload.json" --conf "$here/conf-$conf" \
    --output-dir "$dir" --seed 1 --no-timings --quiet
done
python3 "$here/compare.py" "$out" "$@"
