#!/usr/bin/env bash
# The web UI in a real browser against a live cluster: a ResourceManager (two Capacity queues)
# and a NodeManager on loopback free ports, dshell jobs (one finished, one running, one waiting
# on the AM limit), then every page opened in headless Chromium by web/test/browser.mjs, which
# compares what the page shows with the REST answers. Screenshots go to <work>/screenshots.
#   webui_browser_test.sh <spindle> <web folder> <work folder>
set -u
spindle=$1
web=$2
work=$3
rm -rf "$work"
mkdir -p "$work/rm" "$work/nm1"
source "$(dirname "$0")/daemon_lib.sh"

port=$(freeport)
rm_url="http://127.0.0.1:$port"
cat >"$work/rm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
</configuration>
EOF
cat >"$work/rm/capacity-scheduler.xml" <<EOF
<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>60</value></property>
  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>40</value></property>
  <property><name>yarn.scheduler.capacity.root.b.maximum-capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>0.2</value></property>
</configuration>
EOF
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)
cat >"$work/nm1/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>2048</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm1/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm1/local</value></property>
  <property><name>yarn.nodemanager.sleep-delay-before-sigkill.ms</name><value>100</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
</configuration>
EOF

"$spindle" rm --conf "$work/rm" >"$work/rm.log" 2>&1 &
pids+=("$!")
check "the RM answers /info" 'waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"'
check "the RM serves the UI at /" 'rest / | grep -q "<title>Spindle"'
"$spindle" nm --conf "$work/nm1" >"$work/nm1.log" 2>&1 &
pids+=("$!")
check "the NM registers" 'waitfor 10 "[ \$(field /nodes?states=RUNNING \"len(d[\\\"nodes\\\"][\\\"node\\\"])\") = 1 ]"'

# A finished job, then a long one whose AM takes queue a's AM limit (20 % of 60 % of 2 GB), so a
# second long job in a waits (AM_LIMIT).
timeout 40 "$spindle" dshell --rm "127.0.0.1:$port" -shell_command "echo done" -num_containers 1 \
  -container_memory 64 -master_memory 64 -queue a -timeout 30000 >"$work/short.out" 2>&1
finished=$(sed -n 's/^Submitted application //p' "$work/short.out")
check "the short job finished" '[ "$(field /apps/$finished "d[\"app\"][\"state\"]")" = FINISHED ]'
for n in 1 2; do
  "$spindle" dshell --rm "127.0.0.1:$port" -shell_command "echo \$\$ >> $work/task.pids; exec sleep 60" \
    -num_containers 1 -container_memory 128 -master_memory 256 -queue a -timeout 60000 \
    >"$work/long$n.out" 2>&1 &
  pids+=("$!")
  waitfor 10 "grep -q 'Submitted application' $work/long$n.out"
done
running=$(sed -n 's/^Submitted application //p' "$work/long1.out")
waiting=$(sed -n 's/^Submitted application //p' "$work/long2.out")
why() { field "/spindle/app-decisions/$waiting" 'd["appDecisions"]["whyPending"]["skip"]' 2>/dev/null; }
check "the first long job runs" 'waitfor 10 "[ \$(field /apps/$running \"d[\\\"app\\\"][\\\"state\\\"]\") = RUNNING ]"'
check "the second waits, with a recorded reason" \
  'waitfor 10 "[ -n \"\$(why)\" ]" && [ "$(field /apps/$waiting "d[\"app\"][\"state\"]")" = ACCEPTED ]'
echo "why $waiting waits: $(why)"
check "GET spindle/decisions answers the recent decisions" \
  '[ "$(field "/spindle/decisions?app=$running" "d[\"decisions\"][\"total\"] > 0")" = True ]'
check "a bad limit is 400" '[ "$(rest /ws/v1/cluster/spindle/decisions?limit=x | head -1)" = 400 ]'
check "an unknown app is 404" \
  '[ "$(rest /ws/v1/cluster/spindle/app-decisions/application_1_9999 | head -1)" = 404 ]'

(cd "$web/test" && timeout 120 node browser.mjs --url "$rm_url" --out "$work/screenshots" \
  --waiting "$waiting" --finished "$finished") 2>&1 | tee "$work/browser.out"
check "every browser check passed" 'grep -q " 0 failed$" "$work/browser.out"'
check "a screenshot of each page" '[ $(ls "$work"/screenshots/*.png 2>/dev/null | wc -l) -ge 7 ]'

[ $fails = 0 ]
