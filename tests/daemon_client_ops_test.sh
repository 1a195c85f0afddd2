#!/usr/bin/env bash
# Run by hand, not from CTest: bash tests/daemon_client_ops_test.sh build/spindle /tmp/co-e2e
# End to end, the client and admin operations: a real ResourceManager (Capacity Scheduler,
# yarn.acl.enable, yarn.admin.acl) and one NodeManager on loopback free ports. Node labels
# through `rmadmin` and REST (admin only, 403 otherwise) reaching the scheduler; refreshQueues
# applying a valid capacity-scheduler.xml and refusing a broken one; an app's priority through
# REST and `application -updatePriority` (capped, MODIFY_APP); `applicationattempt -status`,
# `container -list/-status`; the activities views; XML answers; `top -once`; dshell
# -shell_script. Every wait is bounded; processes are stopped by PID.
#   daemon_client_ops_test.sh <spindle> <work folder>
set -u
spindle=$1
work=$2
rm -rf "$work"
mkdir -p "$work/rm" "$work/nm"
source "$(dirname "$0")/daemon_lib.sh"
# as USER METHOD PATH [BODY]: the status and body of a call by USER.
as() { local sep='?'; [[ $3 == *\?* ]] && sep='&'; rest "$3${sep}user.name=$1" "$2" "${4:-}"; }
xml() {
  python3 - "$rm_url/ws/v1/cluster$1" <<'EOF'
import sys, urllib.request
req = urllib.request.Request(sys.argv[1], headers={"Accept": "application/xml"})
with urllib.request.urlopen(req, timeout=10) as r:
    print(r.headers.get("Content-Type")); print(r.read().decode())
EOF
}

port=$(freeport)
rm_url="http://127.0.0.1:$port"
rmaddr="127.0.0.1:$port"
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)
cat >"$work/rm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.acl.enable</name><value>true</value></property>
  <property><name>yarn.admin.acl</name><value>boss</value></property>
  <property><name>yarn.cluster.max-application-priority</name><value>10</value></property>
</configuration>
EOF
capacity() {
  cat >"$work/rm/capacity-scheduler.xml" <<EOF
<configuration>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>$1</value></property>
  <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>$2</value></property>
  <property><name>yarn.scheduler.capacity.root.acl_submit_applications</name><value> </value></property>
  <property><name>yarn.scheduler.capacity.root.acl_administer_queue</name><value> </value></property>
  <property><name>yarn.scheduler.capacity.root.default.acl_submit_applications</name><value>alice</value></property>
  $3
</configuration>
EOF
}
capacity default 100 ""
cat >"$work/nm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>1024</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm/local</value></property>
  <property><name>yarn.nodemanager.sleep-delay-before-sigkill.ms</name><value>100</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
</configuration>
EOF

"$spindle" rm --conf "$work/rm" >"$work/rm.log" 2>&1 &
rm_pid=$!
pids+=("$rm_pid")
check "the RM answers /info" 'waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"'
"$spindle" nm --conf "$work/nm" >"$work/nm.log" 2>&1 &
pids+=("$!")
check "the NM registers" 'waitfor 10 "[ \$(field /nodes?states=RUNNING \"len(d[\\\"nodes\\\"][\\\"node\\\"])\") = 1 ]"'
node=$(field /nodes 'd["nodes"]["node"][0]["id"]')

# --- Node labels ---
HADOOP_USER_NAME=carol "$spindle" rmadmin --rm "$rmaddr" -addToClusterNodeLabels "gpu" >"$work/labels-carol.out" 2>&1
code=$?
check "rmadmin as a non-admin is refused (exit 1, AccessControlException text)" \
  '[ $code = 1 ] && grep -q "addToClusterNodeLabels: User carol doesn.t have permission" "$work/labels-carol.out"'
reply=$(as carol POST /ws/v1/cluster/add-node-labels '{"nodeLabelsInfo":{"nodeLabelInfo":[{"name":"gpu"}]}}')
check "add-node-labels by a non-admin is 403" '[ "$(echo "$reply" | head -1)" = 403 ]'
HADOOP_USER_NAME=boss "$spindle" rmadmin --rm "$rmaddr" -addToClusterNodeLabels "gpu(exclusive=true),spare(exclusive=false)" >"$work/labels.out" 2>&1
check "rmadmin -addToClusterNodeLabels as the admin succeeds" '[ $? = 0 ]'
check "get-node-labels lists both with their exclusivity" \
  '[ "$(field /get-node-labels "sorted((l[\"name\"], l[\"exclusivity\"]) for l in d[\"nodeLabelsInfo\"][\"nodeLabelInfo\"])")" = "[('"'"'gpu'"'"', True), ('"'"'spare'"'"', False)]" ]'
