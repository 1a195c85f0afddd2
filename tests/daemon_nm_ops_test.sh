#!/usr/bin/env bash
# The node agents' operations end to end, a real RM and NodeManagers on loopback free ports:
# the pmem monitor kills a container that allocates past its memory (-104, YARN's diagnostics,
# told to the AM and in the app's diagnostics); the health script turns a node UNHEALTHY (no
# containers there) and healthy again; utilisation in /nodes; `spindle logs` and the NM's log
# endpoints; decommissioning through the exclude file and `rmadmin -refreshNodes`, graceful
# (the node drains, then its NM exits 0) and forced, and the admin ACL's 403; cgroup v2 when
# the machine has a delegated hierarchy. Every wait is bounded; processes are stopped by PID.
#   daemon_nm_ops_test.sh <spindle> <work folder>
set -u
spindle=$1
work=$2
[ -n "$work" ] || exit 2
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/daemon_lib.sh"

port=$(freeport)
rm_url="http://127.0.0.1:$port"
mkdir -p "$work/rm"
: >"$work/exclude"
cat >"$work/rm/yarn-site.xml" <<XML
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
  <property><name>yarn.resourcemanager.nodes.exclude-path</name><value>$work/exclude</value></property>
  <property><name>yarn.admin.acl</name><value>admin</value></property>
</configuration>
XML
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)
# nm_conf N MEMORY [extra properties]: the health script prints what $work/nmN.health holds.
nm_conf() {
  mkdir -p "$work/nm$1"
  : >"$work/nm$1.health"
  printf '#!/bin/sh\ncat %s\n' "$work/nm$1.health" >"$work/nm$1/health.sh"
  chmod +x "$work/nm$1/health.sh"
  cat >"$work/nm$1/yarn-site.xml" <<XML
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>$2</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm$1/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm$1/local</value></property>
  <property><name>yarn.nodemanager.sleep-delay-before-sigkill.ms</name><value>100</value></property>
  <property><name>yarn.nodemanager.container-monitor.interval-ms</name><value>200</value></property>
  <property><name>yarn.nodemanager.health-checker.script.path</name><value>$work/nm$1/health.sh</value></property>
  <property><name>yarn.nodemanager.health-checker.interval-ms</name><value>200</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
  ${3:-}
</configuration>
XML
}
start_nm() { "$spindle" nm --conf "$work/nm$1" >>"$work/nm$1.log" 2>&1 & }
node_id() { sed -n 's/^spindle nm: \([^ ]*\) serving on.*/\1/p' "$work/nm$1.log" | tail -1; }
node_field() { field "/nodes/$1" "d[\"node\"]$2"; }
# nm_get URL: the HTTP status, then the body, of a GET to a NodeManager.
nm_get() {
  python3 - "$1" <<'PY'
import sys, urllib.request, urllib.error
try:
    with urllib.request.urlopen(sys.argv[1], timeout=10) as r:
        print(r.status); print(r.read().decode(), end="")
except urllib.error.HTTPError as e:
    print(e.code); print(e.read().decode(), end="")
PY
}
nm_conf 1 1024
nm_conf 2 1024

"$spindle" rm --conf "$work/rm" >"$work/rm.log" 2>&1 &
pids+=("$!")
check "the RM answers /info" 'waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"'
start_nm 1
nm1_pid=$!
pids+=("$nm1_pid")
start_nm 2
nm2_pid=$!
pids+=("$nm2_pid")
check "two NMs register" 'waitfor 10 "[ \$(field /nodes?states=RUNNING \"len(d[\\\"nodes\\\"][\\\"node\\\"])\") = 2 ]"'
nm1=$(node_id 1)
nm2=$(node_id 2)

