#!/usr/bin/env bash
# End to end, the reservation REST API of the ResourceManager daemon: new-reservation, submit,
# update, delete and list over HTTP with YARN's bodies; the reservation ACLs (yarn.acl.enable and
# yarn.acl.reservation-enable, the plan queue's acl_submit_reservations, acl_list_reservations
# and acl_administer_reservations) answering 403 AccessControlException; an app submitted with
# the reservation id running in the reservation's queue once the plan follower has made it; a
# periodic reservation listed with its recurrence; after a kill -9 of the RM and a restart on its
# SQLite store, the reservation is back as it was, with its queue and the app submitted to it,
# and a deleted one stays deleted. One RM and one NM on loopback free ports;
# every wait is bounded; processes are stopped by PID.
#   daemon_reservation_test.sh <spindle> <work folder>
set -u
spindle=$1
work=$2
rm -rf "$work"
mkdir -p "$work/rm" "$work/nm"
source "$(dirname "$0")/daemon_lib.sh"
# status REPLY / body REPLY: the parts of a `rest` answer.
status() { echo "$1" | head -1; }
body() { echo "$1" | tail -n +2; }
# json REPLY EXPR: a value of a reply's body, e.g. json "$r" 'd["reservation-id"]'.
json() { body "$1" | python3 -c "import json,sys; d=json.load(sys.stdin); print($2)"; }
# definition ARRIVAL DEADLINE CONTAINERS [RECURRENCE]: a reservation-definition of one R_ALL stage
# of 1 GB containers held for 10 s.
definition() {
  echo "{\"arrival\": $1, \"deadline\": $2, \"reservation-name\": \"e2e\",
    \"recurrence-expression\": \"${4:-0}\",
    \"reservation-requests\": {\"reservation-request-interpreter\": 1,
      \"reservation-request\": [{\"capability\": {\"memory\": \"1024\", \"vCores\": 1},
        \"num-containers\": $3, \"min-concurrency\": 1, \"duration\": 10000}]}}"
}
now_ms() { python3 -c 'import time; print(int(time.time() * 1000))'; }

port=$(freeport)
rm_url="http://127.0.0.1:$port"
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)
cat >"$work/rm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
  <property><name>yarn.resourcemanager.reservation-system.enable</name><value>true</value></property>
  <property><name>yarn.resourcemanager.reservation-system.planfollower.time-step</name><value>200</value></property>
  <property><name>yarn.resourcemanager.reservation-system.max-periodicity</name><value>3600000</value></property>
  <property><name>yarn.acl.enable</name><value>true</value></property>
  <property><name>yarn.acl.reservation-enable</name><value>true</value></property>
  <property><name>yarn.resourcemanager.recovery.enabled</name><value>true</value></property>
  <property><name>yarn.resourcemanager.store.class</name><value>sqlite</value></property>
  <property><name>spindle.resourcemanager.store.sqlite.path</name><value>$work/rm-state.db</value></property>
  <property><name>yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms</name><value>1000</value></property>
</configuration>
EOF
cat >"$work/rm/capacity-scheduler.xml" <<EOF
<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,dedicated</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>20</value></property>
  <property><name>yarn.scheduler.capacity.root.dedicated.capacity</name><value>80</value></property>
  <property><name>yarn.scheduler.capacity.root.dedicated.reservable</name><value>true</value></property>
  <property><name>yarn.scheduler.capacity.root.dedicated.reservation-policy</name><value>NoOverCommitPolicy</value></property>
  <property><name>yarn.scheduler.capacity.root.dedicated.reservation-agent</name><value>GreedyReservationAgent</value></property>
  <property><name>yarn.scheduler.capacity.root.dedicated.acl_submit_reservations</name><value>alice</value></property>
  <property><name>yarn.scheduler.capacity.root.dedicated.acl_list_reservations</name><value>carol</value></property>
  <property><name>yarn.scheduler.capacity.root.dedicated.acl_administer_reservations</name><value>boss</value></property>
</configuration>
EOF
cat >"$work/nm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>10240</value></property>
  <!-- AMs are this binary: under AddressSanitizer they exceed small containers. -->
  <property><name>yarn.nodemanager.pmem-check-enabled</name><value>false</value></property>
  <property><name>yarn.nodemanager.resource.cpu-vcores</name><value>10</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm/local</value></property>
  <property><name>yarn.nodemanager.sleep-delay-before-sigkill.ms</name><value>100</value></property>
  <property><name>yarn.resourcemanager.connect.retry-interval.ms</name><value>200</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
</configuration>
EOF

"$spindle" rm --conf "$work/rm" >"$work/rm.log" 2>&1 &
rm_pid=$!
pids+=("$rm_pid")
check "the RM answers /info" 'waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"'
"$spindle" nm --conf "$work/nm" >"$work/nm.log" 2>&1 &
pids+=("$!")
check "the NM registers" \
  'waitfor 10 "[ \$(field /nodes?states=RUNNING \"len(d[\\\"nodes\\\"][\\\"node\\\"])\") = 1 ]"'

