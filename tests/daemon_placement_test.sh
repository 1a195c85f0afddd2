#!/usr/bin/env bash
# End to end, placement constraints and node attributes in the daemons: a ResourceManager with
# the placement-processor handler and three NodeManagers on 127.0.0.1 (free ports, so three
# nodes of one host) reporting distributed attributes (two from yarn-site.xml, one from a script
# whose output changes at run time). The admin sets centralised attributes with the CLI (a
# non-admin gets 403); they apply to every NodeManager of the host, as in YARN. dshell
# -placement_spec puts anti-affine containers on distinct nodes and attribute-constrained ones on
# the matching node only, an unsatisfiable constraint comes back to the AM as rejections, and a
# second RM with the default `disabled` handler refuses the AM's constraints and
# SchedulingRequests. Every wait is bounded; processes are stopped by PID. (Per-host admin
# attributes across several hosts are covered by the RmCore unit tests: daemons in tests bind to
# 127.0.0.1 only.)
#   daemon_placement_test.sh <spindle> <work folder>
set -u
spindle=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/daemon_lib.sh"
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)

# rm_conf DIR PORT HANDLER
rm_conf() {
  mkdir -p "$1"
  cat >"$1/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$2</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
  <property><name>yarn.acl.enable</name><value>true</value></property>
  <property><name>yarn.admin.acl</name><value>boss</value></property>
  <property><name>yarn.resourcemanager.placement-constraints.handler</name><value>$3</value></property>
</configuration>
EOF
}
# nm_conf DIR RM_PORT HOST EXTRA_PROPERTIES
nm_conf() {
  mkdir -p "$1"
  cat >"$1/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$2</value></property>
  <property><name>yarn.nodemanager.hostname</name><value>$3</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>$3:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>1024</value></property>
  <!-- AMs are this binary: under AddressSanitizer they exceed small containers. -->
  <property><name>yarn.nodemanager.pmem-check-enabled</name><value>false</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$1/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$1/local</value></property>
  <property><name>yarn.nodemanager.sleep-delay-before-sigkill.ms</name><value>100</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
  $4
</configuration>
EOF
}
attrs() { echo "<property><name>yarn.nodemanager.node-attributes.provider$1</name><value>$2</value></property>"; }
# dshell_run NAME ARGS...: runs a dshell job (output in $work/NAME.out), sets $code and $app.
dshell_run() {
  local name=$1
  shift
  timeout 60 "$spindle" dshell --rm "127.0.0.1:$port" -shell_command true -container_memory 64 \
    -master_memory 64 -timeout 45000 "$@" >"$work/$name.out" 2>&1
  code=$?
  app=$(sed -n 's/^Submitted application //p' "$work/$name.out")
}
# The nodes (host:port) the job's containers ran on (from its AM's log), one line each.
container_hosts() {
  cat "$work"/nm*/logs/$1/*_000001/stdout 2>/dev/null | sed -n 's/.*containerNode=\([^:]*:[0-9]*\).*/\1/p'
}

port=$(freeport)
rm_url="http://127.0.0.1:$port"
rm_conf "$work/rm" "$port" placement-processor
nm_conf "$work/nm1" "$port" 127.0.0.1 "$(attrs "" config) $(attrs .configured-node-attributes os,STRING,linux:disk,STRING,ssd)"
nm_conf "$work/nm2" "$port" 127.0.0.1 "$(attrs "" config) $(attrs .configured-node-attributes os,STRING,linux)"
printf '#!/bin/sh\ncat %s\n' "$work/nm3/attrs.txt" >"$work/attrs.sh"
chmod +x "$work/attrs.sh"
mkdir -p "$work/nm3"
printf 'starting\nNODE_ATTRIBUTE:os,STRING,bsd\n' >"$work/nm3/attrs.txt"
nm_conf "$work/nm3" "$port" 127.0.0.1 "$(attrs "" script) $(attrs .script.path "$work/attrs.sh") $(attrs .fetch-interval-ms 300)"

