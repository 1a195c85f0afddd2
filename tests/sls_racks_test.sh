#!/usr/bin/env bash
# `spindle sls` with the trace's racks in the RM: examples/placement's SLS trace (12 nodes on 3
# racks; a service whose 9 `cache` tasks are limited to 3 per rack by
# `cardinality,rack,cache,0,2`) under the scheduler placement handler, against a real
# `spindle rm` configured with the TableMapping file `spindle sls --write-topology` writes.
# Checks: the table has the 12 nodes on 3 racks; the RM puts each node on its trace rack (REST);
# the run finishes every job with no rack warning; its makespan is within [0.7, 1.4] of
# `spindle sim`'s (without the racks every node is on one rack, the caches run 3 at a time
# instead of 9 and the ratio is about 2.8). Then an RM without the table: the run warns with
# the counts of nodes and racks that differ. RMs are stopped by PID.
#   sls_racks_test.sh <spindle> <source dir> <work folder>
set -u
spindle=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/daemon_lib.sh"
example="$src/examples/placement/sim"
speed=${SLS_RACKS_SPEED:-10}
trace=(--tracetype SLS --tracelocation "$example/trace.json" --nodes "$example/nodes.json")

timeout 30 "$spindle" sls "${trace[@]}" --conf "$example/conf-scheduler" \
  --write-topology "$work/racks.txt" >"$work/write.txt" 2>&1
check "--write-topology exits 0 and says what it wrote" \
  'grep -q "wrote 12 host(s) on 3 rack(s) to $work/racks.txt" "$work/write.txt"'
check "the table maps n01 to /rack0 and n12 to /rack2" \
  'grep -q "^n01 /rack0$" "$work/racks.txt" && grep -q "^n12 /rack2$" "$work/racks.txt"'

# start_rm NAME [PROPERTY=VALUE...]: examples/placement's scheduler configuration on a free
# loopback port, NM heartbeats every 50 ms, plus the properties.
start_rm() {
  local name=$1 p
  shift
  port=$(freeport)
  rm_url="http://127.0.0.1:$port"
  mkdir -p "$work/$name"
  cp "$example/conf-scheduler/"*.xml "$work/$name/"
  local props="<property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>"
  props+="<property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>50</value></property>"
  for p in "$@"; do props+="<property><name>${p%%=*}</name><value>${p#*=}</value></property>"; done
  sed -i "s|<configuration>|<configuration>$props|" "$work/$name/yarn-site.xml"
  "$spindle" rm --conf "$work/$name" >"$work/$name.out" 2>"$work/$name.log" &
  rm_pid=$!
  pids+=("$rm_pid")
  waitfor 20 'grep -q "serving on" "$work/$name.out"'
}

"$spindle" sim "${trace[@]}" --conf "$example/conf-scheduler" --output-dir "$work/sim" -q \
  >/dev/null 2>&1
check "spindle sim runs the trace" '[ -s "$work/sim/jobruntime.csv" ]'

check "an RM with the table starts" \
  'start_rm rm-table net.topology.node.switch.mapping.impl=org.apache.hadoop.net.TableMapping \
     net.topology.table.file.name=$work/racks.txt'
start=$SECONDS
timeout 120 "$spindle" sls --rm "127.0.0.1:$port" "${trace[@]}" --conf "$work/rm-table" \
  --output-dir "$work/sls" --speed "$speed" --timeout-s 90 --compare "$work/sim" \
  >"$work/sls.txt" 2>&1
code=$?
cat "$work/sls.txt"
echo "sls run: $((SECONDS - start)) s at speed $speed"
check "spindle sls exits 0 (got $code)" '[ "$code" = 0 ]'
want="n01:/rack0 n02:/rack0 n03:/rack0 n04:/rack0 n05:/rack1 n06:/rack1 n07:/rack1 n08:/rack1"
want+=" n09:/rack2 n10:/rack2 n11:/rack2 n12:/rack2"
check "the RM put each node on its trace rack" \
  '[ "$(field /nodes "\" \".join(sorted(n[\"nodeHostName\"] + \":\" + n[\"rack\"] for n in d[\"nodes\"][\"node\"]))")" = "$want" ]'
check "no rack warning" '! grep -q "other racks" "$work/sls.txt"'
check "every task ran" \
  '[ "$(awk -F, "NR > 1 && \$3 == \$5 && \$7 == \"FINISHED\"" "$work/sls/sls-jobs.csv" | wc -l)" = 3 ]'
ratio=$(sed -n 's/.*ratio sls\/sim \([0-9.]*\).*/\1/p' "$work/sls.txt")
check "makespan ratio sls/sim within [0.7, 1.4] ($ratio)" \
  "awk 'BEGIN { exit !(${ratio:-0} >= 0.7 && ${ratio:-0} <= 1.4) }'"
kill -TERM "$rm_pid"

check "an RM without a topology mapping starts" 'start_rm rm-plain'
timeout 60 "$spindle" sls --rm "127.0.0.1:$port" "${trace[@]}" --conf "$work/rm-plain" \
  --output-dir "$work/plain" --speed "$speed" --timeout-s 2 >"$work/plain.txt" 2>&1
check "against it sls warns with the counts" \
  'grep -q "the RM puts 12 of the trace.s 12 node(s) (3 of its 3 rack(s)) on other racks" "$work/plain.txt" || { cat "$work/plain.txt"; false; }'
[ "$fails" = 0 ] && echo "sls racks: all passed" || echo "sls racks: $fails failed"
exit $((fails > 0))
