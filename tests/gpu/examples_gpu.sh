#!/usr/bin/env bash
# The example programs on real GPUs (ctest label `gpu`, one test per CHECK; bench/profile_device.sh
# runs every CHECK on the GPU machine). Each example runs alone (exit 0, its verification passed),
# then under `shardlab profile --out DIR -- EXAMPLE` (its output passed through and its exit status
# 0 kept). With 2+ GPUs the profile must build the per-rank run (a result file with one rank per
# GPU); on one GPU NCCL 2.28.9 makes no profiler events for a one-rank communicator, so there the
# profile must say so (exit 2, "every communicator recorded has one rank") after the plugin
# recorded the communicator. With 2+ GPUs also:
#   allreduce_straggler: the sleeping rank is the profile's straggler and the last arrival at every
#     all-reduce but the first (see below); each other rank's median wait is within 5% of the
#     injected sleep.
#   allreduce_sweep: at 64M, 128M and 256M, the sweep's own busbw and the profile's busbw (median
#     over that size's all-reduces) are each within 3% of `shardlab bench` on the same sizes.
# Usage: examples_gpu.sh SHARDLAB EXAMPLES_DIR TRAIN_DDP_PY CHECK [WORK_DIR]
#   CHECK: allreduce_verify | reduce_scatter_all_gather | allreduce_buckets | allreduce_sweep |
#          allreduce_straggler | train_ddp
#   WORK_DIR (default: a temporary folder, removed) keeps the profile in WORK_DIR/CHECK and the
#   outputs in WORK_DIR/CHECK.alone.txt, CHECK.profile.txt (and CHECK.bench.json for the sweep).
# Exit status: 0 passed, 1 failed, 77 skipped (no GPU, saying why; train_ddp: no PyTorch).
set -u
shardlab=$1 ex=$2 train=$3 check=$4
if [ $# -ge 5 ]; then
  work=$5
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
export LC_ALL=C          # the CLI's English tables, which this script reads
export NCCL_NVLS_ENABLE=0 # NVLink multicast stays off on the project's GPU machines
fail() { echo "FAILED ($check): $*"; echo "--- output ---"; echo "$out"; exit 1; }

# How many GPUs the examples see, from the first example itself: it exits 3 where there is none.
out=$("$ex/allreduce_verify" --count 1024 --repeat 1 2>&1); status=$?
if [ "$status" -eq 3 ]; then
  echo "skipped: $out"
  exit 77
fi
[ "$status" -eq 0 ] || fail "allreduce_verify --count 1024 exited with status $status"
gpus=$(sed -n 's/^allreduce_verify: \([0-9]*\) GPU(s).*/\1/p' <<<"$out")
[ -n "$gpus" ] || fail "allreduce_verify did not say how many GPUs it used"
echo "$gpus GPU(s)"

case $check in
  allreduce_verify) cmd=("$ex/allreduce_verify" --count 1048576 --repeat 5); ok="verification passed" ;;
  reduce_scatter_all_gather) cmd=("$ex/reduce_scatter_all_gather" --count 1048576 --repeat 5); ok="verification passed" ;;
  allreduce_buckets) cmd=("$ex/allreduce_buckets" --buckets 4 --steps 10 --compute-us 500); ok="median step" ;;
  allreduce_sweep) cmd=("$ex/allreduce_sweep" --min 64M --max 256M --warmup 5 --iters 20 --batches 5); ok="verification passed" ;;
  allreduce_straggler) sleep_us=2000
    cmd=("$ex/allreduce_straggler" --sleep-us $sleep_us --compute-us 500 --steps 20); ok="verification passed" ;;
  train_ddp)
    if ! python3 -c "import torch" >/dev/null 2>&1; then
      echo "skipped: PyTorch is not installed here (python3 -c 'import torch' fails)"
      exit 77
    fi
    if command -v torchrun >/dev/null 2>&1; then launcher=(torchrun); else launcher=(python3 -m torch.distributed.run); fi
    cmd=("${launcher[@]}" --standalone --nproc-per-node "$gpus" "$train" --steps 10); ok="replicas agree" ;;
  *) echo "unknown check '$check'"; exit 1 ;;
esac

# 1. Alone.
out=$("${cmd[@]}" 2>&1); status=$?
[ "$status" -eq 0 ] || fail "${cmd[*]} exited with status $status"
grep -q "$ok" <<<"$out" || fail "${cmd[*]}: no '$ok' in its output"
echo "$out" >"$work/$check.alone.txt"
echo "alone: passed"

