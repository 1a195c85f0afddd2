#!/usr/bin/env bash
# The REST API's JSON shapes against golden files: a real ResourceManager and one NodeManager
# on loopback free ports, one dshell job run to completion and a node attribute set by the admin,
# then info, metrics, scheduler, nodes, nodes/{id}, apps, apps/{id}, apps/{id}/appattempts and
# the node-attribute views compared with tests/data/rest/*.json by
# key sets and value types (tests/rest_shape.py; timestamps, ids and ports are masked).
# Every wait is bounded; processes are stopped by PID.
#   rest_golden_test.sh <spindle> <work folder> <golden folder> [--update]
set -u
spindle=$1
work=$2
golden=$3
update=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/rm" "$work/nm"
source "$(dirname "$0")/daemon_lib.sh"
get() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "$rm_url/ws/v1/cluster$1"; }

port=$(freeport)
rm_url="http://127.0.0.1:$port"
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)
cat >"$work/rm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
</configuration>
EOF
cat >"$work/nm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>1024</value></property>
  <!-- AMs are this binary: under AddressSanitizer they exceed small containers. -->
  <property><name>yarn.nodemanager.pmem-check-enabled</name><value>false</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm/local</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
  <property><name>yarn.nodemanager.node-attributes.provider</name><value>config</value></property>
  <property><name>yarn.nodemanager.node-attributes.provider.configured-node-attributes</name><value>os,STRING,linux</value></property>
</configuration>
EOF
"$spindle" rm --conf "$work/rm" >"$work/rm.log" 2>&1 &
rm_pid=$!
pids+=("$rm_pid")
check "the RM answers /info" 'waitfor 10 "get /info | grep -q clusterInfo"'
"$spindle" nm --conf "$work/nm" >"$work/nm.log" 2>&1 &
pids+=("$!")
check "the NM registers" 'waitfor 10 "get /nodes | grep -q RUNNING"'
HADOOP_USER_NAME=golden timeout 40 "$spindle" dshell --rm "127.0.0.1:$port" -shell_command true \
  -num_containers 1 -container_memory 64 -master_memory 64 -timeout 30000 >"$work/dshell.out" 2>&1
code=$?
check "the dshell job succeeds" '[ $code = 0 ]'
app=$(sed -n 's/^Submitted application //p' "$work/dshell.out")
# The AM container's completion reaches the RM on the next heartbeat.
waitfor 5 "get /metrics | grep -q '\"containersAllocated\":0'"
# A centralised attribute beside the NM's distributed one, for the node-attribute views.
"$spindle" nodeattributes --rm "127.0.0.1:$port" -add "127.0.0.1:java=1.8" >"$work/attrs.out" 2>&1
check "nodeattributes -add succeeds" '[ $? = 0 ]'
node=$(get /nodes | python3 -c 'import json,sys; print(json.load(sys.stdin)["nodes"]["node"][0]["id"])')

for view in info metrics scheduler nodes "nodes/$node" apps "apps/$app" "apps/$app/appattempts" \
  node-attributes attributes-to-nodes nodes-to-attributes; do
  name=$(echo "$view" | sed "s#$app#id#; s#$node#id#; s#/#-#g")
  get "/$view" >"$work/$name.json"
  if [ "$update" = --update ]; then
    python3 "$here/rest_shape.py" shape "$work/$name.json" >"$golden/$name.json"
    echo "wrote $golden/$name.json"
  else
    check "$view has the golden shape" 'python3 "$here/rest_shape.py" check "$work/$name.json" "$golden/$name.json"'
  fi
done

kill -TERM "$rm_pid"
waitfor 10 '! kill -0 $rm_pid'
exit $((fails > 0))
