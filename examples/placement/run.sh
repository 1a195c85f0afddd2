#!/usr/bin/env bash
# Runs the service-beside-batch scenario under both placement-constraints handlers into
# $OUT/<handler>/ (default examples/placement/out/) and checks with check.py that no placement
# violates its constraint; then simulates the SLS trace sim/trace.json on sim/nodes.json under
# both handlers into $OUT/sim-<handler>/ and checks its decision log with check-sim.py. Works from any directory; SPINDLE (default build/spindle, relative to
# the repo root) overrides the binary. Exits non-zero on a failed run, expectation or check.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spindle="${SPINDLE:-build/spindle}"
case "$spindle" in /*) ;; *) spindle="$root/$spindle" ;; esac
out="${OUT:-$here/out}"
[ -x "$spindle" ] || { echo "run.sh: no spindle binary at $spindle (build it or set SPINDLE)" >&2; exit 1; }
for handler in scheduler processor; do
  dir="$out/$handler"
  rm -rf "$dir"
  "$spindle" scenario run "$here/service-$handler.json" --out "$dir"
  python3 "$here/check.py" "$here/service-$handler.json" "$dir"
done
for handler in scheduler processor; do
  dir="$out/sim-$handler"
  rm -rf "$dir"
  "$spindle" sim --input-sls "$here/sim/trace.json" --nodes "$here/sim/nodes.json" \
    --conf "$here/sim/conf-$handler" --output-dir "$dir" --decision-log --no-timings --quiet \
    --print-simulation
  python3 "$here/check-sim.py" "$here/sim/trace.json" "$here/sim/nodes.json" "$dir"
done
