#!/usr/bin/env bash
# The same scenario and seed give the same decision log and snapshots, byte for byte.
set -eu
spindle=$1; scenario=$2; out=$3
rm -rf "$out"; mkdir -p "$out"
"$spindle" scenario run "$scenario" --out "$out/a" >/dev/null
"$spindle" scenario run "$scenario" --out "$out/b" >/dev/null
test -s "$out/a/decisions.jsonl"
diff -r "$out/a" "$out/b"
echo "identical: $(wc -l < "$out/a/decisions.jsonl") decisions"
