# Shared by the daemon end-to-end tests (sourced after `work` and `rm_url`'s port are chosen):
# the PIDs to stop, bounded waits, free loopback ports and plain HTTP calls to the RM.
#   source "$(dirname "$0")/daemon_lib.sh"; pids+=($!); waitfor 10 'cmd'; check "name" 'cond'
fails=0
pids=()
# Stops every started process by PID (TERM, then KILL); containers orphaned by a killed
# NodeManager recorded their PIDs in $work/task.pids.
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
  if [ -f "$work/task.pids" ]; then
    while read -r p; do kill -KILL "$p" 2>/dev/null; done <"$work/task.pids"
  fi
  sleep 0.3
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
}
trap cleanup EXIT

check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }
source "$(dirname "${BASH_SOURCE[0]}")/wait_lib.sh"
# rest PATH [METHOD BODY]: the HTTP status, then the body, of one call to $rm_url.
rest() {
  python3 - "$rm_url$1" "${2:-GET}" "${3:-}" <<'EOF'
import sys, urllib.request, urllib.error
url, method, body = sys.argv[1], sys.argv[2], sys.argv[3]
req = urllib.request.Request(url, method=method, data=body.encode() if body else None,
                             headers={"Content-Type": "application/json"})
try:
    with urllib.request.urlopen(req, timeout=10) as r:
        print(r.status); print(r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code); print(e.read().decode())
EOF
}
# field PATH EXPR: a value from a REST view, e.g. field /apps/x 'd["app"]["state"]'.
field() { rest "/ws/v1/cluster$1" | tail -n +2 | python3 -c "import json,sys; d=json.load(sys.stdin); print($2)"; }

# Container markers, for the tests that kill daemons under load ($work/markers must exist):
# marker_task SECONDS is a container command that records its PID (and cleanup's task.pids),
# writes $work/markers/start.<container> ("PID NM_HTTP_PORT"), sleeps, and writes
# end.<container> only when the sleep ends normally.
marker_task() {
  echo "echo \$\$ >> $work/task.pids; echo \$\$ \$NM_HTTP_PORT > $work/markers/start.\$CONTAINER_ID; sleep $1; echo ok > $work/markers/end.\$CONTAINER_ID"
}
# running_tasks [NM_PORT]: the containers started and not ended (on that NM only, if given).
running_tasks() {
  local f c
  for f in "$work"/markers/start.*; do
    [ -e "$f" ] || continue
    c=${f##*/start.}
    [ -e "$work/markers/end.$c" ] && continue
    [ -z "${1:-}" ] || [ "$(cut -d' ' -f2 <"$f")" = "$1" ] && echo "$c"
  done
}
# survivors CONTAINER...: how many of them still run or ended normally.
survivors() {
  local c n=0
  for c in "$@"; do
    if kill -0 "$(cut -d' ' -f1 <"$work/markers/start.$c")" 2>/dev/null ||
      [ -e "$work/markers/end.$c" ]; then
      n=$((n + 1))
    fi
  done
  echo $n
}
