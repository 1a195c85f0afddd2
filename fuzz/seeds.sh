#!/usr/bin/env bash
# Lays out the fuzz targets' seed corpora from the project's own inputs: every example and test
# file of a kind goes to OUT/<target>/ (named after its path), sorted by what its text holds.
#
#   fuzz/seeds.sh . build-fuzz/corpus      # then build-fuzz/corpus/{scenario,sls,...}/
#
# Files over 256 KB are left out (a fuzzer mutates small inputs best). Existing files in OUT
# (inputs a fuzzer added) are kept. tests/data/fuzz/<target>/ holds inputs a fuzzer once crashed
# on; they are copied as they are.
set -euo pipefail
src=${1:?usage: seeds.sh SOURCE_DIR OUT_DIR}
out=${2:?usage: seeds.sh SOURCE_DIR OUT_DIR}
targets=(scenario sls rumen synth nodes conf fair)
for t in "${targets[@]}"; do mkdir -p "$out/$t"; done

# The first kind whose marker the text contains; nothing for other files (REST bodies, READMEs).
kind_of() {
  local f=$1
  case "$f" in
    *.xml)
      if grep -q '<allocations' "$f"; then echo fair
      elif grep -q '<configuration' "$f"; then echo conf
      fi ;;
    *.json)
      if grep -q '"spindleScenario"' "$f"; then echo scenario
      elif grep -q '"workloads"' "$f"; then echo synth
      elif grep -qE '"(jobID|mapTasks)"' "$f"; then echo rumen
      elif grep -qE '"(job\.tasks|job\.start\.ms|am\.type|num\.nodes)"' "$f"; then echo sls
      elif grep -q '"rack"' "$f"; then echo nodes
      fi ;;
  esac
}

count=0
while IFS= read -r f; do
  [ "$(stat -c %s "$f")" -le 262144 ] || continue
  k=$(kind_of "$f")
  [ -n "$k" ] || continue
  rel=${f#"$src"/}
  cp "$f" "$out/$k/${rel//\//_}"
  count=$((count + 1))
done < <(find "$src/examples" "$src/tests/scenarios" "$src/tests/bad-scenarios" \
              "$src/tests/data/traces" "$src/tests/data/sim" "$src/tests/data/hadoop-conf" \
              -type f \( -name '*.json' -o -name '*.xml' \) 2>/dev/null | sort)
# Inputs a fuzzer once crashed on (regressions), already sorted by target.
for t in "${targets[@]}"; do
  if [ -d "$src/tests/data/fuzz/$t" ]; then
    for f in "$src/tests/data/fuzz/$t"/*; do
      [ -f "$f" ] && cp "$f" "$out/$t/fuzz-regression_$(basename "$f")" && count=$((count + 1))
    done
  fi
done
for t in "${targets[@]}"; do
  echo "seeds: $t $(find "$out/$t" -type f | wc -l)"
done
echo "seeds: $count file(s) copied to $out"
