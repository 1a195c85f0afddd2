#!/usr/bin/env bash
# The web UI over a finished simulation's outputs: `spindle sim --decision-log` on the capacity
# example (stopped midway, so apps run and wait), `spindle serve` on its folder (loopback, a
# free port), then web/test/browser.mjs opens every page in headless Chromium and compares them
# with the REST answers served from the outputs. Also the serve command's refusals.
#   webui_sim_test.sh <spindle> <web folder> <repo root> <work folder>
set -u
spindle=$1
web=$2
root=$3
work=$4
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/daemon_lib.sh"

"$spindle" sim --tracetype SLS --tracelocation "$root/examples/capacity/jobs.json" \
  --nodes "$root/examples/capacity/nodes.json" --conf "$root/examples/capacity/conf" \
  --output-dir "$work/out" --seed 1 --until 120s --decision-log --quiet
check "the simulation writes snapshot.json" '[ -s "$work/out/snapshot.json" ]'

"$spindle" serve "$work/empty-folder" --port 0 >"$work/refused.out" 2>&1
code=$?
check "serve refuses a folder without snapshot.json (exit 2, naming it)" \
  '[ $code = 2 ] && grep -q "snapshot.json" "$work/refused.out"'

port=$(freeport)
rm_url="http://127.0.0.1:$port"
"$spindle" serve "$work/out" --port "$port" >"$work/serve.out" 2>&1 &
pids+=("$!")
check "serve answers the REST views" 'waitfor 10 "rest /ws/v1/cluster/metrics | grep -q clusterMetrics"'
check "serve answers the apps of the run" \
  '[ "$(field /apps "len(d[\"apps\"][\"app\"])")" = 3 ]'
check "serve refuses writes (405)" '[ "$(rest /ws/v1/cluster/apps/new-application POST x | head -1)" = 405 ]'
check "serve listens on loopback" 'grep -q "open http://127.0.0.1:$port/" "$work/serve.out"'

(cd "$web/test" && timeout 120 node browser.mjs --url "$rm_url" --out "$work/screenshots") 2>&1 |
  tee "$work/browser.out"
check "every browser check passed" 'grep -q " 0 failed$" "$work/browser.out"'
[ $fails = 0 ]
