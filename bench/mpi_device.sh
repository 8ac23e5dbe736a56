#!/usr/bin/env bash
# Multi-process live runs, reliability and the GUI on a GPU machine, in one go (what
# docs/mpi.md's and docs/reliability.md's measured sections and docs/benchmarks.md's calibration
# accuracy were measured with). DIR holds what bench/carry_mpi.sh packed; results go to OUT (at
# most 8 files: log.txt, gpu_tests.txt, stress.txt, the run page's screenshot, results.tar.gz).
#   bench/mpi_device.sh DIR OUT [STEPS]
# STEPS, comma-separated, in this order by default:
#   env       the machine, Open MPI, what the programs load
#   mpi       a scenario's results and all-reduce bandwidth, one process against mpirun -np 2
#   kill      kill -9 one rank mid-run (rank 1, then rank 0): the job's end, its message, its time
#   hang      a skipped all-reduce under mpirun: the watchdog and the merged hang report
#   oversize  a buffer larger than free memory, one process and under mpirun (--no-scale)
#   topo      shardlab topo, alone and under mpirun
#   stream    mpirun -np 2 shardlab live --stream -: rank 0 streams the merged run (issue 18)
#   cli       tests/mpi/cli_under_mpirun.sh (the `mpi` ctest label's command-line test)
#   shot      the run page on a live 2-GPU run, offscreen, as a PNG
#   tests     shardlab_gpu_tests (the `gpu` ctest label, with stress below)
#   stress    test_live_stress: 100 start/cancel cycles through the GUI's run controller
#   calib     bench/calibration_accuracy.sh on the GPUs present
# NCCL: the pip package nvidia-nccl-cu13's. NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
set -uo pipefail
dir=$(cd "$1" && pwd)
out=$2
steps=${3:-env,mpi,kill,hang,oversize,topo,stream,cli,shot,tests,stress,calib}
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/log.txt
res=$(mktemp -d)/results
mkdir -p "$res"
source "$dir/device_env.sh" "$dir"
trap 'rm -rf "$root" "$(dirname "$res")"' EXIT
sl=$S
[ -d resources ] && export SHARDLAB_RESOURCE_DIR=$PWD/resources
mpirun=(mpirun --allow-run-as-root --mca btl_vader_single_copy_mechanism none -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE
        -x NCCL_DEBUG -x SHARDLAB_LIVE_LIBRARY -x SHARDLAB_MPI_MODULE -x QT_QPA_PLATFORM)
[ -n "${SHARDLAB_RESOURCE_DIR:-}" ] && mpirun+=(-x SHARDLAB_RESOURCE_DIR)
has() { [[ ",$steps," == *",$1,"* ]]; }
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$(now)"; }
exec > >(tee -a "$log") 2>&1

if has env; then
  step "env"
  date -u
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,memory.used --format=csv
  nvidia-smi topo -m
  mpirun --version | head -1
  echo "NCCL from: ${nccl:-system}"; uname -r; grep PRETTY /etc/os-release
  for f in "$sl" "$SHARDLAB_LIVE_LIBRARY" "$SHARDLAB_MPI_MODULE" "$b/tests/gui/runpage_demo"; do
    missing=$(ldd "$f" | grep "not found")
    echo "ldd $(basename "$f"): ${missing:-all found}"
  done
  "$sl" --version
fi

# A live run's --json and result file, alone and under mpirun -np 2.
single() { timeout 120 "$sl" live "$@"; }
multi() { timeout 120 "${mpirun[@]}" -np 2 "$sl" live "$@"; }

