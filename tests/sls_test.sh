#!/usr/bin/env bash
# End to end, `spindle sls` against a real `spindle rm`: the RM runs examples/sim/sls's
# configuration on a free loopback port; `spindle sls` replays the example's trace (six jobs:
# mapreduce, stream, DAG; six nodes on two racks) at speed 20. Checks: exit 0; every job of
# jobruntime.csv has a start and an end; every job got as many task containers as the trace
# has tasks and ran them all (sls-jobs.csv); the RM saw the trace's host names and finished
# every application; `spindle sim` on the same trace gives the same set of jobs, and --compare
# puts both side by side with a makespan ratio near 1. Then a --timeout-s too short for the
# trace exits 1 and says so. The RM is stopped by PID.
#   sls_test.sh <spindle> <source dir> <work folder>
set -u
spindle=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/daemon_lib.sh"
example="$src/examples/sim/sls"
port=$(freeport)
rm_url="http://127.0.0.1:$port"
mkdir -p "$work/conf"
cp "$example"/*.xml "$work/conf/"
# The example's scheduler configuration, on a loopback port, NM heartbeats as fast as the run's.
sed -i "s|<configuration>|<configuration>\n  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>\n  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>50</value></property>|" \
  "$work/conf/yarn-site.xml"
"$spindle" rm --conf "$work/conf" >"$work/rm.out" 2>"$work/rm.log" &
pids+=($!)
waitfor 20 'grep -q "serving on" "$work/rm.out"' || { echo "FAIL the RM did not start"; tail -5 "$work/rm.log"; exit 1; }

run_sls() {  # run_sls OUT_DIR [options...]: sets $code; output in OUT_DIR.txt
  local out=$1
  shift
  timeout 120 "$spindle" sls --rm "127.0.0.1:$port" --tracetype SLS \
    --tracelocation "$example/jobs.json" --nodes "$example/nodes.json" --conf "$work/conf" \
    --output-dir "$out" "$@" >"$out.txt" 2>&1
  code=$?
  cat "$out.txt"
}

"$spindle" sim --tracetype SLS --tracelocation "$example/jobs.json" --nodes "$example/nodes.json" \
  --conf "$example" --output-dir "$work/sim" -q >/dev/null 2>&1
check "spindle sim runs the trace" '[ -s "$work/sim/jobruntime.csv" ]'

start=$SECONDS
run_sls "$work/sls" --speed 20 --timeout-s 60 --compare "$work/sim"
echo "sls run: $((SECONDS - start)) s"
check "spindle sls exits 0 (got $code)" '[ "$code" = 0 ]'
rt="$work/sls/jobruntime.csv"
check "jobruntime.csv has SLS's header" \
  '[ "$(head -1 "$rt")" = "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time" ]'
check "six jobs, each with a start and an end" \
  '[ "$(awk -F, "NR > 1 && \$4 != \"\" && \$5 != \"\" && \$5 >= \$4" "$rt" | wc -l)" = 6 ]'
check "every job got one container per task and ran them all" \
  '[ "$(awk -F, "NR > 1 && \$3 == \$4 && \$3 == \$5 && \$3 > 0 && \$7 == \"FINISHED\"" "$work/sls/sls-jobs.csv" | wc -l)" = 6 ]'
check "the same jobs as spindle sim" \
  '[ "$(tail -n +2 "$rt" | cut -d, -f1 | sort)" = "$(tail -n +2 "$work/sim/jobruntime.csv" | cut -d, -f1 | sort)" ]'
check "the summary counts 23 task containers" 'grep -q "23 task; the trace has 23 tasks" "$work/sls.txt"'
check "the summary gives heartbeats/s and allocations/s" \
  'grep -q "^heartbeats/s: *[1-9]" "$work/sls.txt" && grep -q "^allocations/s: *[0-9]" "$work/sls.txt"'
ratio=$(sed -n 's/.*ratio sls\/sim \([0-9.]*\).*/\1/p' "$work/sls.txt")
check "--compare: makespan ratio near 1 ($ratio)" "awk 'BEGIN { exit !(${ratio:-0} >= 0.7 && ${ratio:-0} <= 1.5) }'"
check "--compare: a row per job, written to compare.txt" \
  '[ "$(grep -c "^job_" "$work/sls/compare.txt")" = 6 ]'
check "the RM knows the nodes by the trace's host names" \
  'field /nodes "sorted(n[\"nodeHostName\"] for n in d[\"nodes\"][\"node\"])" | grep -q "host1.*host6"'
check "the RM finished six applications" \
  '[ "$(field "/apps?states=FINISHED" "len(d[\"apps\"][\"app\"])")" = 6 ]'

run_sls "$work/short" --speed 1 --timeout-s 2
check "a run longer than --timeout-s exits 1 (got $code)" '[ "$code" = 1 ]'
check "and says it timed out" 'grep -q "error: timed out after 2 s" "$work/short.txt"'

[ "$fails" = 0 ] && echo "sls: all passed" || echo "sls: $fails failed"
exit $((fails > 0))
