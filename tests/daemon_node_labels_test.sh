#!/usr/bin/env bash
# Node labels from a NodeManager's script (YARN's ScriptBasedNodeLabelsProvider) end to end, a
# real RM (yarn.node-labels.configuration-type=distributed) and NodeManagers on loopback free
# ports: a label the cluster does not know yet is refused, then accepted when the NM resends it
# after resync-interval-ms; a new partition printed by the script reaches the node; a bad one
# keeps the previous; a missing script stops the NM (exit 2) naming the key. Every wait is
# bounded; processes are stopped by PID.
#   daemon_node_labels_test.sh <spindle> <work folder>
set -u
spindle=$1
work=$2
[ -n "$work" ] || exit 2
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/daemon_lib.sh"

port=$(freeport)
rm_url="http://127.0.0.1:$port"
mkdir -p "$work/rm" "$work/nm1" "$work/nm2"
cat >"$work/rm/yarn-site.xml" <<XML
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.node-labels.configuration-type</name><value>distributed</value></property>
</configuration>
XML
echo gpu >"$work/partition"
printf '#!/bin/sh\necho starting\necho "NODE_PARTITION:$(cat %s)"\n' "$work/partition" >"$work/labels.sh"
chmod +x "$work/labels.sh"
# nm_conf N SCRIPT: a NodeManager whose labels come from SCRIPT every 100 ms.
nm_conf() {
  cat >"$work/nm$1/yarn-site.xml" <<XML
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm$1/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm$1/local</value></property>
  <property><name>yarn.nodemanager.node-labels.provider</name><value>script</value></property>
  <property><name>yarn.nodemanager.node-labels.provider.script.path</name><value>$2</value></property>
  <property><name>yarn.nodemanager.node-labels.provider.fetch-interval-ms</name><value>100</value></property>
  <property><name>yarn.nodemanager.node-labels.resync-interval-ms</name><value>500</value></property>
</configuration>
XML
}
node_id() { sed -n 's/^spindle nm: \([^ ]*\) serving on.*/\1/p' "$work/nm$1.log" | tail -1; }
labels_of() { field "/nodes/$1" '",".join(d["node"].get("nodeLabels", []))'; }

nm_conf 1 "$work/labels.sh"
"$spindle" rm --conf "$work/rm" >"$work/rm.log" 2>&1 &
pids+=("$!")
check "the RM answers /info" 'waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"'
"$spindle" nm --conf "$work/nm1" >"$work/nm1.log" 2>&1 &
pids+=("$!")
check "NM1 registers" 'waitfor 10 "[ -n \"\$(node_id 1)\" ] && rest /ws/v1/cluster/nodes | grep -q RUNNING"'
nm1=$(node_id 1)
check "a label the cluster does not know is refused, the node runs" \
  'waitfor 10 "grep -q \"refused the node labels.*not a cluster node label\" $work/nm1.log" &&
   [ -z "$(labels_of "$nm1")" ]'
reply=$(rest /ws/v1/cluster/add-node-labels POST '{"nodeLabelsInfo":{"nodeLabelInfo":[{"name":"gpu"},{"name":"ssd"}]}}')
check "the cluster labels are added" '[ "$(echo "$reply" | head -1)" = 200 ]'
check "the NM resends its label after resync-interval-ms and the RM takes it" \
  'waitfor 10 "[ \"\$(labels_of $nm1)\" = gpu ]"'
echo ssd >"$work/partition"
check "a new partition from the script reaches the node" 'waitfor 10 "[ \"\$(labels_of $nm1)\" = ssd ]"'
echo "no good" >"$work/partition"
check "a bad partition keeps the previous one" \
  'waitfor 10 "grep -q \"node label script: script output line 2: label name\" $work/nm1.log" &&
   [ "$(labels_of "$nm1")" = ssd ]'

nm_conf 2 "$work/missing.sh"
"$spindle" nm --conf "$work/nm2" >"$work/nm2.log" 2>&1
code=$?
check "a missing script stops the NM with exit 2 naming the key" \
  '[ $code = 2 ] && grep -q "yarn.nodemanager.node-labels.provider.script.path: $work/missing.sh does not exist or is not executable" "$work/nm2.log"'
exit $((fails > 0))
