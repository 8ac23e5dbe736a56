#!/usr/bin/env bash
# Golden outputs: what users and scripts read from the command line (the `sim` table and its
# --json, bench, diagnose, compare, scale, and --help of every command), in English and Chinese,
# pinned in tests/golden/expected/. Each case of cases.txt runs from the source folder (so paths
# in the output are relative); its standard output, standard error and exit status are compared
# with the file, and a mismatch prints a unified diff.
#
#   golden.sh SHARDLAB SOURCE_DIR            compare (the test)
#   golden.sh SHARDLAB SOURCE_DIR --update   write the expected files anew (then read the diff
#                                            with `git diff tests/golden` before committing)
set -uo pipefail
shardlab=$1
src=$2
update=${3:-}
cases="$src/tests/golden/cases.txt"
expected="$src/tests/golden/expected"
mkdir -p "$expected"
cd "$src" || exit 2
failed=0
count=0
while IFS=$'\t' read -r name args; do
  case "$name" in '' | '#'*) continue ;; esac
  for lang in en zh; do
    count=$((count + 1))
    file="$expected/$name.$lang.txt"
    # no locale, no terminal, no environment of the machine's: the same bytes everywhere
    # shellcheck disable=SC2086
    actual=$(env -i PATH="$PATH" HOME=/nonexistent LC_ALL=C.UTF-8 "$shardlab" --lang "$lang" $args 2>&1; echo "[exit status $?]")
    if [ "$update" = --update ]; then
      printf '%s\n' "$actual" >"$file"
    elif [ ! -f "$file" ]; then
      echo "== $name ($lang): no expected output ($file); run: $0 $shardlab $src --update"
      failed=$((failed + 1))
    elif ! diff -u --label "expected $name.$lang.txt" --label "shardlab --lang $lang $args" "$file" <(printf '%s\n' "$actual"); then
      echo "== $name ($lang) differs (above); if the change is intended: $0 $shardlab $src --update"
      failed=$((failed + 1))
    fi
  done
done <"$cases"
if [ "$update" = --update ]; then
  echo "wrote $count expected outputs to $expected"
  exit 0
fi
[ "$count" -gt 0 ] || { echo "no cases in $cases"; exit 1; }
[ "$failed" -eq 0 ] && { echo "all $count golden outputs match"; exit 0; }
echo "$failed of $count golden outputs differ"
exit 1
