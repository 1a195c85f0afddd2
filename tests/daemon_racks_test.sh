#!/usr/bin/env bash
# The RM's rack topology end to end (net.topology.*, YARN's RackResolver), a real `spindle rm`
# and `spindle nm` on loopback free ports:
#  1. ScriptBasedMapping set in core-site.xml: the NM's host (127.0.0.1) goes on the rack the
#     script prints, shown by REST /nodes, /nodes/{id} and `spindle node -status`; an NM that
#     registers again from the same host does not run the script again (cached per host).
#  2. TableMapping in yarn-site.xml: the host's rack from the table.
#  3. An unreadable table: the RM warns naming the file and the node is on /default-rack.
#  4. An unknown mapping class stops the RM (exit 2) naming the key and the value.
# Every wait is bounded; processes are stopped by PID.
#   daemon_racks_test.sh <spindle> <work folder>
set -u
spindle=$1
work=$2
[ -n "$work" ] || exit 2
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/daemon_lib.sh"

# start_rm NAME PROPERTIES...: an RM on a free port whose yarn-site.xml has PROPERTIES
# (name=value); a core-site.xml already in $work/NAME is kept. Sets port, rm_url, rm_pid.
start_rm() {
  local name=$1 p
  shift
  port=$(freeport)
  rm_url="http://127.0.0.1:$port"
  mkdir -p "$work/$name"
  {
    echo "<configuration>"
    echo "  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>"
    echo "  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>"
    for p in "$@"; do echo "  <property><name>${p%%=*}</name><value>${p#*=}</value></property>"; done
    echo "</configuration>"
  } >"$work/$name/yarn-site.xml"
  "$spindle" rm --conf "$work/$name" >"$work/$name.log" 2>&1 &
  rm_pid=$!
  pids+=("$rm_pid")
  waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"
}
# start_nm NAME: an NM of the current RM on 127.0.0.1; sets nm_pid, nm_id (once registered).
start_nm() {
  mkdir -p "$work/$1"
  cat >"$work/$1/yarn-site.xml" <<XML
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/$1/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/$1/local</value></property>
</configuration>
XML
  "$spindle" nm --conf "$work/$1" >"$work/$1.log" 2>&1 &
  nm_pid=$!
  pids+=("$nm_pid")
  nm_id=""
  waitfor 10 "[ -n \"\$(sed -n 's/^spindle nm: \([^ ]*\) serving on.*/\1/p' $work/$1.log)\" ]"
  nm_id=$(sed -n 's/^spindle nm: \([^ ]*\) serving on.*/\1/p' "$work/$1.log" | tail -1)
  waitfor 10 "[ \"\$(rack_of $nm_id)\" != '' ]"
}
rack_of() { field "/nodes/$1" 'd["node"]["rack"]' 2>/dev/null; }
stop() { kill -TERM "$1" 2>/dev/null; waitfor 10 "! kill -0 $1"; }

# 1. A topology script, configured in core-site.xml as Hadoop's Configuration reads it.
cat >"$work/rack.sh" <<SH
#!/bin/sh
echo "\$@" >> $work/script-calls
for h in "\$@"; do
  case "\$h" in 127.0.0.1) echo /dc1/rack-script ;; *) echo /rack-other ;; esac
done
SH
chmod +x "$work/rack.sh"
mkdir -p "$work/rm-script"
cat >"$work/rm-script/core-site.xml" <<XML
<configuration>
  <property><name>net.topology.script.file.name</name><value>$work/rack.sh</value></property>
</configuration>
XML
check "the RM with a topology script starts" 'start_rm rm-script'
start_nm nm1
check "REST /nodes/{id}: the NM's host is on the script's rack" \
  '[ "$(rack_of "$nm_id")" = /dc1/rack-script ]'
check "REST /nodes lists it on that rack" \
  '[ "$(field /nodes "[n[\"rack\"] for n in d[\"nodes\"][\"node\"]]")" = "['"'"'/dc1/rack-script'"'"']" ]'
"$spindle" node --rm "127.0.0.1:$port" -status "$nm_id" >"$work/node-status.out" 2>&1
check "spindle node -status prints the rack" \
  'grep -q "^	Rack : /dc1/rack-script$" "$work/node-status.out" || { cat "$work/node-status.out"; false; }'
check "the RM logs the rack at registration" \
  'grep -q "node $nm_id registered on rack /dc1/rack-script" "$work/rm-script.log"'
first=$nm_id
stop "$nm_pid"
start_nm nm1b
check "a second NM from the same host is on the same rack" \
  '[ "$nm_id" != "$first" ] && [ "$(rack_of "$nm_id")" = /dc1/rack-script ]'
check "the script ran once for the host (cached per host)" \
  '[ "$(cat "$work/script-calls")" = 127.0.0.1 ] || { cat "$work/script-calls"; false; }'
stop "$nm_pid"
stop "$rm_pid"

# 2. A topology table.
printf '# the lab\n127.0.0.1   /rack-table\nother /rack-x\n' >"$work/racks.txt"
check "the RM with a topology table starts" \
  'start_rm rm-table net.topology.node.switch.mapping.impl=org.apache.hadoop.net.TableMapping \
     net.topology.table.file.name=$work/racks.txt'
start_nm nm2
check "REST /nodes/{id}: the NM's host is on the table's rack" '[ "$(rack_of "$nm_id")" = /rack-table ]'
"$spindle" node --rm "127.0.0.1:$port" -status "$nm_id" >"$work/node-status2.out" 2>&1
check "spindle node -status prints it" 'grep -q "^	Rack : /rack-table$" "$work/node-status2.out"'
stop "$nm_pid"
stop "$rm_pid"

# 3. A table the RM cannot read: a warning naming it, the default rack.
check "the RM with an unreadable table starts" \
  'start_rm rm-missing net.topology.node.switch.mapping.impl=org.apache.hadoop.net.TableMapping \
     net.topology.table.file.name=$work/missing.txt'
check "it warns naming the table" \
  'grep -q "cannot read the topology table $work/missing.txt" "$work/rm-missing.log"'
start_nm nm3
check "the NM is on /default-rack" '[ "$(rack_of "$nm_id")" = /default-rack ]'
stop "$nm_pid"
stop "$rm_pid"

# 4. A mapping class Spindle does not have.
mkdir -p "$work/rm-bad"
cat >"$work/rm-bad/yarn-site.xml" <<XML
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$(freeport)</value></property>
  <property><name>net.topology.node.switch.mapping.impl</name><value>org.example.MyMapping</value></property>
</configuration>
XML
timeout 20 "$spindle" rm --conf "$work/rm-bad" >"$work/rm-bad.log" 2>&1
code=$?
check "an unknown mapping class stops the RM with exit 2 (got $code) naming key and value" \
  '[ "$code" = 2 ] && grep -q "net.topology.node.switch.mapping.impl.*org.example.MyMapping" "$work/rm-bad.log"'
[ "$fails" = 0 ] && echo "racks: all passed" || echo "racks: $fails failed"
exit $((fails > 0))