R=/ws/v1/cluster/reservation
reply=$(rest "$R/new-reservation?user.name=alice" POST)
rid=$(json "$reply" 'd["reservation-id"]')
check "new-reservation gives an id" '[ "$(status "$reply")" = 200 ] && [[ "$rid" == reservation_*_0001 ]]'
check "new-reservation is POST only" '[ "$(status "$(rest "$R/new-reservation")")" = 405 ]'

start=$(($(now_ms) + 1500))
def=$(definition "$start" $((start + 300000)) 4)
reply=$(rest "$R/submit?user.name=bob" POST "{\"queue\": \"dedicated\", \"reservation-id\": \"$rid\", \"reservation-definition\": $def}")
check "bob (not in acl_submit_reservations) is refused with 403" \
  '[ "$(status "$reply")" = 403 ] && echo "$reply" | grep -q "User bob cannot perform operation SUBMIT_RESERVATIONS on queue root.dedicated"'
reply=$(rest "$R/submit?user.name=alice" POST "{\"queue\": \"dedicated\", \"reservation-id\": \"$rid\"}")
check "a submission without a definition is 400 with YARN's message" \
  '[ "$(status "$reply")" = 400 ] && echo "$reply" | grep -q "Input ReservationDefinition should not be null"'
reply=$(rest "$R/submit?user.name=alice" POST "{\"queue\": \"a\", \"reservation-id\": \"$rid\", \"reservation-definition\": $def}")
check "a queue that is not reservable is 400" \
  '[ "$(status "$reply")" = 400 ] && echo "$reply" | grep -q "is not managed by reservation system"'
reply=$(rest "$R/submit?user.name=alice" POST "{\"queue\": \"dedicated\", \"reservation-id\": \"$rid\", \"reservation-definition\": $def}")
check "alice submits: 202 Accepted" '[ "$(status "$reply")" = 202 ]'

reply=$(rest "$R/list?queue=dedicated&include-resource-allocations=true&user.name=carol")
check "carol (acl_list_reservations) lists it with its allocations" \
  '[ "$(status "$reply")" = 200 ] && [ "$(json "$reply" "d[\"reservations\"][0][\"reservation-id\"]")" = "$rid" ] && [ "$(json "$reply" "max(a[\"resource\"][\"memory\"] for a in d[\"reservations\"][0][\"resource-allocations\"])")" = 4096 ] && [ "$(json "$reply" "d[\"reservations\"][0][\"user\"]")" = alice ]'
check "dave may not list the plan" \
  '[ "$(status "$(rest "$R/list?queue=dedicated&user.name=dave")")" = 403 ]'
reply=$(rest "$R/list?queue=dedicated&reservation-id=$rid&user.name=alice")
check "alice lists her own reservation by id" \
  '[ "$(status "$reply")" = 200 ] && [ "$(json "$reply" "len(d[\"reservations\"])")" = 1 ]'
reply=$(rest "$R/list?queue=dedicated&start-time=100&end-time=50&user.name=carol")
check "end before start is 400" \
  '[ "$(status "$reply")" = 400 ] && echo "$reply" | grep -q "The specified end time must be greater than the specified start time."'

def6=$(definition "$start" $((start + 300000)) 6)
reply=$(rest "$R/update?user.name=bob" POST "{\"reservation-id\": \"$rid\", \"reservation-definition\": $def6}")
check "bob may not update alice's reservation (ADMINISTER_RESERVATIONS)" \
  '[ "$(status "$reply")" = 403 ] && echo "$reply" | grep -q "User bob cannot perform operation ADMINISTER_RESERVATIONS on queue root.dedicated"'
reply=$(rest "$R/update?user.name=alice" POST "{\"reservation-definition\": $def6}")
check "an update without an id is 400" \
  '[ "$(status "$reply")" = 400 ] && echo "$reply" | grep -q "Update operations must specify an existing ReservaitonId"'
reply=$(rest "$R/update?user.name=alice" POST "{\"reservation-id\": \"$rid\", \"reservation-definition\": $def6}")
check "alice updates it to 6 GB" '[ "$(status "$reply")" = 200 ] && [ "$(body "$reply")" = "{}" ]'
reply=$(rest "$R/list?queue=dedicated&include-resource-allocations=true&user.name=carol")
check "the list shows the update" \
  '[ "$(json "$reply" "max(a[\"resource\"][\"memory\"] for a in d[\"reservations\"][0][\"resource-allocations\"])")" = 6144 ]'
def90=$(definition "$start" $((start + 300000)) 9000)
reply=$(rest "$R/update?user.name=alice" POST "{\"reservation-id\": \"$rid\", \"reservation-definition\": $def90}")
check "an update beyond the plan is 400 and changes nothing" \
  '[ "$(status "$reply")" = 400 ] && [ "$(json "$(rest "$R/list?queue=dedicated&include-resource-allocations=true&user.name=carol")" "max(a[\"resource\"][\"memory\"] for a in d[\"reservations\"][0][\"resource-allocations\"])")" = 6144 ]'