HADOOP_USER_NAME=boss "$spindle" rmadmin --rm "$rmaddr" -addToClusterNodeLabels "bad(exclusive=maybe)" >"$work/labels-bad.out" 2>&1
code=$?
check "a malformed label spec is refused before any call (exit 2)" \
  '[ $code = 2 ] && grep -q "exclusive=true or exclusive=false" "$work/labels-bad.out"'
HADOOP_USER_NAME=boss "$spindle" rmadmin --rm "$rmaddr" -replaceLabelsOnNode "$node=gpu" >"$work/replace.out" 2>&1
check "rmadmin -replaceLabelsOnNode succeeds" '[ $? = 0 ]'
check "the node is in the gpu partition (node view and get-node-to-labels)" \
  '[ "$(field /nodes/$node "d[\"node\"][\"nodeLabels\"]")" = "['"'"'gpu'"'"']" ] && [ "$(field /get-node-to-labels "d[\"nodeToLabels\"][\"nodeToLabels\"][\"entry\"][0][\"key\"]")" = "$node" ]'
check "label-mappings?labels=gpu names the node" \
  '[ "$(field "/label-mappings?labels=gpu" "d[\"labelsToNodesInfo\"][\"labelsToNodes\"][\"entry\"][0][\"value\"][\"nodes\"][0]")" = "$node" ]'
# The scheduler sees the partition: an app in the default queue cannot start on the node now.
id=$(as alice POST /ws/v1/cluster/apps/new-application | tail -n +2 | python3 -c 'import json,sys; print(json.load(sys.stdin)["application-id"])')
as alice POST /ws/v1/cluster/apps "{\"application-id\": \"$id\", \"queue\": \"default\",
  \"resource\": {\"memory\": 128, \"vCores\": 1},
  \"am-container-spec\": {\"commands\": {\"command\": \"echo \$\$ >> $work/task.pids; exec sleep 30\"}}}" >/dev/null
sleep 1
check "an app in the default partition does not start on the gpu node" \
  '[ "$(field /apps/$id "d[\"app\"][\"state\"]")" = ACCEPTED ] && [ "$(field /apps/$id "d[\"app\"][\"runningContainers\"]")" = 0 ]'
check "its app-activities say why it waits" \
  '[ -n "$(field /scheduler/app-activities/$id "d[\"appActivities\"][\"diagnostic\"]")" ]'
reply=$(as boss POST "/ws/v1/cluster/remove-node-labels?labels=gpu")
check "a label a node carries cannot be removed (400, says why)" \
  '[ "$(echo "$reply" | head -1)" = 400 ] && echo "$reply" | grep -q "carries it"'
reply=$(as boss POST "/ws/v1/cluster/nodes/$node/replace-labels?labels=")
check "nodes/{id}/replace-labels with no label puts it back in the default partition" \
  '[ "$(echo "$reply" | head -1)" = 200 ] && [ "$(field /nodes/$node/get-labels "len(d[\"nodeLabelsInfo\"][\"nodeLabelInfo\"])")" = 0 ]'
HADOOP_USER_NAME=boss "$spindle" rmadmin --rm "$rmaddr" -removeFromClusterNodeLabels "gpu,spare" >"$work/remove.out" 2>&1
check "rmadmin -removeFromClusterNodeLabels succeeds" \
  '[ $? = 0 ] && [ "$(field /get-node-labels "len(d[\"nodeLabelsInfo\"][\"nodeLabelInfo\"])")" = 0 ]'

# --- refreshQueues ---
capacity "default,b" 70 '<property><name>yarn.scheduler.capacity.root.b.capacity</name><value>30</value></property>'
HADOOP_USER_NAME=boss "$spindle" rmadmin --rm "$rmaddr" -refreshQueues >"$work/refresh.out" 2>&1
check "rmadmin -refreshQueues applies a new queue" \
  '[ $? = 0 ] && rest /ws/v1/cluster/scheduler | grep -q "\"queueName\":\"b\""'
