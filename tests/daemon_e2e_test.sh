#!/usr/bin/env bash
# End to end: a real ResourceManager and two NodeManagers as processes on loopback free ports,
# dshell jobs whose containers run real processes, the CLI and plain HTTP reads of the REST
# API, a malformed protocol message, and a NodeManager killed by PID whose containers the RM
# reports lost (ABORTED, -100) to their AM. Every wait is bounded; processes are stopped by PID.
#   daemon_e2e_test.sh <spindle> <work folder>
set -u
spindle=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/daemon_lib.sh"

port=$(freeport)
rm_url="http://127.0.0.1:$port"
mkdir -p "$work/rm" "$work/nm1" "$work/nm2"
cat >"$work/rm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.nm.liveness-monitor.expiry-interval-ms</name><value>1500</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
</configuration>
EOF
# Containers never run as root unless configured; this test may run as root.
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)
for n in 1 2; do
  mem=$([ $n = 1 ] && echo 256 || echo 1024)
  cat >"$work/nm$n/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>$mem</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm$n/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm$n/local</value></property>
  <property><name>yarn.nodemanager.sleep-delay-before-sigkill.ms</name><value>100</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
  <!-- The AM is this binary: under AddressSanitizer it holds several hundred MB resident, far
       over its 64-128 MB container; memory enforcement is daemon_nm_ops' subject, not this. -->
  <property><name>yarn.nodemanager.pmem-check-enabled</name><value>false</value></property>
</configuration>
EOF
done

"$spindle" rm --conf "$work/rm" >"$work/rm.log" 2>&1 &
rm_pid=$!
pids+=("$rm_pid")
check "the RM answers /info" 'waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"'
"$spindle" nm --conf "$work/nm1" >"$work/nm1.log" 2>&1 &
pids+=("$!")
check "NM1 registers" 'waitfor 10 "[ \$(field /nodes?states=RUNNING \"len(d[\\\"nodes\\\"][\\\"node\\\"])\") = 1 ]"'

# A long job while NM1 is alone: its AM (128 MB) lands on NM1, whose 128 MB left cannot take a
# 200 MB task, so the tasks wait for NM2.
"$spindle" dshell --rm "127.0.0.1:$port" -shell_command "echo \$\$ >> $work/task.pids; exec sleep 60" \
  -num_containers 2 -container_memory 200 -master_memory 128 -timeout 60000 >"$work/long.out" 2>&1 &
long_pid=$!
pids+=("$long_pid")
waitfor 10 'grep -q "Submitted application" "$work/long.out"'
long_app=$(sed -n 's/^Submitted application //p' "$work/long.out")
check "the long job runs its AM" 'waitfor 10 "[ \$(field /apps/$long_app \"d[\\\"app\\\"][\\\"state\\\"]\") = RUNNING ]"'

"$spindle" nm --conf "$work/nm2" >"$work/nm2.log" 2>&1 &
nm2_pid=$!
pids+=("$nm2_pid")
check "the long job's two tasks start on NM2" \
  'waitfor 30 "[ \$(field /apps/$long_app \"d[\\\"app\\\"][\\\"runningContainers\\\"]\") = 3 ] && [ \$(wc -l < $work/task.pids) = 2 ]"'

# A short job: real processes, SUCCEEDED.
timeout 40 "$spindle" dshell --rm "127.0.0.1:$port" -shell_command "echo hello-e2e" -num_containers 2 \
  -container_memory 64 -master_memory 64 -timeout 30000 >"$work/short.out" 2>&1
code=$?
short_app=$(sed -n 's/^Submitted application //p' "$work/short.out")
check "dshell exits 0 when the job SUCCEEDED" '[ $code = 0 ] && grep -q "completed successfully" "$work/short.out"'
check "both containers wrote their stdout" \
  '[ $(cat "$work"/nm*/logs/$short_app/*/stdout 2>/dev/null | grep -c "^hello-e2e$") = 2 ]'
check "REST apps/{id} says FINISHED SUCCEEDED" \
  '[ "$(field /apps/$short_app "d[\"app\"][\"state\"] + \" \" + d[\"app\"][\"finalStatus\"]")" = "FINISHED SUCCEEDED" ]'
