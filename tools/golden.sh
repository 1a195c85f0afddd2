#!/usr/bin/env bash
# Writes every example's, scenario's and simulator test input's outputs (decision logs, jobs,
# metrics, reports, snapshots) into OUT, so two builds can be compared byte for byte:
#   tools/golden.sh build/spindle /tmp/before; ...change...; tools/golden.sh build/spindle /tmp/after
#   diff -r /tmp/before /tmp/after
# Wall-clock fields are left out (--no-timings). Runs are independent; exit status is always 0
# (a run's own exit code is recorded in OUT/<run>.rc so a failure shows up in the diff).
set -u
spindle=$(realpath "$1"); out=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
rm -rf "$out"; mkdir -p "$out/scenario" "$out/sim"
for f in "$root"/examples/quickstart.json "$root"/tests/scenarios/*.json "$root"/tests/scenarios/*/*.json; do
  name=$(realpath --relative-to="$root" "$f" | tr / _)
  "$spindle" scenario run "$f" --out "$out/scenario/$name" >"$out/scenario/$name.stdout" 2>&1
  echo $? >"$out/scenario/$name.rc"
done
sim() {  # name args...
  local name=$1; shift
  "$spindle" sim "$@" --output-dir "$out/sim/$name" --seed 1 --no-timings --quiet --decision-log \
    --print-simulation >"$out/sim/$name.stdout" 2>&1
  echo $? >"$out/sim/$name.rc"
}
ex=$root/examples
sim sls --tracetype SLS --tracelocation "$ex/sim/sls/jobs.json" --nodes "$ex/sim/sls/nodes.json" --conf "$ex/sim/sls"
sim rumen --tracetype RUMEN --tracelocation "$ex/sim/rumen/rumen-jobs.json" --conf "$ex/sim/rumen"
sim synth --tracetype SYNTH --tracelocation "$ex/sim/synth/synth.json" --conf "$ex/sim/synth"
sim capacity --tracetype SLS --tracelocation "$ex/capacity/jobs.json" --nodes "$ex/capacity/nodes.json" --conf "$ex/capacity/conf"
for c in fifo capacity fair fair-2x; do
  sim three-$c --tracetype SLS --tracelocation "$ex/three-schedulers/jobs.json" \
    --nodes "$ex/three-schedulers/nodes.json" --conf "$ex/three-schedulers/conf-$c"
done
for d in "$ex"/yarn-569/conf-*; do
  c=${d##*/conf-}
  case $c in 1-*) trace=exp1 ;; *) trace=exp2 ;; esac
  sim y569-$c --tracetype SLS --tracelocation "$ex/yarn-569/$trace.json" --nodes "$ex/yarn-569/nodes.json" --conf "$d"
done
d=$root/tests/data/sim
sim tiny --tracetype SLS --tracelocation "$d/tiny-jobs.json" --nodes "$d/tiny-nodes.json" --conf "$d/conf"
# Output folders carry absolute paths of their inputs in places; make them relative to the tree.
grep -rl "$root" "$out" 2>/dev/null | xargs -r sed -i "s#$root#ROOT#g"
grep -rl "$out" "$out" 2>/dev/null | xargs -r sed -i "s#$out#OUT#g"
# Wall-clock lines of --print-simulation vary between runs.
sed -i -E '/^(wall time|sim\/real ratio):/d' "$out"/sim/*.stdout
exit 0
