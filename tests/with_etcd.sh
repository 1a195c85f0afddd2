#!/bin/bash
# Runs a command with a throwaway etcd: with_etcd.sh WORKDIR COMMAND ARGS...; the command finds
# the endpoint in SPINDLE_ETCD_ENDPOINTS. etcd is stopped by PID afterwards, whatever happens.
work=$1
shift
source "$(dirname "$0")/etcd_lib.sh"
trap stop_etcd EXIT
start_etcd "$work" || exit 1
SPINDLE_ETCD_ENDPOINTS="http://$etcd_endpoint" "$@"