if has mpi; then
  step "mpi: the straggler scenario, one process and two"
  single "$dir/live-straggler-2.shardlab.json" --result "$res/straggler-single.result.json" --trace "$res/straggler-single.trace.json"
  echo "exit status $?"
  multi "$dir/live-straggler-2.shardlab.json" --result "$res/straggler-mpi.result.json" --trace "$res/straggler-mpi.trace.json"
  echo "exit status $?"
  step "mpi: all-reduce 128 MiB .. 2 GiB, one process and two, twice each"
  for round in 1 2; do
    single "$dir/mpi-allreduce-2.shardlab.json" --json --result "$res/ar-single-$round.result.json" > "$res/ar-single-$round.json"
    echo "single $round: exit status $?"
    multi "$dir/mpi-allreduce-2.shardlab.json" --json --result "$res/ar-mpi-$round.result.json" > "$res/ar-mpi-$round.json"
    echo "mpirun -np 2, round $round: exit status $?"
  done
  python3 - "$res" <<'EOF'
import json, sys, glob, statistics
res = sys.argv[1]
def load(p):
    try:
        return json.load(open(p))  # --json output must be exactly one JSON object
    except Exception as e:
        print(f"{p}: not one JSON object: {e}"); return None
for name in ("straggler", "ar"):
    for f in sorted(glob.glob(f"{res}/{name}-*.result.json")):
        r = load(f)
        if r:
            wrong = sum(c.get("wrong_elements", 0) for c in r["run"]["collectives"])
            print(f"{f.split('/')[-1]}: launch '{r['launch']}', {len(r['run']['collectives'])} collectives, #wrong {wrong}, hang {r['run']['hang'] is not None}")
            print(f"   clock: {r['clock']}")
rows = {}
for f in sorted(glob.glob(f"{res}/ar-*-?.json")):
    j = load(f)
    if not j: continue
    kind = "mpi" if "-mpi-" in f else "single"
    for c in j["collectives"]:
        rows.setdefault(c["name"], {}).setdefault(kind, []).append(c["busbw_gbps"])
print(f"{'collective':22} {'single busbw (GB/s)':>22} {'mpirun -np 2':>22} {'diff':>8}")
for name, k in rows.items():
    s, m = statistics.mean(k.get("single", [0])), statistics.mean(k.get("mpi", [0]))
    print(f"{name:22} {' / '.join(f'{x:.1f}' for x in k.get('single', [])):>22} {' / '.join(f'{x:.1f}' for x in k.get('mpi', [])):>22} {100 * (m - s) / s if s else float('nan'):+7.2f}%")
EOF
fi

if has kill; then
  for victim in 1 0; do
    step "kill: kill -9 rank $victim of a running job"
    timeout 90 "${mpirun[@]}" -np 2 "$sl" live "$dir/mpi-long-2.shardlab.json" > "$res/kill-rank$victim.out" 2> "$res/kill-rank$victim.err" &
    job=$!
    sleep 8
    pid=""
    for p in $(pgrep -f "mpi-long-2.shardlab.json"); do
      [ "$p" = "$job" ] && continue
      tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$victim" && pid=$p
    done
    if [ -z "$pid" ]; then echo "rank $victim's process not found"; kill "$job"; wait "$job"; continue; fi
    t0=$(now)
    kill -9 "$pid"
    wait "$job"
    status=$?
    echo "killed pid $pid (rank $victim); mpirun exited with $status after $(since "$t0") s"
    grep -h "shardlab:" "$res/kill-rank$victim.err" "$res/kill-rank$victim.out" | head -5
  done
fi

if has hang; then
  step "hang: rank 1 skips an all-reduce, watchdog 2 s, under mpirun"
  t0=$(now)
  multi "$dir/mpi-hang-2.shardlab.json" --watchdog-ms 2000 > "$res/hang.out" 2> "$res/hang.err"
  echo "exit status $? after $(since "$t0") s"
  grep -iE "hang|watchdog|last completed|rank [01]" "$res/hang.out" "$res/hang.err" | head -20
  step "hang: the same scenario in one process"
  t0=$(now)
  single "$dir/mpi-hang-2.shardlab.json" --watchdog-ms 2000 > "$res/hang-single.out" 2>&1
  echo "exit status $? after $(since "$t0") s"
  grep -iE "hang|watchdog|last completed" "$res/hang-single.out" | head -10
fi

