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
"$spindle" help >"${TMPDIR:-/tmp}/spindle-help.$$" 2>&1
help="${TMPDIR:-/tmp}/spindle-help.$$"
check "help shows every subcommand's options, scenario run and check included" \
  'grep -q "spindle scenario run" "$help" && grep -q -- "--summary" "$help" &&
   grep -q "spindle scenario check" "$help" && grep -q -- "--tracelocation" "$help" &&
   grep -q "spindle conf explain" "$help" && grep -q -- "--seed" "$help"'
check "help and --help list the exit codes" \
  'grep -q "^Exit codes: 0 success" "$help" && "$spindle" --help | grep -q "^Exit codes:"'
rm -f "$help"
for cmd in "sim" "whatif --conf a --conf b"; do
  "$spindle" $cmd --seed -1 --tracetype SLS --tracelocation x.json --output-dir /nonexistent \
    >"${TMPDIR:-/tmp}/spindle-seed.$$" 2>&1; code=$?
  check "$cmd: a negative --seed exits 2 naming the option" \
    '[ $code = 2 ] && grep -q -- "--seed: must be a non-negative integer" "${TMPDIR:-/tmp}/spindle-seed.$$"'
done
rm -f "${TMPDIR:-/tmp}/spindle-seed.$$"
exit $((fails > 0))