# --- pmem: a container allocating 300 MB in 128 MB is killed with -104 ---------------------
timeout 60 "$spindle" dshell --rm "127.0.0.1:$port" \
  -shell_command "python3 -c 'import time; a = b\"x\" * (300 << 20); time.sleep(30)'" \
  -num_containers 1 -container_memory 128 -master_memory 128 -timeout 40000 >"$work/pmem.out" 2>&1
code=$?
pmem_app=$(sed -n 's/^Submitted application //p' "$work/pmem.out")
check "dshell exits 1 when the monitor killed its container" '[ $code = 1 ]'
check "the AM was told -104 with YARN's diagnostics" \
  'grep -h "exitStatus=-104" "$work"/nm*/logs/$pmem_app/*_000001/stdout | grep -q "is running [0-9]*B beyond the .PHYSICAL. memory limit. Current usage: [0-9.]* MB of 128 MB physical memory used"'
check "the app's diagnostics say why" \
  'field /apps/$pmem_app "d[\"app\"][\"diagnostics\"]" | grep -q "beyond the .PHYSICAL. memory limit"'
check "the NM logged the kill" 'grep -q "beyond the .PHYSICAL. memory limit" "$work"/nm*.log'

# --- utilisation --------------------------------------------------------------------------
check "/nodes shows resourceUtilization measured by the NM" \
  'waitfor 5 "[ \$(node_field $nm1 \"[\\\"resourceUtilization\\\"][\\\"nodePhysicalMemoryMB\\\"]\") -gt 0 ]"'
"$spindle" node --rm "127.0.0.1:$port" -status "$nm1" >"$work/status1.out" 2>&1
check "node -status prints the node's utilisation" \
  'grep -q "Resource Utilization by Node : PMem:[1-9][0-9]* MB" "$work/status1.out"'

# --- health: NM1 turns UNHEALTHY, gets no containers, then recovers ------------------------
echo "ERROR local disk is gone" >"$work/nm1.health"
check "NM1 becomes UNHEALTHY with the script's report" \
  'waitfor 5 "[ \"\$(node_field $nm1 \"[\\\"state\\\"]\")\" = UNHEALTHY ]" && [ "$(node_field $nm1 "[\"healthReport\"]")" = "ERROR local disk is gone" ]'
"$spindle" node --rm "127.0.0.1:$port" -list -all >"$work/list-all.out" 2>&1
check "node -list -all shows it UNHEALTHY" 'grep "$nm1" "$work/list-all.out" | grep -q UNHEALTHY'
"$spindle" node --rm "127.0.0.1:$port" -status "$nm1" >"$work/status-unhealthy.out" 2>&1
check "node -status shows the health report" \
  'grep -q "Health-Report : ERROR local disk is gone" "$work/status-unhealthy.out"'
timeout 90 "$spindle" dshell --rm "127.0.0.1:$port" -shell_command "echo hello-logs" \
  -num_containers 2 -container_memory 64 -master_memory 64 -timeout 80000 >"$work/healthy.out" 2>&1
code=$?
logs_app=$(sed -n 's/^Submitted application //p' "$work/healthy.out")
check "a job runs while NM1 is unhealthy" '[ $code = 0 ]'
check "none of its containers ran on the unhealthy NM1" \
  '[ ! -d "$work/nm1/logs/$logs_app" ] && [ $(ls "$work/nm2/logs/$logs_app" | wc -l) = 3 ]'
: >"$work/nm1.health"
check "NM1 is RUNNING again once the script is quiet" \
  'waitfor 5 "[ \"\$(node_field $nm1 \"[\\\"state\\\"]\")\" = RUNNING ]"'

# --- logs ---------------------------------------------------------------------------------
"$spindle" logs --rm "127.0.0.1:$port" -applicationId "$logs_app" -log_files stdout >"$work/logs.out" 2>&1
code=$?
task=$(ls "$work/nm2/logs/$logs_app" | sort | sed -n 2p)
check "logs prints every container's stdout with YARN's headers" \
  '[ $code = 0 ] && [ $(grep -c "^LogType:stdout$" "$work/logs.out") = 3 ] && grep -q "^Container: $task on $nm2$" "$work/logs.out" && grep -q "^LogContents:$" "$work/logs.out" && [ $(grep -c "^hello-logs$" "$work/logs.out") = 2 ] && grep -q "^End of LogType:stdout\." "$work/logs.out" && grep -q "^LogLength:11$" "$work/logs.out"'
