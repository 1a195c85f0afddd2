#!/usr/bin/env bash
# Chaos on loopback: a ResourceManager with the SQLite state store and three NodeManagers run
# dshell jobs (each container writes a start marker with its PID and NM port and, when its
# sleep ends normally, an end marker) while a seeded random schedule, for a bounded time,
# kills the RM with SIGKILL and restarts it on the same store, or crashes a node: SIGKILL of
# its NM and of every container process group it launched, then the NM starts again on the
# same port (the same node id). Jobs keep their containers across attempts, so a lost AM
# costs only the containers of the crashed node. At the end every submission is accounted:
#   apps:       submitted (acknowledged), finished SUCCEEDED, finished otherwise, lost
#               (acknowledged and not FINISHED SUCCEEDED, or unknown to the RM);
#   containers: started, ended normally, killed by a node crash (running on the crashed node
#               at its crash), lost (started, not ended normally, not on a crashed node);
# and both lost counts must be zero. Every wait is bounded; processes are stopped by PID.
#   daemon_chaos_test.sh <spindle> <work folder> [seconds of chaos (default 40)] [seed (default 7)]
set -u
spindle=$1
work=$2
chaos_seconds=${3:-40}
RANDOM=${4:-7}
rm -rf "$work"
mkdir -p "$work/markers" "$work/rm"
source "$(dirname "$0")/daemon_lib.sh"

port=$(freeport)
rm_url="http://127.0.0.1:$port"
cat >"$work/rm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.resourcemanager.recovery.enabled</name><value>true</value></property>
  <property><name>yarn.resourcemanager.store.class</name><value>sqlite</value></property>
  <property><name>spindle.resourcemanager.store.sqlite.path</name><value>$work/rm-state.db</value></property>
  <property><name>yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms</name><value>1000</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.nm.liveness-monitor.expiry-interval-ms</name><value>20000</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
</configuration>
EOF
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)
nms=3
declare -a nm_port nm_pid
for n in $(seq 1 $nms); do
  nm_port[$n]=$(freeport)
  mkdir -p "$work/nm$n"
  cat >"$work/nm$n/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:${nm_port[$n]}</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>1024</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm$n/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm$n/local</value></property>
  <property><name>yarn.resourcemanager.connect.retry-interval.ms</name><value>200</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
</configuration>
EOF
done

rm_pid=""
start_rm() {
  "$spindle" rm --conf "$work/rm" >>"$work/rm.log" 2>&1 &
  rm_pid=$!
  pids+=("$rm_pid")
  waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"
}
start_nm() {  # start_nm N
  "$spindle" nm --conf "$work/nm$1" >>"$work/nm$1.log" 2>&1 &
  nm_pid[$1]=$!
  pids+=("$!")
}
nodes_running() { field "/nodes?states=RUNNING" 'len(d["nodes"]["node"]) if d["nodes"] else 0'; }
check "the RM starts with a new SQLite store" 'start_rm'
for n in $(seq 1 $nms); do start_nm "$n"; done
check "$nms NMs register" 'waitfor 15 "[ \$(nodes_running) = $nms ]"'

# Jobs: an AM and 2 containers of 128 MB sleeping 2 s; their containers outlive an AM's loss.
task=$(marker_task 2)
client_pids=()
submit_job() {  # submit_job J
  timeout 200 "$spindle" dshell --rm "127.0.0.1:$port" -shell_command "$task" -num_containers 2 \
    -container_memory 128 -master_memory 128 -keep_containers_across_application_attempts \
    -timeout 180000 >"$work/job$1.out" 2>&1 &
  client_pids+=("$!")
  pids+=("$!")
}

