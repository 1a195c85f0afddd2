#!/usr/bin/env bash
# Runs every configuration of the YARN-569 example into examples/yarn-569/out/<config>/.
# Works from any directory; SPINDLE (default build/spindle, relative to the repo root)
# overrides the binary. Exits non-zero as soon as a run fails.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spindle="${SPINDLE:-build/spindle}"
case "$spindle" in /*) ;; *) spindle="$root/$spindle" ;; esac
[ -x "$spindle" ] || { echo "run.sh: no spindle binary at $spindle (build it or set SPINDLE)" >&2; exit 1; }
# config -> trace: experiment 1 (two sorts, B then A) and experiment 2 (three queues)
for run in 1-elastic:exp1 1-capped:exp1 1-preempt:exp1 2-nopreempt:exp2 2-preempt:exp2; do
  config="${run%%:*}" trace="${run##*:}"
  out="$here/out/$config"
  rm -rf "$out"
  echo "== $config ($trace.json) -> $out"
  "$spindle" sim --tracetype SLS --tracelocation "$here/$trace.json" --nodes "$here/nodes.json" \
    --conf "$here/conf-$config" --output-dir "$out" --seed 1 --no-timings --quiet \
    --track-jobs sort_A,sort_B --print-simulation
done
