#!/usr/bin/env bash
# What examples_gpu.sh decides, without a GPU (ctest label `engine`): it runs against stand-ins for
# the examples and for `shardlab` (shell scripts written here) that print what the real ones print
# and write result files made here with known waits and bandwidths, so every verdict is known:
# skipped without a GPU; on one GPU, passed only when the profile says it has one rank; the
# straggler check passes for waits within 5% of the sleep with the sleeping rank named and last,
# and fails otherwise; the sweep check passes within 3% of the bench and fails beyond.
# Usage: examples_gpu_selftest.sh EXAMPLES_GPU_SH
set -u
script=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/ex"
failures=0
expect() { # expect STATUS WHAT CHECK
  local want=$1 what=$2 check=$3 got
  out=$("$script" "$t/shardlab" "$t/ex" "$t/none.py" "$check" 2>&1); got=$?
  if [ "$got" -eq "$want" ]; then
    echo "ok: $what (status $got)"
  else
    echo "WRONG: $what: status $got, expected $want"; echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  fi
}

# The examples: STUB_GPUS GPUs (0: the no-GPU message and status 3); the sweep prints STUB_BUSBW.
cat > "$t/ex/allreduce_verify" <<'EOF'
#!/bin/bash
if [ "$STUB_GPUS" = 0 ]; then echo "allreduce_verify: no GPU to run on (stub)" >&2; exit 3; fi
echo "allreduce_verify: $STUB_GPUS GPU(s), 1024 floats per rank"; echo "verification passed"
EOF
cp "$t/ex/allreduce_verify" "$t/ex/allreduce_straggler"
cat > "$t/ex/allreduce_sweep" <<'EOF'
#!/bin/bash
for s in 67108864 134217728 268435456; do
  echo "  $s $((s / 4)) float sum 100.00 100.00 $STUB_BUSBW 0"
done
echo "verification passed"
EOF
# shardlab: `bench` prints STUB_BENCH; `profile --out DIR -- CMD` runs CMD, then on one GPU says
# there is nothing to draw (status 2) after a record of a one-rank communicator; else copies
# STUB_RESULT to DIR and prints a table naming rank STUB_NAMED the straggler.
cat > "$t/shardlab" <<'EOF'
#!/bin/bash
if [ "$1" = bench ]; then cat "$STUB_BENCH"; exit 0; fi
dir=$3; shift 4; "$@"; mkdir -p "$dir"
if [ "$STUB_GPUS" = 1 ]; then
  echo '{"k":"comm","ctx":1,"hash":"0000000000000001","rank":0,"nranks":1}' > "$dir/h-1.nccl-profile.jsonl"
  [ "${STUB_ONE_RANK_STATUS:-2}" = 2 ] && echo "shardlab: $dir: every communicator recorded has one rank; ..."
  exit "${STUB_ONE_RANK_STATUS:-2}"
fi
cp "$STUB_RESULT" "$dir/profile.shardlab-result.json"
echo "   $STUB_NAMED  NVIDIA H200 1.0 1.0 0.0 - - 141 GB -  <- straggler"
EOF
chmod +x "$t/ex/"* "$t/shardlab"
export STUB_GPUS STUB_BUSBW STUB_BENCH=$t/bench.json STUB_RESULT=$t/result.json STUB_NAMED STUB_ONE_RANK_STATUS

# A result of 3 ranks: 20 all-reduces where rank LAST arrives last, the others WAIT us before it
# (the first all-reduce, left out by the check, waits 50 ms); or 3 sizes of all-reduce at the
# given busbw (time = size / (busbw x 3/4) for 3 ranks).
result() { # result straggler LAST WAIT | result sweep BUSBW
  python3 - "$@" > "$t/result.json" <<'EOF'
import json, sys
colls = []
if sys.argv[1] == "straggler":
    last, wait = int(sys.argv[2]), float(sys.argv[3])
    for k in range(20):
        w = 50000.0 if k == 0 else wait
        t0 = k * 10000.0
        arr = [t0, t0 + 1.0, t0 + 2.0]
        arr[last] = t0 + w
        colls.append({"kind": "all_reduce", "sequence": k, "group": [0, 1, 2], "arrival_us": arr,
                      "start_us": max(arr), "end_us": max(arr) + 100, "last_arrival": last, "bytes": 4194304})
else:
    busbw = float(sys.argv[2])
    for size in (67108864, 134217728, 268435456):
        for k in range(5):
            colls.append({"kind": "all_reduce", "sequence": len(colls), "group": [0, 1, 2], "arrival_us": [0, 0, 0],
                          "start_us": 0.0, "end_us": size / (busbw * 0.75) / 1e3, "last_arrival": 0, "bytes": size})
print(json.dumps({"run": {"ranks": 3, "collectives": colls}}))
EOF
}
echo '{"rows": [{"size": 67108864, "busbw_gbps": 300.0}, {"size": 134217728, "busbw_gbps": 300.0},
       {"size": 268435456, "busbw_gbps": 300.0}]}' > "$t/bench.json"

STUB_GPUS=0; expect 77 "no GPU: skipped" allreduce_verify
STUB_GPUS=1; expect 0 "one GPU: the profile says one rank" allreduce_verify
STUB_ONE_RANK_STATUS=0; expect 1 "one GPU: a profile that does not refuse one rank" allreduce_verify
STUB_ONE_RANK_STATUS=2
STUB_GPUS=3 STUB_NAMED=2
result straggler 2 2000; expect 0 "straggler: waits of exactly the sleep" allreduce_straggler
result straggler 2 2090; expect 0 "straggler: waits 4.5% over the sleep" allreduce_straggler
result straggler 2 1880; expect 1 "straggler: waits 6% under the sleep" allreduce_straggler
result straggler 1 2000; expect 1 "straggler: another rank arrives last" allreduce_straggler
result straggler 2 2000; STUB_NAMED=1; expect 1 "straggler: the profile names another rank" allreduce_straggler
STUB_NAMED=2
result sweep 300; STUB_BUSBW=300.00; expect 0 "sweep: equal to the bench" allreduce_sweep
result sweep 308; STUB_BUSBW=300.00; expect 0 "sweep: the profile 2.7% over" allreduce_sweep
result sweep 300; STUB_BUSBW=289.00; expect 1 "sweep: the program 3.7% under" allreduce_sweep
result sweep 312; STUB_BUSBW=300.00; expect 1 "sweep: the profile 4% over" allreduce_sweep
[ "$failures" -eq 0 ] && echo "all verdicts as expected" || { echo "$failures wrong verdict(s)"; exit 1; }