"$spindle" logs --rm "127.0.0.1:$port" -applicationId "$logs_app" -containerId "$task" >"$work/logs1.out" 2>&1
check "logs -containerId prints that container's files only" \
  '[ $(grep -c "^Container: " "$work/logs1.out") = 2 ] && [ $(grep -c "^Container: $task on" "$work/logs1.out") = 2 ] && grep -q "^LogType:stderr$" "$work/logs1.out"'
"$spindle" logs --rm "127.0.0.1:$port" -applicationId application_1_9999 >"$work/logs-bad.out" 2>&1
code=$?
check "logs of an unknown app exits 1 naming it" '[ $code = 1 ] && grep -q "application_1_9999" "$work/logs-bad.out"'
nm2_url="http://$nm2"
check "the NM serves a log file as text" \
  '[ "$(nm_get "$nm2_url/ws/v1/node/containerlogs/$task/stdout" | tr "\n" " ")" = "200 hello-logs " ]'
check "the NM lists the app's containers" \
  'nm_get "$nm2_url/ws/v1/node/apps/$logs_app" | grep -q "\"containerids\":\[\"container_"'
check "the NM refuses a path in a log name (400)" \
  '[ "$(nm_get "$nm2_url/ws/v1/node/containerlogs/$task/.." | head -1)" = 400 ]'
check "the NM answers 404 for an unknown container" \
  '[ "$(nm_get "$nm2_url/ws/v1/node/containers/container_1_0009_01_000001" 2>/dev/null | head -1)" = 404 ]'

# --- refreshNodes is an admin call ----------------------------------------------------------
check "refresh-nodes by a non-admin is 403 with YARN's message" \
  'rest "/ws/v1/cluster/admin/refresh-nodes?user.name=carol" POST "{}" | tr "\n" " " | grep -q "^403 .*User carol doesn.t have permission to call .refreshNodes."'
check "a bad decommissionType is 400 naming the field" \
  'rest "/ws/v1/cluster/admin/refresh-nodes?user.name=admin" POST "{\"decommissionType\":\"SOFT\"}" | tr "\n" " " | grep -q "^400 .*RefreshNodesRequest.decommissionType"'
HADOOP_USER_NAME=carol "$spindle" rmadmin --rm "127.0.0.1:$port" -refreshNodes >"$work/carol.out" 2>&1
code=$?
check "rmadmin -refreshNodes as carol exits 1 with the reason" '[ $code = 1 ] && grep -q "permission to call" "$work/carol.out"'

# --- graceful: NM2 drains its running container, then is DECOMMISSIONED and exits 0 -------
"$spindle" dshell --rm "127.0.0.1:$port" -shell_command "exec sleep 8" -num_containers 2 \
  -container_memory 700 -master_memory 128 -timeout 40000 >"$work/drain.out" 2>&1 &
drain_pid=$!
pids+=("$drain_pid")
waitfor 10 'grep -q "Submitted application" "$work/drain.out"'
drain_app=$(sed -n 's/^Submitted application //p' "$work/drain.out")
check "the draining job runs a container on each node" \
  'waitfor 15 "[ \$(cat $work/nm*/logs/$drain_app/*_000001/stdout 2>/dev/null | grep -c \"Launching shell command\") = 2 ]" && grep -q "containerNode=$nm2" "$work"/nm*/logs/$drain_app/*_000001/stdout'