if has oversize; then
  step "oversize: a 100 GB reduce onto rank 1, --no-scale, one process then mpirun"
  single "$dir/mpi-oversize-2.shardlab.json" --no-scale; echo "exit status $?"
  multi "$dir/mpi-oversize-2.shardlab.json" --no-scale; echo "exit status $?"
  step "oversize: the same, scaled to fit (the default)"
  single "$dir/mpi-oversize-2.shardlab.json" | tail -4; echo "exit status $?"
  multi "$dir/mpi-oversize-2.shardlab.json" | tail -4; echo "exit status $?"
  nvidia-smi --query-gpu=index,memory.used --format=csv
fi

if has topo; then
  step "topo: one process, then under mpirun -np 2"
  timeout 60 "$sl" topo
  timeout 60 "${mpirun[@]}" -np 2 "$sl" topo; echo "exit status $?"
fi

if has stream; then
  # Issue 18 on two GPUs: rank 0 streams the merged run, one chunk per iteration while it runs,
  # the other rank writes nothing to standard output.
  step "stream: mpirun -np 2 shardlab live --stream - (rank 0 streams the merged run)"
  timeout 120 "${mpirun[@]}" -np 2 "$sl" live --stream - --iterations 20 < "$dir/mpi-allreduce-2.shardlab.json" \
    2> "$res/stream.err" | python3 -c '
import json, sys, time
t0 = time.monotonic(); rows = [(time.monotonic() - t0, json.loads(l)) for l in sys.stdin]
kinds = [d.get("type", "header") for _, d in rows]
chunks = [t for t, d in rows if d.get("type") == "chunk"]
print("lines", len(rows), "kinds", sorted(set(kinds)), "chunks", len(chunks))
res = [d for _, d in rows if d.get("type") == "result"]
print("result ranks", res[0]["ranks"] if res else None, "clock:", res[0]["clock"][:160] if res else "")
ok = res and len(chunks) == 20 and res[0]["ranks"] == 2 and chunks[-1] - chunks[0] > 0
print("PASS rank 0 streams the merged run" if ok else "FAIL")'
  tail -n 3 "$res/stream.err"
fi

if has cli; then
  step "cli: tests/mpi/cli_under_mpirun.sh"
  [ -d resources/scenarios ] && timeout 240 bash "$dir/cli_under_mpirun.sh" mpirun "$sl" "$PWD/resources/scenarios"
  echo "exit status $?"
fi

if has shot; then
  step "shot: the run page on a live 2-GPU run"
  SHARDLAB_SCREENSHOT=$out/runpage-live-2gpu.png SHARDLAB_QUIT_AFTER_MS=20000 timeout 60 \
    "$b/tests/gui/runpage_demo" "$dir/live-straggler-2.shardlab.json" --live
  echo "exit status $?"; ls -la "$out"/*.png
fi

if has tests; then
  step "tests: shardlab_gpu_tests"
  timeout 400 "$b/tests/shardlab_gpu_tests" --gtest_output="json:$res/gpu_tests.json" > "$out/gpu_tests.txt" 2>&1
  echo "exit status $?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|^\[       OK|Failure|hang|step|clocks:" "$out/gpu_tests.txt" | head -60
fi

if has stress; then
  step "stress: test_live_stress (${STRESS_CYCLES:-100} cycles)"
  nvidia-smi --query-gpu=index,memory.used --format=csv
  timeout 300 "$b/tests/gui/test_live_stress" > "$out/stress.txt" 2>&1
  echo "exit status $?"
  grep -vE "^QDEBUG|^$" "$out/stress.txt" | tail -25
fi

if has calib; then
  step "calib: bench/calibration_accuracy.sh on $gpus GPUs"
  OUT=$res/calibration timeout 240 bash "$dir/calibration_accuracy.sh" "$b" "$gpus" > "$res/calibration.txt" 2>&1
  echo "exit status $?"
  grep -E "median|worst|goal|GPUs:|==" "$res/calibration.txt" | head -40
fi

step "done"
tar -C "$(dirname "$res")" -czf "$out/results.tar.gz" results
ls -la "$out"
