#!/usr/bin/env bash
# `shardlab live` and `shardlab topo` as processes of an mpirun job (ctest label `mpi`): the
# multi-process path is taken, problems are reported once, by rank 0, and every process exits
# with the same status. Usage: cli_under_mpirun.sh MPIRUN SHARDLAB SCENARIO_DIR
set -u
mpirun=$1 shardlab=$2 scenarios=$3
if ! command -v "$mpirun" >/dev/null 2>&1; then
  echo "mpirun not found: skipped"
  exit 77
fi
run() { "$mpirun" --allow-run-as-root --oversubscribe "$@" 2>&1; }
fail() { echo "FAILED: $*"; echo "--- output ---"; echo "$out"; exit 1; }
count() { grep -c -- "$1" <<<"$out" || true; }

# Four processes for a four-rank scenario: everything up to the GPU work runs. With live mode and
# four GPUs it runs and rank 0 prints the table once; otherwise (no live mode, no driver, fewer
# GPUs) rank 0 says why once, and mpirun exits with 2 (bad input) like the single-process command.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
built=0
"$shardlab" --version | grep -q "live mode: built in" && built=1
out=$(run -np 4 "$shardlab" live "$scenarios/straggler-12-6-4-2.shardlab.json"); status=$?
if [ "$built" = 1 ] && [ "${gpus:-0}" -ge 4 ]; then
  [ "$status" -eq 0 ] || fail "live run under mpirun failed with status $status"
  [ "$(count 'straggler rank')" -eq 1 ] || fail "rank 0 should print the table once"
else
  [ "$status" -eq 2 ] || fail "expected exit status 2, got $status"
  [ "$(count 'shardlab: ')" -eq 1 ] || fail "rank 0 should explain exactly once"
  if [ "$built" = 0 ]; then
    [ "$(count 'live mode is not built into this ShardLab')" -eq 1 ] || fail "the explanation should appear exactly once"
  fi
fi

# With live mode and two GPUs: a two-rank scenario runs as two processes, rank 0 prints once.
if [ "$built" = 1 ] && [ "${gpus:-0}" -ge 2 ]; then
  out=$(run -np 2 "$shardlab" live "$scenarios/lab-two-gpu-all-reduce.shardlab.json"); status=$?
  [ "$status" -eq 0 ] || fail "two-process live run failed with status $status"
  [ "$(count 'Clocks: clocks of 2 processes')" -eq 1 ] || fail "rank 0 should print the run once"
fi

# Two processes for a four-rank scenario: rank 0 explains, once.
out=$(run -np 2 "$shardlab" live "$scenarios/straggler-12-6-4-2.shardlab.json"); status=$?
[ "$status" -eq 2 ] || fail "expected exit status 2 for a process count mismatch, got $status"
[ "$(count 'the scenario has 4 ranks but the launcher started 2 processes')" -eq 1 ] || fail "mismatch not explained once"

# A file that does not exist: the same message every process would print, printed once.
out=$(run -np 2 "$shardlab" live /nonexistent.shardlab.json); status=$?
[ "$status" -eq 2 ] || fail "expected exit status 2 for a missing file, got $status"
[ "$(count 'no such file')" -eq 1 ] || fail "missing file not reported exactly once"

# live --stream under the launcher: rank 0 reads the scenario from its standard input and alone
# writes the stream; the other process writes nothing on standard output. Two processes for a
# four-rank scenario: the stream is one error line saying so, exit status 2.
out=$("$mpirun" --allow-run-as-root --oversubscribe -np 2 "$shardlab" live --stream - \
      < "$scenarios/straggler-12-6-4-2.shardlab.json" 2>/dev/null); status=$?
[ "$status" -eq 2 ] || fail "live --stream, process count mismatch: expected exit status 2, got $status"
[ "$(wc -l <<<"$out")" -eq 1 ] || fail "live --stream: expected one line on standard output"
grep -q '"type":"error"' <<<"$out" || fail "live --stream: expected an error line"
[ "$(count 'the scenario has 4 ranks but the launcher started 2 processes')" -eq 1 ] || fail "live --stream: mismatch not in the error line"
# A two-rank scenario on two processes: with live mode and two GPUs, the merged run streamed
# (header, one chunk per iteration, result); otherwise one error line saying why it cannot run.
out=$("$mpirun" --allow-run-as-root --oversubscribe -np 2 "$shardlab" live --stream - \
      < "$scenarios/lab-two-gpu-all-reduce.shardlab.json" 2>/dev/null); status=$?
if [ "$built" = 1 ] && [ "${gpus:-0}" -ge 2 ]; then
  [ "$status" -eq 0 ] || fail "two-process live --stream failed with status $status"
  [ "$(count '"type":"header"')" -eq 1 ] || fail "live --stream: expected one header"
  [ "$(count '"type":"chunk"')" -ge 2 ] || fail "live --stream: expected a chunk per iteration"
  [ "$(count '"type":"result"')" -eq 1 ] || fail "live --stream: expected one result"
else
  [ "$status" -ne 0 ] || fail "live --stream without GPUs should fail"
  [ "$(wc -l <<<"$out")" -eq 1 ] || fail "live --stream without GPUs: expected one line on standard output"
  grep -q '"type":"error"' <<<"$out" || fail "live --stream without GPUs: expected an error line"
fi

# topo --json under the launcher (what the app asks before a run through srun/mpirun): one object,
# from rank 0, with the job's machine or why there is none.
out=$("$mpirun" --allow-run-as-root --oversubscribe -np 2 "$shardlab" topo --json 2>/dev/null); status=$?
python3 -c 'import json, sys; d = json.loads(sys.stdin.read()); assert (d["topology"] is None) != (d["error"] is None)' <<<"$out" \
  || fail "topo --json under mpirun: expected one JSON object with a topology or an error"

# topo: the combined topology where the GPUs can be identified, else one message naming the ranks.
out=$(run -np 2 "$shardlab" topo); status=$?
if [ "$status" -eq 0 ]; then
  grep -q "GPU1" <<<"$out" || fail "topo printed no matrix"
else
  [ "$status" -eq 3 ] || fail "topo: expected 0 or 3, got $status"
  [ "$(count 'rank 1 (')" -eq 1 ] || fail "topo should name rank 1 once"
fi
echo "cli under mpirun: OK"