# The chaos: a job every ~1.5 s, a fault every 3-6 s, for $chaos_seconds seconds.
: >"$work/crashed"
rm_kills=0
nm_crashes=0
jobs=0
end=$((SECONDS + chaos_seconds))
next_fault=$((SECONDS + 3 + RANDOM % 4))
while [ $SECONDS -lt $end ] && [ $jobs -lt 40 ]; do
  jobs=$((jobs + 1))
  submit_job $jobs
  sleep 1.5
  [ $SECONDS -lt $next_fault ] && continue
  next_fault=$((SECONDS + 3 + RANDOM % 4))
  if [ $((RANDOM % 2)) = 0 ]; then
    rm_kills=$((rm_kills + 1))
    echo "chaos: kill -9 the RM ($rm_kills)"
    kill -KILL "$rm_pid"
    wait "$rm_pid" 2>/dev/null
    sleep 0.$((RANDOM % 9 + 1))
    start_rm || echo "chaos: the RM did not come back within the wait"
  else
    n=$((RANDOM % nms + 1))
    nm_crashes=$((nm_crashes + 1))
    echo "chaos: crash node $n ($nm_crashes)"
    # What runs there dies with it; the RM learns of it when the NM registers again. The
    # containers counted as killed by the crash are those of that node without an end marker
    # once everything is dead (none can write one after that).
    leaders=$(ps -o pid= --ppid "${nm_pid[$n]}" 2>/dev/null)
    kill -KILL "${nm_pid[$n]}"
    wait "${nm_pid[$n]}" 2>/dev/null
    for p in $leaders; do kill -KILL -- "-$p" 2>/dev/null; done
    running_tasks "${nm_port[$n]}" >>"$work/crashed"
    sleep 0.$((RANDOM % 9 + 1))
    start_nm "$n"
  fi
done
echo "chaos: $jobs jobs started, $rm_kills RM kills, $nm_crashes node crashes in $chaos_seconds s"
check "the chaos killed the RM and crashed nodes" '[ $rm_kills -ge 1 ] && [ $nm_crashes -ge 1 ]'
check "after the chaos $nms NMs run" 'waitfor 20 "[ \$(nodes_running) = $nms ]"'

for p in "${client_pids[@]}"; do waitfor 150 "! kill -0 $p"; done
acked=$(grep -h "^Submitted application" "$work"/job*.out 2>/dev/null | awk '{print $3}' | sort -u)
n_acked=$(echo $acked | wc -w)
states=$(field /apps '"\n".join(a["id"] + " " + a["state"] + " " + a["finalStatus"] for a in d["apps"]["app"])')
succeeded=0
other=0
lost=0
for a in $acked; do
  s=$(echo "$states" | awk -v id="$a" '$1 == id {print $2 " " $3}')
  case $s in
    "FINISHED SUCCEEDED") succeeded=$((succeeded + 1)) ;;
    "") lost=$((lost + 1)); echo "lost app $a: unknown to the RM" ;;
    *) other=$((other + 1)); lost=$((lost + 1)); echo "lost app $a: $s" ;;
  esac
done
started=$(ls "$work"/markers/ | grep -c '^start\.')
ended=$(ls "$work"/markers/ | grep -c '^end\.')
crashed=0
lost_containers=0
for f in "$work"/markers/start.*; do
  [ -e "$f" ] || continue
  c=${f##*/start.}
  [ -e "$work/markers/end.$c" ] && continue
  if grep -qx "$c" "$work/crashed"; then
    crashed=$((crashed + 1))
  else
    lost_containers=$((lost_containers + 1))
    echo "lost container $c"
  fi
done
echo "measure chaos_apps submitted=$n_acked succeeded=$succeeded other=$other lost=$lost (of $jobs clients)"
echo "measure chaos_containers started=$started ended=$ended killed_by_crash=$crashed lost=$lost_containers"
check "apps were submitted and acknowledged through the faults" '[ $n_acked -ge 5 ]'
check "no app is lost: all $n_acked acknowledged apps FINISHED SUCCEEDED" '[ $lost = 0 ]'
check "no container is lost: every container not on a crashed node ended normally" \
  '[ $lost_containers = 0 ] && [ $started -gt 0 ]'
check "the RM recovered containers from the NMs' reports" 'grep -q "recovered a container\|recovered AM container" "$work/rm.log"'
echo "daemon_chaos: $fails failure(s)"
[ $fails = 0 ]