# 2. Under shardlab profile.
dir=$work/$check
out=$("$shardlab" profile --out "$dir" -- "${cmd[@]}" 2>&1); status=$?
echo "$out" >"$work/$check.profile.txt"
grep -q "$ok" <<<"$out" || fail "under shardlab profile: no '$ok' in the program's output"
if [ "$gpus" -lt 2 ]; then
  [ "$status" -eq 2 ] || fail "one GPU: expected status 2 (nothing to draw), got $status"
  grep -q "every communicator recorded has one rank" <<<"$out" || fail "one GPU: the profile does not say why it has no run"
  grep -qs '"k":"comm"' "$dir"/*.nccl-profile.jsonl || fail "one GPU: the plugin recorded no communicator in $dir"
  echo "profiled: the program ran under the plugin, which recorded its one-rank communicator; nothing to draw on one GPU"
  exit 0
fi
[ "$status" -eq 0 ] || fail "under shardlab profile: exit status $status"
result=$dir/profile.shardlab-result.json
[ -s "$result" ] || fail "no result file $result"
ranks=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["ranks"])' "$result") || fail "cannot read $result"
[ "$ranks" -eq "$gpus" ] || fail "the profile has $ranks ranks, expected $gpus"
echo "profiled: $ranks ranks in $result"

# 3. What the profile must show.
if [ "$check" = allreduce_straggler ]; then
  last=$((gpus - 1))
  named=$(awk '/<- straggler/ { print $1 }' <<<"$out")
  [ "$named" = "$last" ] || fail "the profile names '${named:-no rank}' the straggler, expected rank $last (the sleeping one)"
  python3 - "$result" "$last" "$sleep_us" <<'EOF' || fail "waits (see above)"
import json, statistics, sys
run = json.load(open(sys.argv[1]))["run"]
straggler, sleep = int(sys.argv[2]), float(sys.argv[3])
colls = [c for c in run["collectives"] if c["kind"] == "all_reduce"]
# The first all-reduce is left out: NCCL connects the ranks when it is issued, before any rank's
# kernel is launched, so the straggler's sleep may be over before the others arrive.
later = [c for c in colls if c["sequence"] > 0]
ok = len(later) > 0
for c in later:
    if c["last_arrival"] != straggler:
        print(f"all-reduce #{c['sequence']}: last arrival rank {c['last_arrival']}, not {straggler}")
        ok = False
for r in range(run["ranks"]):
    if r == straggler:
        continue
    waits = [c["start_us"] - c["arrival_us"][c["group"].index(r)] for c in later if r in c["group"]]
    w = statistics.median(waits)
    off = (w - sleep) / sleep
    print(f"rank {r}: median wait {w:.1f} us over {len(waits)} all-reduces, injected sleep {sleep:.0f} us ({off:+.1%})")
    ok = ok and abs(off) <= 0.05
sys.exit(0 if ok else 1)
EOF
fi
if [ "$check" = allreduce_sweep ]; then
  "$shardlab" bench --collective all_reduce --gpus "$gpus" --sizes 64M:256M:2 --json >"$work/$check.bench.json" 2>"$work/$check.bench.err" \
    || { out=$(cat "$work/$check.bench.err"); fail "shardlab bench failed"; }
  python3 - "$result" "$gpus" "$work/$check.bench.json" "$work/$check.alone.txt" <<'EOF' || fail "busbw (see above)"
import json, statistics, sys
bench = {r["size"]: r["busbw_gbps"] for r in json.load(open(sys.argv[3]))["rows"]}
n = int(sys.argv[2])
sweep = {}
for line in open(sys.argv[4]).read().splitlines():
    f = line.split()
    if len(f) == 8 and f[0].isdigit() and f[2] == "float":
        sweep[int(f[0])] = float(f[6])
prof = {}
for c in json.load(open(sys.argv[1]))["run"]["collectives"]:
    if c["kind"] == "all_reduce" and c["end_us"] > c["start_us"]:
        algbw = c["bytes"] / (c["end_us"] - c["start_us"]) / 1e3  # bytes/us -> GB/s
        prof.setdefault(c["bytes"], []).append(algbw * 2 * (n - 1) / n)
ok = True
for size in sorted(bench):
    b = bench[size]
    for what, got in (("sweep", sweep.get(size)), ("profile", statistics.median(prof[size]) if size in prof else None)):
        if got is None:
            print(f"{size} B: no {what} figure"); ok = False; continue
        off = (got - b) / b
        print(f"{size} B: {what} busbw {got:.2f} GB/s, shardlab bench {b:.2f} GB/s ({off:+.1%})")
        ok = ok and abs(off) <= 0.03
sys.exit(0 if ok else 1)
EOF
fi
echo "passed"
