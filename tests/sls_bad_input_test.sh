#!/usr/bin/env bash
# `spindle sls` refuses bad input before it drives any RM: exit 2 with a message naming the
# option, the file and what is wrong; an RM that is not there is exit 1 naming its address.
#   sls_bad_input_test.sh <spindle> <source dir> <work folder>
set -u
spindle=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/wait_lib.sh"
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }
example="$src/examples/sim/sls"
port=$(freeport)  # nothing listens there
# expect NAME CODE TEXT ARGS...: `spindle sls ARGS` exits CODE and prints TEXT.
expect() {
  local name=$1 want=$2 text=$3
  shift 3
  timeout 30 "$spindle" sls "$@" >"$work/out.txt" 2>&1
  local code=$?
  check "$name: exit $want (got $code)" '[ "$code" = "$want" ]'
  check "$name: says '$text'" 'grep -qF -- "$text" "$work/out.txt" || { cat "$work/out.txt"; false; }'
}
trace=(--tracetype SLS --tracelocation "$example/jobs.json" --nodes "$example/nodes.json"
  --conf "$example")
expect "no --rm" 2 "--rm is required" "${trace[@]}" --output-dir "$work/a"
expect "--rm without a port" 2 "--rm" --rm localhost "${trace[@]}" --output-dir "$work/b"
expect "--speed 0" 2 "--speed" --rm "127.0.0.1:$port" "${trace[@]}" --output-dir "$work/c" \
  --speed 0
expect "unknown --tracetype" 2 "SLS, RUMEN" --rm "127.0.0.1:$port" --tracetype CSV \
  --tracelocation "$example/jobs.json" --output-dir "$work/d"
printf '{"job.id": "j1", "job.start.ms": 0, "job.tasks": [' >"$work/broken.json"
expect "a truncated trace" 2 "broken.json" --rm "127.0.0.1:$port" --tracetype SLS \
  --tracelocation "$work/broken.json" --nodes "$example/nodes.json" --conf "$example" \
  --output-dir "$work/e"
printf '{"job.id": "j1", "am.type": "spark", "job.start.ms": 0, "job.queue.name": "prod",
  "job.tasks": [{"container.host": "/rack-a/host1", "container.duration.ms": 100}]}' \
  >"$work/spark.json"
expect "an unknown am.type" 2 "unknown AM type 'spark'" --rm "127.0.0.1:$port" --tracetype SLS \
  --tracelocation "$work/spark.json" --nodes "$example/nodes.json" --conf "$example" \
  --output-dir "$work/i"
mkdir -p "$work/one-queue"
cat >"$work/one-queue/capacity-scheduler.xml" <<XML
<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property>
  <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property>
</configuration>
XML
expect "a trace naming an unknown queue" 2 "unknown queue" --rm "127.0.0.1:$port" --tracetype SLS \
  --tracelocation "$example/jobs.json" --nodes "$example/nodes.json" --output-dir "$work/f" \
  --conf "$work/one-queue"
mkdir -p "$work/nosim"
expect "--compare without a sim run" 2 "jobruntime.csv" --rm "127.0.0.1:$port" "${trace[@]}" \
  --output-dir "$work/g" --compare "$work/nosim"
expect "no RM at --rm" 1 "127.0.0.1:$port" --rm "127.0.0.1:$port" "${trace[@]}" \
  --output-dir "$work/h"
expect "no --output-dir" 2 "--output-dir is required" --rm "127.0.0.1:$port" "${trace[@]}"
expect "--write-topology into a missing folder" 2 "--write-topology $work/none/racks.txt" \
  "${trace[@]}" --write-topology "$work/none/racks.txt"
timeout 30 "$spindle" sls "${trace[@]}" --write-topology "$work/racks.txt" >"$work/out.txt" 2>&1
code=$?
check "--write-topology needs no RM: exit 0 (got $code)" '[ "$code" = 0 ]'
check "--write-topology writes a host and rack per node" \
  '[ "$(grep -vc "^#" "$work/racks.txt")" = 6 ] && grep -q "^host1 /" "$work/racks.txt"'
[ "$fails" = 0 ] && echo "sls bad input: all passed" || echo "sls bad input: $fails failed"
exit $((fails > 0))
