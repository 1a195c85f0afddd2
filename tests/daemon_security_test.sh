#!/usr/bin/env bash
# End to end, the daemons' security: a ResourceManager with yarn.acl.enable, queue ACLs,
# yarn.admin.acl and a NodeManager registration secret; a NodeManager with the wrong secret is
# refused (403, exit 2), one with the right secret registers; a submission by a user outside
# the queue's submit ACL and a kill by a user outside its administer ACL are 403
# AccessControlException, over curl-like HTTP and through the CLI (HADOOP_USER_NAME).
# Every wait is bounded; processes are stopped by PID.
#   daemon_security_test.sh <spindle> <work folder>
set -u
spindle=$1
work=$2
rm -rf "$work"
mkdir -p "$work/rm" "$work/nm-bad" "$work/nm"
source "$(dirname "$0")/daemon_lib.sh"
# submit USER QUEUE: prints the new app id, then the HTTP status of the submission.
submit() {
  local id
  id=$(rest "/ws/v1/cluster/apps/new-application?user.name=$1" POST | tail -n +2 |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["application-id"])')
  echo "$id"
  rest "/ws/v1/cluster/apps?user.name=$1" POST "{\"application-id\": \"$id\", \"queue\": \"$2\",
    \"resource\": {\"memory\": 64, \"vCores\": 1},
    \"am-container-spec\": {\"commands\": {\"command\": \"sleep 30\"}}}" | head -1
}

port=$(freeport)
rm_url="http://127.0.0.1:$port"
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)
cat >"$work/rm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
  <property><name>yarn.acl.enable</name><value>true</value></property>
  <property><name>yarn.admin.acl</name><value>boss</value></property>
  <property><name>spindle.nodemanager.registration.secret</name><value>open-sesame</value></property>
</configuration>
EOF
cat >"$work/rm/capacity-scheduler.xml" <<EOF
<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property>
  <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.root.acl_submit_applications</name><value> </value></property>
  <property><name>yarn.scheduler.capacity.root.acl_administer_queue</name><value> </value></property>
  <property><name>yarn.scheduler.capacity.root.default.acl_submit_applications</name><value>alice,bob</value></property>
  <property><name>yarn.scheduler.capacity.root.default.acl_administer_queue</name><value>alice</value></property>
</configuration>
EOF
for n in nm-bad nm; do
  secret=$([ $n = nm ] && echo open-sesame || echo guessed)
  cat >"$work/$n/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>1024</value></property>
  <!-- AMs are this binary: under AddressSanitizer they exceed small containers. -->
  <property><name>yarn.nodemanager.pmem-check-enabled</name><value>false</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/$n/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/$n/local</value></property>
  <property><name>yarn.nodemanager.sleep-delay-before-sigkill.ms</name><value>100</value></property>
  <property><name>spindle.nodemanager.registration.secret</name><value>$secret</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
</configuration>
EOF
done

"$spindle" rm --conf "$work/rm" >"$work/rm.log" 2>&1 &
rm_pid=$!
pids+=("$rm_pid")
check "the RM answers /info" 'waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"'

"$spindle" nm --conf "$work/nm-bad" >"$work/nm-bad.log" 2>&1 &
bad_pid=$!
pids+=("$bad_pid")
waitfor 10 '! kill -0 $bad_pid'
wait "$bad_pid"
code=$?
check "an NM with the wrong secret is refused and exits 2" \
  '[ $code = 2 ] && grep -q "refused the registration: NodeManager .* is not allowed to register: its registration secret is wrong" "$work/nm-bad.log"'
"$spindle" nm --conf "$work/nm" >"$work/nm.log" 2>&1 &
pids+=("$!")
check "an NM with the secret registers" \
  'waitfor 10 "[ \$(field /nodes?states=RUNNING \"len(d[\\\"nodes\\\"][\\\"node\\\"])\") = 1 ]"'

out=$(submit carol default)
carol_app=$(echo "$out" | head -1)
check "carol (not in acl_submit_applications) gets 403" '[ "$(echo "$out" | tail -1)" = 403 ]'
reply=$(rest "/ws/v1/cluster/apps?user.name=carol" POST "{\"application-id\": \"$carol_app\", \"queue\": \"default\", \"resource\": {\"memory\": 64, \"vCores\": 1}, \"am-container-spec\": {\"commands\": {\"command\": \"sleep 30\"}}}")
check "the refusal is an AccessControlException with YARN's text" \
  'echo "$reply" | grep -q "\"exception\":\"AccessControlException\"" && echo "$reply" | grep -q "User carol does not have permission to submit $carol_app to queue default"'

out=$(submit bob default)
bob_app=$(echo "$out" | head -1)
check "bob submits to default" '[ "$(echo "$out" | tail -1)" = 202 ]'
check "bob's app is accepted" 'waitfor 10 "field /apps/$bob_app \"d[\\\"app\\\"][\\\"user\\\"]\" | grep -q bob"'
reply=$(rest "/ws/v1/cluster/apps/$bob_app/state?user.name=carol" PUT '{"state":"KILLED"}')
check "carol's kill of bob's app is 403" \
  '[ "$(echo "$reply" | head -1)" = 403 ] && echo "$reply" | grep -q "User carol cannot perform operation MODIFY_APP on $bob_app"'
HADOOP_USER_NAME=carol "$spindle" application --rm "127.0.0.1:$port" -kill "$bob_app" >"$work/kill-carol.out" 2>&1
code=$?
check "the CLI as carol is refused too" \
  '[ $code != 0 ] && grep -q "cannot perform operation MODIFY_APP" "$work/kill-carol.out"'
check "bob's app still runs" '[ "$(field /apps/$bob_app "d[\"app\"][\"state\"]")" != KILLED ]'
HADOOP_USER_NAME=alice "$spindle" application --rm "127.0.0.1:$port" -kill "$bob_app" >"$work/kill-alice.out" 2>&1
check "alice (acl_administer_queue) kills it through the CLI" \
  'waitfor 5 "[ \$(field /apps/$bob_app \"d[\\\"app\\\"][\\\"state\\\"]\") = KILLED ]"'

kill -TERM "$rm_pid"
waitfor 10 '! kill -0 $rm_pid'
exit $((fails > 0))