"$spindle" rm --conf "$work/rm" >"$work/rm.log" 2>&1 &
rm_pid=$!
pids+=("$rm_pid")
check "the RM answers /info" 'waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"'
for n in 1 2 3; do
  "$spindle" nm --conf "$work/nm$n" >"$work/nm$n.log" 2>&1 &
  pids+=("$!")
done
check "three NMs register" 'waitfor 15 "[ \$(field /nodes?states=RUNNING \"len(d[\\\"nodes\\\"][\\\"node\\\"])\") = 3 ]"'
# node id -> "prefix/name=value ..." from the nodes view.
node_attrs() {
  field /nodes "' '.join(sorted(a['prefix']+'/'+a['name']+'='+a['value'] for n in d['nodes']['node'] if n['id']=='$1' for a in n['nodeAttributesInfo']['nodeAttributeInfo']))"
}
# The id of the node whose distributed attribute $1 (name=value) is set.
node_with() {
  field /nodes "[n['id'] for n in d['nodes']['node'] if any(a['prefix']+'/'+a['name']+'='+a['value']=='$1' for a in n['nodeAttributesInfo']['nodeAttributeInfo'])][0]"
}
waitfor 10 '[ -n "$(node_with nm.yarn.io/os=bsd)" ]'
ssd=$(node_with nm.yarn.io/disk=ssd)
bsd=$(node_with nm.yarn.io/os=bsd)
plain=$(field /nodes "[n['id'] for n in d['nodes']['node'] if n['id'] not in ('$ssd','$bsd')][0]")
check "the NMs' distributed attributes are in /nodes" \
  '[ "$(node_attrs $ssd)" = "nm.yarn.io/disk=ssd nm.yarn.io/os=linux" ] && [ "$(node_attrs $bsd)" = "nm.yarn.io/os=bsd" ] && [ "$(node_attrs $plain)" = "nm.yarn.io/os=linux" ]'

# Centralised attributes: admin only (yarn.admin.acl = boss), by host.
HADOOP_USER_NAME=carol "$spindle" nodeattributes --rm "127.0.0.1:$port" -add "127.0.0.1:java=1.8" >"$work/carol.out" 2>&1
code=$?
check "a non-admin's nodeattributes -add is refused" \
  '[ $code = 1 ] && grep -q "User carol doesn'"'"'t have permission to call '"'"'mapAttributesToNodes'"'"'" "$work/carol.out"'
check "the refusal is 403 AccessControlException over REST" \
  '[ "$(rest "/ws/v1/cluster/node-attributes/mapping?user.name=carol" POST "{\"operation\":\"ADD\",\"nodesToAttributes\":[{\"node\":\"127.0.0.1\",\"nodeAttributes\":[{\"attributeKey\":{\"attributePrefix\":\"rm.yarn.io\",\"attributeName\":\"java\"},\"attributeValue\":\"1.8\"}]}]}" | sed -n 1p)" = 403 ]'
HADOOP_USER_NAME=boss "$spindle" nodeattributes --rm "127.0.0.1:$port" -add "127.0.0.1:java(STRING)=1.8,gpu" >"$work/add.out" 2>&1
check "the admin's nodeattributes -add succeeds" '[ $? = 0 ]'
check "the centralised attributes are in /nodes beside the distributed ones, on every NM of the host" \
  '[ "$(node_attrs $plain)" = "nm.yarn.io/os=linux rm.yarn.io/gpu= rm.yarn.io/java=1.8" ] && [ "$(node_attrs $bsd)" = "nm.yarn.io/os=bsd rm.yarn.io/gpu= rm.yarn.io/java=1.8" ]'
