#!/usr/bin/env bash
# `shardlab live --share-gpu N` on a real GPU (ctest label `gpu`, one test per CHECK): the
# scenario's ranks as processes taking turns on one GPU, NCCL over loopback sockets. Timings mean
# nothing there; what must hold is what the ranks compute, check and wait for:
#   run        2 ranks: exit 0 (every collective verified), the table's first note and the result
#              file say "2 ranks shared one GPU", the launch line names ShardLab's launcher
#   straggler  bench/share-gpu-straggler-2: rank 0 idles 300 ms before each all-reduce (an injected
#              delay, real on a shared GPU): rank 0 is the straggler and rank 1 waits at least a
#              third of the step. (The 16/8 GB straggler of two GPUs does not show on one: over
#              loopback sockets its 1 GB all-reduce took 537 ms against 4.4 ms of imbalance, H200,
#              2026-12-05.)
#   four       the course's 12/6/4/2 straggler on 4 ranks: rank 0 is the straggler, the run is marked 4
#   hang       rank 1 skips an all-reduce: the watchdog ends the job with exit 3 and the hang report
#              naming rank 1 as the first that differs, finished while rank 0 waits in the all-reduce
#              (rank 1 keeps its communicator until rank 0 has ended: had it
#              closed it, NCCL over sockets would have failed rank 0 at once, 2026-12-05)
#   stream     `--stream -` with the scenario on standard input: one header, chunks, the result line
#              marked as shared (what Run > Live with N ranks on this one GPU reads)
#   report     the lab report of the run's result file says the ranks shared one GPU
#   zh         the same run in Chinese: the note in Chinese
#   kill       kill -9 one rank's process mid-run: the job ends by itself within a minute, non-zero,
#              naming the rank, and no rank's process is left
#   oversize   100 GB asked of 2 ranks on one card: scaled to fit the card shared by both, said in a note
# Usage: share_gpu_gpu.sh SHARDLAB SCENARIO_DIR BENCH_DIR CHECK [WORK_DIR]
# Exit status: 0 passed, 1 failed, 77 skipped (no usable GPU here, saying why).
set -u
shardlab=$1 scenarios=$2 bench=$3 check=$4
if [ $# -ge 5 ]; then
  work=$5
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
export LC_ALL=C          # the CLI's English tables, which this script reads
export NCCL_NVLS_ENABLE=0 # NVLink multicast stays off on the project's GPU machines
s2=$bench/live-straggler-2.shardlab.json
out=""
fail() { echo "FAILED ($check): $*"; echo "--- output ---"; echo "$out"; exit 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# Whether live mode runs here at all: the refusal before anything starts is the skip.
out=$("$shardlab" live "$s2" --share-gpu 2 --iterations 1 --no-timeline 2>&1); status=$?
if [ "$status" -eq 2 ] && grep -qiE "live mode|no GPU|CUDA" <<<"$out"; then
  echo "skipped: $out"
  exit 77
fi

case $check in
run)
  out=$(timeout 300 "$shardlab" live "$s2" --share-gpu 2 --result "$work/run.json" 2>&1); status=$?
  [ "$status" -eq 0 ] || fail "exit status $status"
  grep -q "2 ranks shared one GPU: results and waits are real, times are not those of 2 GPUs" <<<"$out" || fail "no note"
  grep -q "2 ranks on GPU" <<<"$out" || fail "the launcher did not say what it starts"
  [ "$(json "$work/run.json" "d['run']['shared_gpu_ranks']")" = 2 ] || fail "the result file is not marked"
  [ "$(json "$work/run.json" "sum(c.get('wrong_elements', 0) for c in d['run']['collectives'])")" = 0 ] || fail "wrong elements"
  grep -q "ShardLab (--share-gpu)" <<<"$out" || fail "the launch line does not name ShardLab's launcher"
  ;;
straggler)
  out=$(timeout 300 "$shardlab" live "$bench/share-gpu-straggler-2.shardlab.json" --share-gpu 2 --json 2>"$work/err.txt"); status=$?
  [ "$status" -eq 0 ] || fail "exit status $status: $(cat "$work/err.txt")"
  echo "$out" > "$work/straggler.json"
  [ "$(json "$work/straggler.json" "d['straggler_rank']")" = 0 ] || fail "rank 0 is not the straggler"
  share=$(json "$work/straggler.json" "d['per_rank'][1]['wait_ms'] / d['step_time_ms']")
  python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.33 else 1)" "$share" || fail "rank 1 waits $share of the step"
  echo "rank 1 waits $share of the step"
  ;;
