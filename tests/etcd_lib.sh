# A throwaway etcd (Debian's etcd-server) for tests: loopback only, free random client and peer
# ports, a data dir under $1, stopped by PID. Sourced by with_etcd.sh and the HA fault tests.
#   source tests/etcd_lib.sh; start_etcd "$work/etcd" || exit 1
#   echo "$etcd_endpoint"   # 127.0.0.1:<port>
#   stop_etcd               # SIGTERM, then SIGKILL, by PID
#   start_etcd "$work/etcd" keep   # restart on the same ports and data (after stop_etcd)
etcd_pid=
etcd_client_port=
etcd_peer_port=
etcd_endpoint=
etcd_freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start_etcd() {
  local dir=$1 keep=${2:-}
  if ! command -v etcd >/dev/null; then
    echo "etcd_lib: no etcd binary (apt-get install etcd-server)" >&2
    return 1
  fi
  if [ -z "$keep" ]; then
    rm -rf "$dir"
    etcd_client_port=$(etcd_freeport)
    etcd_peer_port=$(etcd_freeport)
  fi
  mkdir -p "$dir"
  etcd_endpoint="127.0.0.1:$etcd_client_port"
  local peer="http://127.0.0.1:$etcd_peer_port"
  ETCD_UNSUPPORTED_ARCH=$(dpkg --print-architecture 2>/dev/null) \
    etcd --name spindle-test --data-dir "$dir/data" \
    --listen-client-urls "http://$etcd_endpoint" --advertise-client-urls "http://$etcd_endpoint" \
    --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" \
    --initial-cluster "spindle-test=$peer" >>"$dir/etcd.log" 2>&1 &
  etcd_pid=$!
  local i
  for i in $(seq 1 100); do
    if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://$etcd_endpoint/health', timeout=1)" 2>/dev/null; then
      return 0
    fi
    if ! kill -0 "$etcd_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "etcd_lib: etcd did not become healthy on $etcd_endpoint; its log:" >&2
  tail -n 20 "$dir/etcd.log" >&2
  stop_etcd
  return 1
}
stop_etcd() {
  [ -n "$etcd_pid" ] || return 0
  kill -TERM "$etcd_pid" 2>/dev/null
  local i
  for i in $(seq 1 50); do
    kill -0 "$etcd_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$etcd_pid" 2>/dev/null
  wait "$etcd_pid" 2>/dev/null
  etcd_pid=
}
