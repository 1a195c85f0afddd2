#!/usr/bin/env bash
# Every file in bad-scenarios/ must be refused with exit code 2 and a message that names where
# the problem is; failing-expectation.json must exit 1 (a failed check, not bad input).
set -u
spindle=$1; dir=$2; fails=0
expect() {  # file, exit code, text the message must contain
  local out code
  out=$("$spindle" scenario check "$dir/$1" 2>&1); code=$?
  [ "$code" -ge 128 ] && out="(killed by a signal) $out"
  if [ "$code" != "$2" ] || ! grep -qF -- "$3" <<<"$out"; then
    echo "FAIL $1: exit $code (want $2), output:"; echo "$out" | sed 's/^/    /'; fails=$((fails+1))
  else
    echo "ok   $1 -> $2: $(grep -F -- "$3" <<<"$out" | head -1)"
  fi
}
expect negative-ask.json 2 "steps[1].ask.resource.memory-mb: expected a non-negative integer"
expect unknown-node.json 2 "steps[0] (heartbeat): unknown node 'h9'"
expect unknown-resource-type.json 2 "yarn.io/gpu: unknown resource type"
expect malformed-xml.json 2 "configuration.yarn-site"
expect malformed-json.json 2 "malformed JSON"
expect ask-above-maximum.json 2 "exceeds the maximum allocation"
expect unknown-step.json 2 "unknown step 'heartbaet'"
expect unknown-scheduler.json 2 "unknown scheduler 'lottery'"
expect malformed-max-attempts.json 2 "configuration.yarn-site.yarn.resourcemanager.am.max-attempts: expected an integer, got 'two'"
expect malformed-acl-enable.json 2 "configuration.yarn-site.yarn.acl.enable: expected true or false, got 'yes'"
expect zero-heartbeat-interval.json 2 "configuration.yarn-site.yarn.resourcemanager.nodemanagers.heartbeat-interval-ms: must be larger than 0, got 0"
expect failing-expectation.json 1 "state metrics.totalMB: expected 1, got 4096"
expect does-not-exist.json 2 "cannot open the scenario file"
# Values the JSON parser or a conversion would throw on: an error naming where, never an abort.
expect number-overflow.json 2 "number-overflow.json:2:65: malformed JSON at byte 108: number overflow parsing '1e999' (field 'memory-mb')"
expect string-tolerance.json 2 "steps[0].expect.state.metrics.totalMB.tolerance: expected a number, got \"0.01\""
expect string-count.json 2 "steps[1].expect.allocations[0].count: expected an integer, got \"2\""
expect huge-integer.json 2 "steps[1].ask.count: expected an integer, got 1e+300"
expect container-not-string.json 2 "steps[1].expect.kills[0].container: expected a string, got 7"
# Generated deep nesting (a million levels in a wrong-typed field): refused at the parser with
# its position, not dumped into the message recursively.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 -c "import sys; n=1000000; sys.stdout.write('{\"spindleScenario\": 1, \"scheduler\": ' + '['*n + ']'*n + ', \"steps\": []}')" >"$tmp/deep.json"
dir=$tmp expect deep.json 2 "deep.json:1:100: malformed JSON at byte 99: arrays and objects nested deeper than 64 levels"
exit $((fails > 0))
