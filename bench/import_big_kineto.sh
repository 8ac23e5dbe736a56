#!/usr/bin/env bash
# Importing big PyTorch profiler (Kineto) traces (issue 28, section 5; docs/benchmarks.md,
# "Importing big traces"). Measures `shardlab import DIR --json` on N ranks of S MB of Kineto JSON
# each (made by bench/make_big_kineto.py from the real 4-rank samples, rank 1 the straggler):
# wall time and peak resident memory (/usr/bin/time -v), against the targets
#   * 8 ranks x 150 MB import in under 30 s on the 2-core dev machine,
#   * peak memory below twice the largest single file (a streaming parser: memory must not grow
#     with the files' size; compare with a smaller --mb),
# and checks that the import names the straggler the files were made with. Exits non-zero when the
# straggler is wrong or the import fails; missing a target is printed (MISSED), not an error.
#
#   bench/import_big_kineto.sh [--shardlab BIN] [--ranks N] [--mb S] [--gzip] [--dir DIR] [--keep]
#
# Without --dir the traces are generated into a fresh folder under /tmp and deleted afterwards
# (--keep keeps them); with --dir, DIR is used as it is when it holds kineto_rank*.json[.gz], else
# generated there (and kept). BIN defaults to build/app/cli/shardlab.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/app/cli/shardlab
ranks=8 mb=150 gz="" dir="" keep=0 straggler=1
while [ $# -gt 0 ]; do
  case $1 in
    --shardlab) bin=$2; shift ;;
    --ranks) ranks=$2; shift ;;
    --mb) mb=$2; shift ;;
    --gzip) gz=--gzip ;;
    --dir) dir=$2; shift ;;
    --keep) keep=1 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$bin" ] || { echo "no shardlab binary at $bin (build it, or give --shardlab BIN)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }

if [ -z "$dir" ]; then
  dir=$(mktemp -d /tmp/shardlab-big-kineto.XXXXXX)
  [ "$keep" = 1 ] || trap 'rm -rf "$dir"' EXIT
fi
if ! ls "$dir"/kineto_rank*.json* >/dev/null 2>&1; then
  t0=$(date +%s.%N)
  python3 "$root/bench/make_big_kineto.py" "$dir" --ranks "$ranks" --mb "$mb" --straggler "$straggler" $gz >/dev/null
  echo "generated in $(echo "$(date +%s.%N) - $t0" | bc | xargs printf '%.1f') s: $dir"
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); shardlab: $bin ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "files:"
largest=0 total=0 count=0 text_largest=0 text_total=0
for f in "$dir"/kineto_rank*.json*; do
  s=$(stat -c %s "$f")
  case $f in *.gz) t=$(gzip -dc "$f" | wc -c) ;; *) t=$s ;; esac
  printf '  %-24s %8.1f MB' "$(basename "$f")" "$(echo "$s / 1000000" | bc -l)"
  [ "$t" != "$s" ] && printf ' (%.1f MB of JSON)' "$(echo "$t / 1000000" | bc -l)"
  echo
  [ "$s" -gt "$largest" ] && largest=$s
  [ "$t" -gt "$text_largest" ] && text_largest=$t
  total=$((total + s)) count=$((count + 1)) text_total=$((text_total + t))
done

out=$(mktemp /tmp/shardlab-big-kineto-out.XXXXXX)
tv=$(mktemp /tmp/shardlab-big-kineto-time.XXXXXX)
rc=0
/usr/bin/time -v -o "$tv" "$bin" import "$dir" --json > "$out" 2> "$out.err" || rc=$?
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s}' "$tv")
user=$(awk -F': ' '/User time/ {print $2}' "$tv")
sys=$(awk -F': ' '/System time/ {print $2}' "$tv")
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tv")
peak=$(echo "$rss_kb * 1024 / 1000000" | bc -l)
big=$(echo "$largest / 1000000" | bc -l)
ratio=$(echo "$rss_kb * 1024 / $largest" | bc -l)
named=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["straggler_rank"])' "$out" 2>/dev/null || echo "?")
printf 'import: %d files, %.1f MB in all, exit %d\n' "$count" "$(echo "$total / 1000000" | bc -l)" "$rc"
printf 'wall: %.2f s (user %s s, sys %s s)   target < 30 s: %s\n' "$wall" "$user" "$sys" \
  "$( [ "$(echo "$wall < 30" | bc)" = 1 ] && echo met || echo MISSED )"
printf 'peak RSS: %.1f MB   largest file: %.1f MB   ratio peak/largest: %.2f   target < 2: %s\n' "$peak" "$big" "$ratio" \
  "$( [ "$(echo "$ratio < 2" | bc)" = 1 ] && echo met || echo MISSED )"
[ "$text_largest" != "$largest" ] && printf 'the largest file is %.1f MB of JSON: peak/that %.2f\n' \
  "$(echo "$text_largest / 1000000" | bc -l)" "$(echo "$rss_kb * 1024 / $text_largest" | bc -l)"
printf 'throughput: %.0f MB/s of JSON\n' "$(echo "$text_total / 1000000 / $wall" | bc -l)"
echo "progress on stderr: $(grep -c '^reading' "$out.err" || true) lines; last: $(grep '^reading' "$out.err" | tail -1 | tr -d '\r')"
echo "straggler named: rank $named (made with rank $straggler)"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print("wait per step (ms), rank 0..: " + " ".join("%.1f" % r["wait_ms"] for r in d["per_rank"]))' "$out" 2>/dev/null || true
status=0
if [ "$rc" != 0 ]; then
  echo "the import failed:"; tail -5 "$out.err"; status=1
elif [ "$named" != "$straggler" ]; then
  echo "WRONG straggler"; status=1
fi
rm -f "$out" "$out.err" "$tv"
exit $status