echo "$nm2" >"$work/exclude"
HADOOP_USER_NAME=admin "$spindle" rmadmin --rm "127.0.0.1:$port" -refreshNodes -g 30 -server >"$work/graceful.out" 2>&1
code=$?
check "rmadmin -refreshNodes -g 30 -server succeeds" '[ $code = 0 ]'
check "NM2 is DECOMMISSIONING while its container runs" \
  '[ "$(node_field $nm2 "[\"state\"]")" = DECOMMISSIONING ]'
waitfor 30 '! kill -0 $drain_pid'
wait "$drain_pid"
code=$?
check "the draining job SUCCEEDED (its container was not killed)" '[ $code = 0 ]'
check "NM2 is DECOMMISSIONED once drained" 'waitfor 10 "[ \"\$(node_field $nm2 \"[\\\"state\\\"]\")\" = DECOMMISSIONED ]"'
waitfor 10 '! kill -0 $nm2_pid'
wait "$nm2_pid"
code=$?
check "NM2 exited 0 with the RM's message" \
  '[ $code = 0 ] && grep -q "SHUTDOWN from the ResourceManager: DECOMMISSIONING $nm2 is ready to be decommissioned" "$work/nm2.log"'
check "/metrics counts it" '[ $(field /metrics "d[\"clusterMetrics\"][\"decommissionedNodes\"]") = 1 ]'

# --- forced, client-tracked: NM3 runs a long container; -g 1 -client forces it -------------
# The long job starts while NM1 is the only node, so its AM runs there; its second task waits
# for NM3.
"$spindle" dshell --rm "127.0.0.1:$port" -shell_command "echo \$\$ >> $work/task.pids; exec sleep 60" \
  -num_containers 2 -container_memory 700 -master_memory 128 -timeout 60000 >"$work/long.out" 2>&1 &
long_pid=$!
pids+=("$long_pid")
waitfor 10 'grep -q "Submitted application" "$work/long.out"'
long_app=$(sed -n 's/^Submitted application //p' "$work/long.out")
check "the long job runs its AM and a task on NM1" \
  'waitfor 15 "[ \$(node_field $nm1 \"[\\\"numContainers\\\"]\") = 2 ]"'
nm_conf 3 1024
start_nm 3
nm3_pid=$!
pids+=("$nm3_pid")
check "NM3 registers" 'waitfor 10 "[ -n \"\$(node_id 3)\" ] && [ \"\$(node_field \$(node_id 3) \"[\\\"state\\\"]\")\" = RUNNING ]"'
nm3=$(node_id 3)
check "the long job's second task runs on NM3" 'waitfor 15 "[ \$(node_field $nm3 \"[\\\"numContainers\\\"]\") = 1 ]"'
printf '%s\n%s\n' "$nm2" "$nm3" >"$work/exclude"
HADOOP_USER_NAME=admin timeout 40 "$spindle" rmadmin --rm "127.0.0.1:$port" -refreshNodes -g 1 -client >"$work/client.out" 2>&1
code=$?
check "-g 1 -client waits, then decommissions forcefully" \
  '[ $code = 0 ] && grep -q "Graceful decommissioning not completed in 1 seconds." "$work/client.out" && grep -q "Forcefully decommissioning remaining nodes." "$work/client.out"'
check "NM3 is DECOMMISSIONED" '[ "$(node_field $nm3 "[\"state\"]")" = DECOMMISSIONED ]'
waitfor 10 '! kill -0 $nm3_pid'
wait "$nm3_pid"
code=$?
# The RM's own 1 s timeout or the client's FORCEFUL refresh, whichever comes first.
check "NM3 exited 0" '[ $code = 0 ] && grep -q "stopping: SHUTDOWN from the ResourceManager: D" "$work/nm3.log"'
check "its AM was told its task was lost (-100)" \
  'waitfor 10 "grep -q \"exitStatus=-100\" $work/nm1/logs/$long_app/*_000001/stdout"'
