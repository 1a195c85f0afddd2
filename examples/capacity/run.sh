#!/usr/bin/env bash
# Runs the capacity example into examples/capacity/out/<config>/. Run from the repo root
# (or anywhere: paths are resolved from this script). SPINDLE overrides the binary.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spindle="${SPINDLE:-build/spindle}"
case "$spindle" in /*) ;; *) spindle="$root/$spindle" ;; esac
[ -x "$spindle" ] || { echo "run.sh: no spindle binary at $spindle (build it or set SPINDLE)" >&2; exit 1; }
for conf in conf; do
  out="$here/out/capacity"
  rm -rf "$out"
  echo "== capacity: $out"
  "$spindle" sim --tracetype SLS --tracelocation "$here/jobs.json" --nodes "$here/nodes.json" \
    --conf "$here/$conf" --output-dir "$out" --seed 1 --no-timings --quiet --print-simulation
done