four)
  out=$(timeout 400 "$shardlab" live "$scenarios/straggler-12-6-4-2.shardlab.json" --share-gpu 4 --json --result "$work/four.json" 2>"$work/err.txt"); status=$?
  [ "$status" -eq 0 ] || fail "exit status $status: $(cat "$work/err.txt")"
  echo "$out" > "$work/four-summary.json"
  [ "$(json "$work/four-summary.json" "d['straggler_rank']")" = 0 ] || fail "rank 0 is not the straggler"
  [ "$(json "$work/four.json" "d['run']['shared_gpu_ranks']")" = 4 ] || fail "not marked 4"
  ;;
hang)
  out=$(timeout 300 "$shardlab" live "$bench/mpi-hang-2.shardlab.json" --share-gpu 2 --watchdog-ms 3000 2>&1); status=$?
  [ "$status" -eq 3 ] || fail "exit status $status (3 expected)"
  # the merged hang report, not NCCL's error from a peer that closed its communicator first
  grep -q "the run hung: .*rank 1 is the first that differs" <<<"$out" || fail "no hang report naming rank 1"
  grep -q "rank 1: last completed collective #2, finished its part of the run" <<<"$out" || fail "rank 1's part is not in it"
  ;;
stream)
  timeout 300 "$shardlab" live - --share-gpu 2 --stream < "$s2" > "$work/stream.jsonl" 2> "$work/err.txt"; status=$?
  out=$(head -c 2000 "$work/stream.jsonl"; cat "$work/err.txt")
  [ "$status" -eq 0 ] || fail "exit status $status"
  python3 - "$work/stream.jsonl" <<'PY' || fail "the stream is not one header, chunks and a shared result"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
types = [l.get("type") for l in lines]
assert types[0] == "header", types[:3]
assert types[-1] == "result", types[-3:]
assert "chunk" in types, types
run = lines[-1].get("run", lines[-1])
assert run.get("shared_gpu_ranks") == 2, list(run.keys())
PY
  ;;
report)
  timeout 300 "$shardlab" live "$s2" --share-gpu 2 --result "$work/run.json" > /dev/null 2>&1 || fail "the run failed"
  out=$("$shardlab" report "$work/run.json" -o "$work/report.html" 2>&1) || fail "report failed"
  grep -q "2 ranks shared one GPU" "$work/report.html" || fail "the report does not say so"
  ;;
zh)
  out=$(timeout 300 "$shardlab" --lang zh live "$s2" --share-gpu 2 2>&1); status=$?
  [ "$status" -eq 0 ] || fail "exit status $status"
  grep -q "2 个 Rank 共用了一块 GPU" <<<"$out" || fail "no Chinese note"
  ;;
kill)
  timeout 120 "$shardlab" live "$bench/mpi-long-2.shardlab.json" --share-gpu 2 > "$work/kill.out" 2> "$work/kill.err" &
  job=$!
  sleep 12
  launcher=$(pgrep -P "$job" -f "live" | head -1)
  victim=$(pgrep -P "${launcher:-0}" | tail -1)
  [ -n "$victim" ] || { kill "$job"; wait "$job"; out=$(cat "$work/kill.err"); fail "no rank process found"; }
  t0=$(date +%s)
  kill -9 "$victim"
  wait "$job"; status=$?
  took=$(( $(date +%s) - t0 ))
  out=$(cat "$work/kill.out" "$work/kill.err")
  echo "killed rank process $victim; the job exited with $status after $took s"
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "exit status $status"
  [ "$took" -le 60 ] || fail "took $took s"
  grep -q "rank 1" <<<"$out" || fail "the message does not name rank 1"
  [ -z "$(pgrep -f "mpi-long-2.shardlab.json")" ] || fail "a rank's process was left running"
  ;;
oversize)
  out=$(timeout 300 "$shardlab" live "$bench/mpi-oversize-2.shardlab.json" --share-gpu 2 2>&1); status=$?
  [ "$status" -eq 0 ] || fail "exit status $status"
  grep -q "collective sizes scaled by" <<<"$out" || fail "no scaling note"
  grep -q "2 ranks shared one GPU" <<<"$out" || fail "not marked"
  ;;
*)
  echo "unknown check $check"; exit 1 ;;
esac
echo "passed ($check)"