HADOOP_USER_NAME=boss "$spindle" nodeattributes --rm "127.0.0.1:$port" -remove "127.0.0.1:nothere" >"$work/remove-bad.out" 2>&1
code=$?
check "removing an attribute a host lacks fails and names it" \
  '[ $code = 1 ] && grep -q "node '"'"'127.0.0.1'"'"' has no attribute rm.yarn.io/nothere to remove" "$work/remove-bad.out"'
HADOOP_USER_NAME=boss "$spindle" nodeattributes --rm "127.0.0.1:$port" -add "10.9.9.9:java=1.8" -failOnUnknownNodes >"$work/unknown.out" 2>&1
code=$?
check "-failOnUnknownNodes refuses a host without a NodeManager" \
  '[ $code = 1 ] && grep -q "Following nodes does not exist : \[10.9.9.9\]" "$work/unknown.out"'
HADOOP_USER_NAME=boss "$spindle" nodeattributes --rm "127.0.0.1:$port" -add "127.0.0.1:bad name" >"$work/bad.out" 2>&1
check "a malformed attribute is refused and nothing changes" \
  '[ $? != 0 ] && [ "$(node_attrs $plain)" = "nm.yarn.io/os=linux rm.yarn.io/gpu= rm.yarn.io/java=1.8" ]'

"$spindle" nodeattributes --rm "127.0.0.1:$port" -list >"$work/list.out" 2>&1
check "nodeattributes -list shows every key" \
  '[ $(grep -c "STRING" "$work/list.out") = 4 ] && grep -q "rm.yarn.io/java" "$work/list.out" && grep -q "nm.yarn.io/disk" "$work/list.out"'
"$spindle" nodeattributes --rm "127.0.0.1:$port" -attributestonodes -attributes rm.yarn.io/java >"$work/a2n.out" 2>&1
check "nodeattributes -attributestonodes lists the hosts of java" \
  'grep -q "^rm.yarn.io/java :" "$work/a2n.out" && grep -Eq "127.0.0.1[[:space:]]+1.8" "$work/a2n.out"'
"$spindle" nodeattributes --rm "127.0.0.1:$port" -nodestoattributes -nodes 127.0.0.1 >"$work/n2a.out" 2>&1
check "nodeattributes -nodestoattributes lists a host's attributes" \
  'grep -q "^127.0.0.1:" "$work/n2a.out" && grep -Eq "rm.yarn.io/java[[:space:]]+STRING[[:space:]]+1.8" "$work/n2a.out"'
"$spindle" cluster --rm "127.0.0.1:$port" -lna >"$work/lna.out" 2>&1
check "cluster -lna lists the attributes" 'grep -q "^rm.yarn.io/gpu(STRING)$" "$work/lna.out"'
"$spindle" node --rm "127.0.0.1:$port" -status "$plain" >"$work/node-status.out" 2>&1
check "node -status prints the node's attributes" \
  'grep -q "Node Attributes : Prefix-nm.yarn.io :Name-os:Value-linux:Type-STRING" "$work/node-status.out" && grep -q "Prefix-rm.yarn.io :Name-java:Value-1.8:Type-STRING" "$work/node-status.out"'

# Anti-affinity: three zk containers, at most one per node (YARN 3.1's spec form).
dshell_run anti -placement_spec "zk=3,NOTIN,NODE,zk"
check "dshell -placement_spec zk=3,NOTIN,NODE,zk succeeds" '[ $code = 0 ]'
check "its three containers ran on three distinct nodes" \
  '[ $(container_hosts $app | wc -l) = 3 ] && [ $(container_hosts $app | sort -u | wc -l) = 3 ]'
# Attribute constraints: distributed (disk=ssd on one node, os=bsd on another), centralised
# (java: the admin's value on every node of the host, then replaced).
dshell_run ssd -placement_spec "w(3),nm.yarn.io/disk=ssd"
check "containers with nm.yarn.io/disk=ssd all ran on the ssd node" \
  '[ $code = 0 ] && [ "$(container_hosts $app | sort | uniq -c | tr -s " ")" = " 3 $ssd" ]'