capacity "default,b" 70 '<property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>'
HADOOP_USER_NAME=boss "$spindle" rmadmin --rm "$rmaddr" -refreshQueues >"$work/refresh-bad.out" 2>&1
code=$?
check "a broken capacity-scheduler.xml is refused with the error" \
  '[ $code = 1 ] && grep -q "refreshQueues: the new configuration is refused, the old one stays" "$work/refresh-bad.out" && grep -qi "capacit" "$work/refresh-bad.out"'
check "and the old configuration stays (b at 30%)" \
  '[ "$(field /scheduler "round(float([q[\"capacity\"] for q in d[\"scheduler\"][\"schedulerInfo\"][\"queues\"][\"queue\"] if q[\"queueName\"] == \"b\"][0]), 1)")" = 30.0 ]'
HADOOP_USER_NAME=carol "$spindle" rmadmin --rm "$rmaddr" -refreshQueues >"$work/refresh-carol.out" 2>&1
check "refreshQueues by a non-admin is refused" '[ $? = 1 ] && grep -q "refreshQueues: User carol" "$work/refresh-carol.out"'

# --- The app: priority, attempts, containers ---
check "back in the default partition, the app's AM container runs" \
  'waitfor 10 "[ \$(field /apps/$id \"d[\\\"app\\\"][\\\"runningContainers\\\"]\") = 1 ]"'
check "GET priority is 0" '[ "$(field /apps/$id/priority "d[\"priority\"]")" = 0 ]'
reply=$(as alice PUT "/ws/v1/cluster/apps/$id/priority" '{"priority": 4}')
check "PUT priority by the owner answers the new priority" \
  '[ "$(echo "$reply" | head -1)" = 200 ] && echo "$reply" | tail -1 | grep -q "\"priority\":4"'
reply=$(as carol PUT "/ws/v1/cluster/apps/$id/priority" '{"priority": 9}')
check "PUT priority by another user is 403 MODIFY_APP" \
  '[ "$(echo "$reply" | head -1)" = 403 ] && echo "$reply" | grep -q "cannot perform operation MODIFY_APP"'
reply=$(as alice PUT "/ws/v1/cluster/apps/$id/priority" '{"priority": "high"}')
check "a non-integer priority is 400" '[ "$(echo "$reply" | head -1)" = 400 ]'
HADOOP_USER_NAME=alice "$spindle" application --rm "$rmaddr" -updatePriority 7 -appId "$id" >"$work/prio.out" 2>&1
check "application -updatePriority prints YARN's lines" \
  'grep -q "^Updating priority of an application $id" "$work/prio.out" && grep -q "^Successfully updated the application $id with priority .7." "$work/prio.out"'
HADOOP_USER_NAME=alice "$spindle" application --rm "$rmaddr" -updatePriority 50 -appId "$id" >"$work/prio-cap.out" 2>&1
check "a priority above the cluster maximum is capped at 10" \
  'grep -q "to cluster max priority OR keeping old priority" "$work/prio-cap.out" && [ "$(field /apps/$id "d[\"app\"][\"priority\"]")" = 10 ]'

attempt=$(field /apps/$id/appattempts 'd["appAttempts"]["appAttempt"][0]["appAttemptId"]')
"$spindle" applicationattempt --rm "$rmaddr" -status "$attempt" >"$work/attempt.out" 2>&1
check "applicationattempt -status prints the report" \
  'grep -q "^Application Attempt Report :" "$work/attempt.out" && grep -q "ApplicationAttempt-Id : $attempt" "$work/attempt.out" && grep -q "AMContainer : container_" "$work/attempt.out"'
"$spindle" container --rm "$rmaddr" -list "$attempt" >"$work/containers.out" 2>&1
check "container -list shows the AM container RUNNING on the node" \
  'grep -q "^Total number of containers :1" "$work/containers.out" && grep -q "RUNNING" "$work/containers.out" && grep -q "$node" "$work/containers.out"'
