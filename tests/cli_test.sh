#!/usr/bin/env bash
# The executable's basic contract: --version, help, and exit code 2 on bad arguments.
set -u
spindle=$1; fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails+1)); fi; }
check "--version prints the version" '"$spindle" --version | grep -q "^spindle [0-9]"'
check "help lists scenario" '"$spindle" help | grep -q "scenario"'
"$spindle" --no-such-flag >/dev/null 2>&1; code=$?
check "unknown flag exits 2" '[ $code = 2 ]'
"$spindle" scenario run >/dev/null 2>&1; code=$?
check "missing file exits 2" '[ $code = 2 ]'
exit $((fails > 0))
