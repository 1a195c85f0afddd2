# Bounded waits and free loopback ports, for the daemon tests (daemon_lib.sh) and the benchmark
# scripts that start daemons.
#   source tests/wait_lib.sh; port=$(freeport); waitfor 10 'curl -sf http://127.0.0.1:$port/'
# waitfor SECONDS COMMAND: polls COMMAND every 0.1 s until it succeeds or the time is up
# (SECONDS times SPINDLE_TEST_TIME_FACTOR, which sanitizer builds set).
waitfor() {
  local end=$((SECONDS + $1 * ${SPINDLE_TEST_TIME_FACTOR:-1}))
  while ! eval "$2" >/dev/null 2>&1; do
    [ $SECONDS -ge $end ] && return 1
    sleep 0.1
  done
}
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