# Again on the same port, so the node id is the excluded one.
sed -i "s|<value>127.0.0.1:0</value>|<value>$nm3</value>|" "$work/nm3/yarn-site.xml"
start_nm 3
nm3b_pid=$!
pids+=("$nm3b_pid")
waitfor 10 '! kill -0 $nm3b_pid'
wait "$nm3b_pid"
code=$?
check "an excluded NM is refused at registration and exits 0" \
  '[ $code = 0 ] && grep -q "Disallowed NodeManager from  127.0.0.1" "$work/nm3.log"'
kill -TERM "$long_pid" 2>/dev/null

# --- forced (NORMAL): NM4 is decommissioned at once ----------------------------------------
nm_conf 4 512
start_nm 4
nm4_pid=$!
pids+=("$nm4_pid")
check "NM4 registers" 'waitfor 10 "[ -n \"\$(node_id 4)\" ] && [ \"\$(node_field \$(node_id 4) \"[\\\"state\\\"]\")\" = RUNNING ]"'
nm4=$(node_id 4)
echo "$nm4" >>"$work/exclude"
HADOOP_USER_NAME=admin "$spindle" rmadmin --rm "127.0.0.1:$port" -refreshNodes >"$work/forced.out" 2>&1
check "rmadmin -refreshNodes decommissions NM4 at once" '[ "$(node_field $nm4 "[\"state\"]")" = DECOMMISSIONED ]'
waitfor 10 '! kill -0 $nm4_pid'
wait "$nm4_pid"
code=$?
check "NM4 exited 0" '[ $code = 0 ]'
"$spindle" node --rm "127.0.0.1:$port" -list -states DECOMMISSIONED >"$work/decom.out" 2>&1
check "node -list -states DECOMMISSIONED lists three nodes" 'grep -q "^Total Nodes:3" "$work/decom.out"'

# --- cgroup v2, where the machine delegates a hierarchy -------------------------------------
cg_parent=/sys/fs/cgroup
if [ "$(stat -fc %T $cg_parent 2>/dev/null)" = cgroup2fs ] && [ -w "$cg_parent" ] &&
  grep -qw memory "$cg_parent/cgroup.controllers" 2>/dev/null &&
  mkdir "$cg_parent/spindle-test-$$" 2>/dev/null; then
  cg="$cg_parent/spindle-test-$$"
  nm_conf 5 1024 "<property><name>spindle.nodemanager.cgroups.root</name><value>$cg</value></property>
  <property><name>yarn.nodemanager.pmem-check-enabled</name><value>false</value></property>"
  echo "ERROR not this one" >"$work/nm1.health"  # the job goes to NM5
  start_nm 5
  nm5_pid=$!
  pids+=("$nm5_pid")
  check "cgroup v2: the NM puts containers in cgroups" \
    'waitfor 10 "grep -q \"containers run in cgroups\" $work/nm5.log"'
  timeout 60 "$spindle" dshell --rm "127.0.0.1:$port" \
    -shell_command "python3 -c 'import time; a = b\"x\" * (300 << 20); time.sleep(30)'" \
    -num_containers 1 -container_memory 128 -master_memory 128 -timeout 40000 >"$work/cg.out" 2>&1
  cg_app=$(sed -n 's/^Submitted application //p' "$work/cg.out")
  check "cgroup v2: the kernel's OOM kill is reported -104" \
    'grep -h "exitStatus=-104" "$work"/nm*/logs/$cg_app/*_000001/stdout | grep -q "memory.max"'
  kill -TERM "$nm5_pid"
  waitfor 10 '! kill -0 $nm5_pid'
  rmdir "$cg"/container_* "$cg" 2>/dev/null
else
  echo "skip cgroup v2: $cg_parent is not a writable cgroup v2 hierarchy with the memory" \
    "controller here ($(stat -fc %T $cg_parent 2>/dev/null)); the monitor path was tested above"
fi
exit $((fails > 0))
