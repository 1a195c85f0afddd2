#!/usr/bin/env bash
# The YARN-569 experiments in one command: runs the eight configurations into OUT/<config>/
# (each with its own report.html), then report.py writes OUT/report.html (both experiments'
# charts and the table beside the seed's numbers) and OUT/summary.json.
#   run.sh [OUT]     OUT defaults to examples/yarn-569/out
# Works from any directory; SPINDLE (default build/spindle, relative to the repo root)
# overrides the binary. Exits non-zero as soon as a run fails.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spindle="${SPINDLE:-build/spindle}"
case "$spindle" in /*) ;; *) spindle="$root/$spindle" ;; esac
[ -x "$spindle" ] || { echo "run.sh: no spindle binary at $spindle (build it or set SPINDLE)" >&2; exit 1; }
outdir="${1:-$here/out}"
mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"
# config -> trace: experiment 1 (two sorts, B then A) and experiment 2 (three queues)
for run in 1-elastic:exp1 1-capped:exp1 1-preempt:exp1 1-preempt-wp:exp1 1-preempt-r1:exp1 \
           1-preempt-r1-wp:exp1 2-nopreempt:exp2 2-preempt:exp2; do
  config="${run%%:*}" trace="${run##*:}"
  out="$outdir/$config"
  rm -rf "$out"
  echo "== $config ($trace.json) -> $out"
  "$spindle" sim --tracetype SLS --tracelocation "$here/$trace.json" --nodes "$here/nodes.json" \
    --conf "$here/conf-$config" --output-dir "$out" --seed 1 --no-timings --quiet \
    --track-jobs sort_A,sort_B --print-simulation
done
echo
SPINDLE="$spindle" python3 "$here/bounds.py" "$outdir"
echo
python3 "$here/report.py" "$outdir"