dshell_run bsd -placement_spec "nm.yarn.io/os=bsd" -num_containers 2
check "containers with nm.yarn.io/os=bsd (a lone attribute expression) ran on the bsd node" \
  '[ $code = 0 ] && [ "$(container_hosts $app | sort | uniq -c | tr -s " ")" = " 2 $bsd" ]'
dshell_run java18 -placement_spec "w(2),rm.yarn.io/java=1.8"
check "containers with the admin's rm.yarn.io/java=1.8 run" '[ $code = 0 ] && [ $(container_hosts $app | wc -l) = 2 ]'
dshell_run java11 -placement_spec "java=11" -num_containers 1
check "no node has java=11 yet: rejected back to the AM" '[ $code = 1 ] && grep -q "Exiting, since retries are exhausted" "$work/java11.out"'
HADOOP_USER_NAME=boss "$spindle" nodeattributes --rm "127.0.0.1:$port" -replace "127.0.0.1:java=11" >"$work/replace.out" 2>&1
check "the admin's -replace leaves only java=11" '[ $? = 0 ] && [ "$(node_attrs $plain)" = "nm.yarn.io/os=linux rm.yarn.io/java=11" ]'
dshell_run java11b -placement_spec "java=11" -num_containers 1
check "after the replace, java=11 (no prefix: rm.yarn.io) runs" '[ $code = 0 ] && [ $(container_hosts $app | wc -l) = 1 ]'
# The script's output changes: the NM reports it in a heartbeat, the RM applies it.
printf 'NODE_ATTRIBUTE:os,STRING,solaris\n' >"$work/nm3/attrs.txt"
check "a changed script attribute reaches the RM" 'waitfor 10 "[ \"\$(node_attrs $bsd)\" = \"nm.yarn.io/os=solaris rm.yarn.io/java=11\" ]"'
# Nothing has os=bsd any more: the placement processor rejects the requests, the AM retries and
# gives up, the app fails with the reason.
dshell_run none -placement_spec "nm.yarn.io/os=bsd" -num_containers 1
check "an unsatisfiable constraint is rejected back to the AM" \
  '[ $code = 1 ] && grep -q "Exiting, since retries are exhausted" "$work/none.out" && grep -q "rejected (COULD_NOT_PLACE_ON_NODE)" "$work/rm.log"'

# A second RM with the default handler (disabled) refuses the AM's constraints and requests.
port2=$(freeport)
rm_conf "$work/rm2" "$port2" disabled
nm_conf "$work/nm4" "$port2" 127.0.0.1 ""
"$spindle" rm --conf "$work/rm2" >"$work/rm2.log" 2>&1 &
pids+=("$!")
port=$port2
rm_url="http://127.0.0.1:$port2"
waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"
"$spindle" nm --conf "$work/nm4" >"$work/nm4.log" 2>&1 &
pids+=("$!")
check "the second RM has its NM" 'waitfor 15 "[ \$(field /nodes?states=RUNNING \"len(d[\\\"nodes\\\"][\\\"node\\\"])\") = 1 ]"'
dshell_run disabled -placement_spec "zk(2),NOTIN,NODE,zk"
check "with the disabled handler the AM's registration with constraints is refused" \
  '[ $code = 1 ] && grep -q "in RegisterApplicationMasterRequest .* cannot handle placement constraints" "$work"/nm4/logs/$app/*_000001/stderr'
dshell_run disabled2 -placement_spec "rm.yarn.io/java=1.8" -num_containers 1
check "with the disabled handler the AM's SchedulingRequests are refused" \
  '[ $code = 1 ] && grep -q "Diagnostics: allocate: .*Found non empty SchedulingRequest in AllocateRequest .* cannot handle placement constraints" "$work/disabled2.out"'

kill -TERM "$rm_pid"
waitfor 10 '! kill -0 $rm_pid'
exit $((fails > 0))