# The follower makes the reservation's queue at its arrival; an app sent with the id runs there.
check "the follower creates the reservation queue" \
  'waitfor 15 "rest /ws/v1/cluster/scheduler | grep -q \"$rid\""'
app=$(json "$(rest "/ws/v1/cluster/apps/new-application?user.name=alice" POST)" 'd["application-id"]')
reply=$(rest "/ws/v1/cluster/apps?user.name=alice" POST "{\"application-id\": \"$app\", \"queue\": \"dedicated\",
  \"reservation-id\": \"$rid\", \"resource\": {\"memory\": 64, \"vCores\": 1},
  \"am-container-spec\": {\"commands\": {\"command\": \"sleep 30\"}}}")
check "an app submitted with the reservation id is accepted" '[ "$(status "$reply")" = 202 ]'
check "it runs in the reservation's queue" \
  'waitfor 5 "field /apps/$app \"d[\\\"app\\\"][\\\"queue\\\"]\" | grep -q \"$rid\""'

# A periodic reservation: every 10 minutes.
reply=$(rest "$R/new-reservation?user.name=alice" POST)
pid_=$(json "$reply" 'd["reservation-id"]')
pstart=$(($(now_ms) + 60000))
pdef=$(definition "$pstart" $((pstart + 20000)) 2 600000)
reply=$(rest "$R/submit?user.name=alice" POST "{\"queue\": \"dedicated\", \"reservation-id\": \"$pid_\", \"reservation-definition\": $pdef}")
check "a periodic reservation is accepted" '[ "$(status "$reply")" = 202 ]'
reply=$(rest "$R/list?queue=dedicated&reservation-id=$pid_&include-resource-allocations=true&user.name=carol")
check "it lists with its recurrence and an allocation inside the period" \
  '[ "$(json "$reply" "d[\"reservations\"][0][\"reservation-definition\"][\"recurrence-expression\"]")" = 600000 ] && [ "$(json "$reply" "max(a[\"endTime\"] for a in d[\"reservations\"][0][\"resource-allocations\"]) <= 600000")" = True ]'
bad=$(definition "$pstart" $((pstart + 20000)) 2 7000000)
reply=$(rest "$R/submit?user.name=alice" POST "{\"queue\": \"dedicated\", \"reservation-id\": \"$pid_\", \"reservation-definition\": $bad}")
check "a recurrence that does not divide max-periodicity is 400" \
  '[ "$(status "$reply")" = 400 ] && echo "$reply" | grep -q "must be divisible by the recurrence expression"'

reply=$(rest "$R/delete?user.name=carol" POST "{\"reservation-id\": \"$pid_\"}")
check "carol (list only) may not delete" '[ "$(status "$reply")" = 403 ]'
reply=$(rest "$R/delete?user.name=boss" POST "{\"reservation-id\": \"$pid_\"}")
check "boss (acl_administer_reservations) deletes it" '[ "$(status "$reply")" = 200 ]'
reply=$(rest "$R/delete?user.name=alice" POST "{\"reservation-id\": \"$pid_\"}")
check "deleting it again is 400 (unknown)" \
  '[ "$(status "$reply")" = 400 ] && echo "$reply" | grep -q "is unknown"'
check "one reservation is left" \
  '[ "$(json "$(rest "$R/list?queue=dedicated&user.name=carol")" "len(d[\"reservations\"])")" = 1 ]'


# kill -9 and a restart on the same store: the reservation comes back as accepted.
before=$(body "$(rest "$R/list?queue=dedicated&include-resource-allocations=true&user.name=carol")")
kill -KILL "$rm_pid"
wait "$rm_pid" 2>/dev/null
"$spindle" rm --conf "$work/rm" >>"$work/rm.log" 2>&1 &
rm_pid=$!
pids+=("$rm_pid")
check "the RM restarts on its store" 'waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"'
check "  and says it recovered the reservation" 'grep -q "recovered 1 of 1 reservations" "$work/rm.log"'
after=$(body "$(rest "$R/list?queue=dedicated&include-resource-allocations=true&user.name=carol")")
check "the reservation lists as before the kill (definition, allocations, acceptance time)" \
  '[ -n "$before" ] && [ "$before" = "$after" ]'
check "its queue is back" 'rest /ws/v1/cluster/scheduler | grep -q "$rid"'
check "the app submitted to it is recovered into the reservation's queue" \
  'field "/apps/$app" "d[\"app\"][\"queue\"]" | grep -q "$rid"'
reply=$(rest "$R/delete?user.name=alice" POST "{\"reservation-id\": \"$pid_\"}")
check "the reservation deleted before the kill stays deleted" '[ "$(status "$reply")" = 400 ]'

kill -TERM "$rm_pid"
waitfor 10 '! kill -0 $rm_pid'
exit $((fails > 0))
