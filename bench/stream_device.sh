#!/usr/bin/env bash
# Issue 18's check on a GPU machine: `shardlab live --stream -` read back by the app's reader (the
# path of Run > Live on…, without ssh), that its chunks arrive one per iteration while the run goes
# on (not all at the end), a screenshot of the run page at the end of a streamed live run, the
# stream read by `shardlab` itself, then every GPU test. DIR is what bench/carry_mpi.sh
# packs; results go to OUT.
#   bench/stream_device.sh DIR OUT
set -uo pipefail
dir=$(cd "$1" && pwd); out=$2
mkdir -p "$out"
source "$dir/device_env.sh" "$dir"
scenario=$dir/live-overlap-1.shardlab.json
{
  echo "== date"; date -u; nvidia-smi -L
  echo "== shardlab live --stream - (first and last lines, line count)"
  $S live --stream - < "$scenario" > "$out/live.stream"; echo "exit $?"
  head -c 600 "$out/live.stream"; echo; tail -n 1 "$out/live.stream" | head -c 300; echo; wc -l < "$out/live.stream"
  echo "== chunks arrive while the run goes on (30 iterations; arrival time of every line)"
  # Each line is stamped as it arrives through the pipe. PASS when there is one chunk per
  # iteration and the chunks arrived spread over the run as its iterations were (first to last
  # chunk at least half of first to last iteration end, from the stream's own iteration marks),
  # i.e. not all at the end.
  $S live --stream - --iterations 30 < "$scenario" 2> "$out/live-timed.err" | python3 -c '
import json, sys, time
t0 = time.monotonic(); rows = []
for line in sys.stdin:
    rows.append((time.monotonic() - t0, json.loads(line)))
chunks = [(t, d) for t, d in rows if d.get("type") == "chunk"]
res = [t for t, d in rows if d.get("type") == "result"]
marks = [m for _, d in chunks for m in d["iterations"]]
print("lines", len(rows), "chunks", len(chunks), "result at %.3f s" % res[0] if res else "no result")
for t, d in chunks[:3] + chunks[-2:]:
    print("  chunk done=%d at %.3f s (%d spans)" % (d["done"], t, len(d["spans"])))
spread = chunks[-1][0] - chunks[0][0] if chunks else 0
run = (marks[-1][1] - marks[0][1]) / 1e6 if len(marks) > 1 else 0
print("first to last chunk %.3f s; first to last iteration end %.3f s" % (spread, run))
ok = res and len(chunks) == 30 and run > 0 and spread >= 0.5 * run
print("PASS chunks arrive before the end" if ok else "FAIL chunks did not arrive as the iterations completed")
'
  tail -n 3 "$out/live-timed.err"
  echo "== what streaming costs: wall time of 30 iterations with --stream (a clock probe after each) and without"
  t0=$(date +%s.%N); $S live --stream - --iterations 30 < "$scenario" > /dev/null 2>&1; t1=$(date +%s.%N)
  $S live "$scenario" --iterations 30 > /dev/null 2>&1; t2=$(date +%s.%N)
  python3 -c "import sys; a, b, c = map(float, sys.argv[1:]); print('with --stream %.3f s, without %.3f s: %.2f ms per iteration' % (b - a, c - b, (b - a - (c - b)) * 1e3 / 30))" "$t0" "$t1" "$t2"
  echo "== the same run without --stream"
  $S live "$scenario" | grep -E "step time|gradient"
  echo "== the run page reading the stream (runpage_demo --stream-command)"
  SHARDLAB_SCREENSHOT=$out/stream-runpage.png SHARDLAB_QUIT_AFTER_MS=20000 timeout 60 \
    $b/tests/gui/runpage_demo "$scenario" --stream-command "$S live --stream -" 2>&1 | tail -5
  ls -la "$out/stream-runpage.png"
  echo "== shardlab_gpu_tests"
  timeout 400 $b/tests/shardlab_gpu_tests 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED) |PASSED|FAILED|Failure" | head -60
  echo "== test_live_stress"; timeout 200 $b/tests/gui/test_live_stress 2>&1 | grep -E "^(PASS|FAIL|Totals)" | head -20
} > "$out/stream-device.txt" 2>&1
cat "$out/stream-device.txt"