"$spindle" application --rm "127.0.0.1:$port" -list -appStates FINISHED >"$work/list.out" 2>&1
check "application -list shows it" 'grep -q "^Total number of applications (application-types: \[\], states: \[FINISHED\] and tags: \[\]):1" "$work/list.out" && grep "$short_app" "$work/list.out" | grep -q SUCCEEDED'
"$spindle" application --rm "127.0.0.1:$port" -status "$short_app" >"$work/status.out" 2>&1
check "application -status reports it" 'grep -q "Final-State : SUCCEEDED" "$work/status.out"'
"$spindle" applicationattempt --rm "127.0.0.1:$port" -list "$short_app" >"$work/attempts.out" 2>&1
check "applicationattempt -list shows one FINISHED attempt" \
  'grep -q "^Total number of application attempts :1" "$work/attempts.out" && grep -q "FINISHED" "$work/attempts.out"'
"$spindle" application --rm "127.0.0.1:$port" -movetoqueue "$long_app" -queue nowhere >"$work/move.out" 2>&1
code=$?
check "moving to an unknown queue is refused" '[ $code = 1 ] && grep -q "nowhere" "$work/move.out"'
"$spindle" queue --rm "127.0.0.1:$port" -status default >"$work/queue.out" 2>&1
check "queue -status reports the default queue" \
  'grep -q "^Queue Name : default" "$work/queue.out" && grep -q "Capacity : 100.0%" "$work/queue.out"'
"$spindle" node --rm "127.0.0.1:$port" -list >"$work/nodes.out" 2>&1
check "node -list shows two RUNNING nodes" 'grep -q "^Total Nodes:2" "$work/nodes.out"'
nm1_id=$(awk 'NR>2 {print $1; exit}' "$work/nodes.out")
"$spindle" node --rm "127.0.0.1:$port" -status "$nm1_id" >"$work/node-status.out" 2>&1
check "node -status reports a node" 'grep -q "Node-State : RUNNING" "$work/node-status.out" && grep -q "Memory-Capacity : " "$work/node-status.out"'
check "a malformed heartbeat is refused with the field named" \
  'rest /rpc/v1/resource-tracker/heartbeat POST "{\"nodeStatus\":{}}" | grep -q "NodeHeartbeatRequest.nodeStatus.nodeId: required field is missing"'
check "an unknown app is 404 in RemoteException shape" \
  '[ "$(rest /ws/v1/cluster/apps/application_1_9999 | tr "\n" " " | cut -c1-3)" = 404 ] && rest /ws/v1/cluster/apps/application_1_9999 | grep -q NotFoundException'

# NM2 dies: after the expiry it is LOST and the RM reports its containers ABORTED (-100) to
# their AM, which runs on NM1.
{
  kill -KILL "$nm2_pid"
  wait "$nm2_pid"
} 2>/dev/null
check "NM2 becomes LOST" 'waitfor 10 "[ \$(field /metrics \"d[\\\"clusterMetrics\\\"][\\\"lostNodes\\\"]\") = 1 ]"'
am_out=$(ls "$work"/nm1/logs/$long_app/*_000001/stdout)
check "the AM was told both tasks were lost (-100)" \
  'waitfor 10 "[ \$(grep -c \"exitStatus=-100\" $am_out) = 2 ]"'
check "the RM logged them ABORTED" 'grep -q "ended ABORTED (-100)" "$work/rm.log"'

"$spindle" application --rm "127.0.0.1:$port" -kill "$long_app" >"$work/kill.out" 2>&1
check "application -kill kills the long job" \
  'grep -q "Killing application $long_app" "$work/kill.out" && waitfor 5 "[ \$(field /apps/$long_app \"d[\\\"app\\\"][\\\"state\\\"]\") = KILLED ]"'
waitfor 10 '! kill -0 $long_pid'
wait "$long_pid"
code=$?
check "the long job's dshell exits 1 (KILLED)" '[ $code = 1 ]'

kill -TERM "$rm_pid"
waitfor 10 '! kill -0 $rm_pid'
wait "$rm_pid"
code=$?
check "SIGTERM stops the RM cleanly" '[ $code = 0 ] && grep -q "spindle rm: stopped" "$work/rm.log"'
exit $((fails > 0))