"$spindle" container --rm "$rmaddr" -list "$attempt" -states COMPLETE >"$work/containers-complete.out" 2>&1
check "container -list -states COMPLETE shows none" 'grep -q "^Total number of containers :0" "$work/containers-complete.out"'
cid=$(field "/apps/$id/appattempts/$attempt/containers" 'd["containers"]["container"][0]["containerId"]')
"$spindle" container --rm "$rmaddr" -status "$cid" >"$work/container.out" 2>&1
check "container -status prints the report" \
  'grep -q "^Container Report :" "$work/container.out" && grep -q "Container-Id : $cid" "$work/container.out" && grep -q "State : RUNNING" "$work/container.out"'
"$spindle" container --rm "$rmaddr" -status "${cid%1}9" >"$work/container-missing.out" 2>&1
check "an unknown container is reported as YARN does" \
  '[ $? = 1 ] && grep -q "doesn.t exist in RM or Timeline Server" "$work/container-missing.out"'

# --- Activities ---
check "app-activities shows the AM allocation (newest first)" \
  '[ "$(field /scheduler/app-activities/$id "d[\"appActivities\"][\"allocations\"][0][\"allocationState\"]")" = ALLOCATED ]'
check "activities?nodeId= shows the node's last cycle" \
  '[ "$(field "/scheduler/activities?nodeId=$node" "d[\"activities\"][\"nodeId\"]")" = "$node" ]'
big=$(as alice POST /ws/v1/cluster/apps/new-application | tail -n +2 | python3 -c 'import json,sys; print(json.load(sys.stdin)["application-id"])')
as alice POST /ws/v1/cluster/apps "{\"application-id\": \"$big\", \"queue\": \"default\",
  \"resource\": {\"memory\": 2048, \"vCores\": 1},
  \"am-container-spec\": {\"commands\": {\"command\": \"true\"}}}" >/dev/null
check "a pending app's activities say why it waits" \
  'waitfor 5 "[ -n \"\$(field /scheduler/app-activities/$big \"d[\\\"appActivities\\\"][\\\"diagnostic\\\"]\")\" ]"'

# --- XML ---
out=$(xml "/apps/$id")
check "Accept: application/xml answers an <app> document" \
  'echo "$out" | head -1 | grep -q application/xml && echo "$out" | grep -q "^<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><app>" && echo "$out" | grep -q "<id>$id</id>"'
check "the scheduler's type is an xsi:type in XML" 'xml /scheduler | grep -q "xsi:type=\"capacityScheduler\""'
check "lists repeat their element in XML" '[ "$(xml /apps | grep -o "<app>" | wc -l)" = 2 ]'
check "JSON stays the default" 'rest /ws/v1/cluster/apps/$id | tail -1 | grep -q "^{\"app\""'

# --- top ---
"$spindle" top --rm "$rmaddr" -once >"$work/top.out" 2>&1
check "top -once prints YARN top's header and the apps" \
  'grep -q "^YARN top - .* active users, queue(s): root" "$work/top.out" && grep -q "^NodeManager(s): 1 total, 1 active" "$work/top.out" && grep -q "APPLICATIONID" "$work/top.out" && grep -q "$id" "$work/top.out" && grep -q "$big" "$work/top.out"'
"$spindle" top --rm "$rmaddr" -once -rows 1 >"$work/top1.out" 2>&1
check "top -rows 1 shows one app" '[ "$(grep -c "application_" "$work/top1.out")" = 1 ]'

# --- dshell -shell_script ---
as alice PUT "/ws/v1/cluster/apps/$big/state" '{"state":"KILLED"}' >/dev/null
as alice PUT "/ws/v1/cluster/apps/$id/state" '{"state":"KILLED"}' >/dev/null
printf 'echo from-script > %s/script.out\nexit 0\n' "$work" >"$work/job.sh"
HADOOP_USER_NAME=alice timeout 40 "$spindle" dshell --rm "$rmaddr" -shell_script "$work/job.sh" \
  -num_containers 1 -container_memory 64 -master_memory 64 -timeout 30000 >"$work/dshell.out" 2>&1
check "dshell -shell_script runs the script" '[ $? = 0 ] && grep -q from-script "$work/script.out"'
"$spindle" dshell --rm "$rmaddr" -shell_script "$work/job.sh" -shell_command true >"$work/dshell-both.out" 2>&1
check "dshell refuses -shell_script with -shell_command" \
  '[ $? = 2 ] && grep -q "Can not specify shell_command option and shell_script option" "$work/dshell-both.out"'

kill -TERM "$rm_pid"
waitfor 10 '! kill -0 $rm_pid'
exit $((fails > 0))
