#!/usr/bin/env bash
# Issue 28's real sample files (tests/import/data/README.md says what each is), made in one call
# on the GPU machine, ranks sharing its one GPU (each its own NCCL_HOSTID, sockets on the loopback):
#   1. Kineto traces (+ Flight Recorder dumps) of bench/import_samples_train.py --mode ddp, 2 and 4 ranks
#   2. a Flight Recorder "hang": rank 1 skips one all_reduce, 20 s NCCL timeout, 2 ranks
#   3. nccl-tests all_reduce_perf -J (MPI build, 2 and 4 ranks; else 1 rank), built here against
#      the NCCL of the Python environment (headers: .devcarry/nccl-headers/<version>/nccl.h,
#      generated from NVIDIA/nccl's src/nccl.h.in at that version's tag)
#   4. NCCL Inspector logs (.devcarry/nccl-inspector = NVIDIA/nccl plugins/profiler/inspector), 2 ranks
# Each part is guarded and under `timeout`; everything ends up in OUT/samples.tar.gz and OUT/log.txt.
#   bench/make_import_samples.sh OUT        (run from the repository root; .devcarry carried)
set -u
out=$(mkdir -p "$1" && cd "$1" && pwd)
root=$(pwd)
work=/tmp/import_samples; rm -rf "$work"; mkdir -p "$work"
log=$out/log.txt
exec > >(tee -a "$log") 2>&1
T0=$SECONDS
parts=${PARTS:-torch,nccltests,inspector}   # which parts to run (a comma-separated subset)
want() { case ",$parts," in *",$1,"*) return 0;; esac; return 1; }
say() { echo "[$((SECONDS - T0)) s] $*"; }
left() { [ $((SECONDS - T0)) -lt "$1" ]; }  # still under this many seconds?

export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME=lo PYTHONUNBUFFERED=1
say "environment"
{ date -u; uname -r; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
  nvcc --version | tail -2; mpirun --version 2>&1 | head -1
  python3 -c 'import sys, torch; print("python", sys.version.split()[0]); print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())))'
  python3 -m pip show nvidia-nccl-cu13 2>/dev/null | grep -E "^(Name|Version)"
} > "$work/environment.txt" 2>&1
cat "$work/environment.txt"
ncclver=$(python3 -c 'import torch; print(".".join(map(str, torch.cuda.nccl.version())))')
nccldir=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])')
say "nccl $ncclver in $nccldir: $(ls "$nccldir" "$nccldir/lib" 2>&1 | tr '\n' ' ')"

# ---- builds in the background (nccl-tests, Inspector) while the PyTorch jobs run ----
nh=$work/ncclhome; mkdir -p "$nh/include" "$nh/lib"
ln -sf "$nccldir/lib/libnccl.so.2" "$nh/lib/libnccl.so"; ln -sf "$nccldir/lib/libnccl.so.2" "$nh/lib/libnccl.so.2"
if [ -f "$nccldir/include/nccl.h" ]; then cp -r "$nccldir/include/." "$nh/include/"; hsrc="wheel's include/"
elif [ -f ".devcarry/nccl-headers/$ncclver/nccl.h" ]; then cp ".devcarry/nccl-headers/$ncclver/nccl.h" "$nh/include/"; hsrc="NVIDIA/nccl v$ncclver-1 src/nccl.h.in"
else best=$(ls .devcarry/nccl-headers | sort -V | awk -v v="$ncclver" '{print}' | while read d; do [ "$(printf '%s\n%s\n' "$d" "$v" | sort -V | tail -1)" = "$v" ] && echo "$d"; done | tail -1)
  cp ".devcarry/nccl-headers/$best/nccl.h" "$nh/include/"; hsrc="NVIDIA/nccl v$best-1 src/nccl.h.in (nearest below $ncclver)"; fi
say "nccl.h from $hsrc" | tee "$work/nccl_header_source.txt"
mpihome=""
if command -v mpicc >/dev/null; then mpihome=$(dirname "$(mpicc --showme:incdirs | tr ' ' '\n' | grep -m1 .)"); fi
say "MPI_HOME=$mpihome (mpicc incdirs: $(mpicc --showme:incdirs 2>&1), libdirs: $(mpicc --showme:libdirs 2>&1))"
cp -r .devcarry/nccl-tests "$work/nt"; cp -r .devcarry/nccl-inspector "$work/insp"
gen="-gencode=arch=compute_90,code=sm_90"
(
  cd "$work/nt"
  if [ -n "$mpihome" ] && timeout 300 make -j6 MPI=1 MPI_HOME="$mpihome" NCCL_HOME="$nh" NVCC_GENCODE="$gen" BUILDDIR="$work/nt/build-mpi" src.build > "$work/nt_build_mpi.txt" 2>&1; then
    echo mpi > "$work/nt_built"
  else
    timeout 300 make -j6 NCCL_HOME="$nh" NVCC_GENCODE="$gen" BUILDDIR="$work/nt/build" src.build > "$work/nt_build.txt" 2>&1 && echo plain > "$work/nt_built"
  fi
) &
ntpid=$!
( cd "$work/insp" && mkdir -p obj && timeout 300 make -j4 CUDA_HOME=/usr/local/cuda > "$work/insp_build.txt" 2>&1 ) &
inpid=$!

# ---- PyTorch jobs ----
TR="python3 -m torch.distributed.run --standalone"
job() {  # NAME LIMIT_S RANKS ARGS... (extra env through `env` before the call)
  local name=$1 lim=$2 n=$3; shift 3
  local t=$SECONDS
  mkdir -p "$work/$name"
  timeout -k 10 "$lim" $TR --nproc-per-node "$n" bench/import_samples_train.py --out "$work/$name" "$@" > "$work/$name/console.txt" 2>&1
  local rc=$?
  say "== $name: status $rc, $((SECONDS - t)) s; files: $(cd "$work/$name" && ls -l | awk 'NR>1{printf "%s %s, ", $9, $5}')"
  grep -E "step |rank .*(flight|wrote|SKIPS|alive|completed)|agree|DIFFER|Traceback|Error|error|timed? ?out|Timeout|watchdog|dump" "$work/$name/console.txt" | head -30
}
fr() { export TORCH_FR_BUFFER_SIZE=2000 TORCH_NCCL_TRACE_BUFFER_SIZE=2000; }
want torch && left 400 && (fr; job ddp2 150 2 --mode ddp --kineto --steps 8 --sleep-steps 3,5)
want torch && left 400 && (fr; job ddp4 180 4 --mode ddp --kineto --steps 8 --sleep-steps 3,5)
if want torch && left 420; then
  mkdir -p "$work/hang2"
  (fr; export TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_FR_DUMP_TEMP_FILE="$work/hang2/fr_ontimeout_rank" \
      TORCH_NCCL_DEBUG_INFO_TEMP_FILE="$work/hang2/fr_ontimeout_rank" TORCH_NCCL_ENABLE_MONITORING=0
   job hang2 120 2 --mode hang --steps 8 --sleep-steps 2 --skip-step 4 --timeout-s 20 --dump-after-s 8)
fi

# ---- nccl-tests ----
timeout 330 tail --pid=$ntpid -f /dev/null
kind=$(cat "$work/nt_built" 2>/dev/null)
say "nccl-tests build: ${kind:-FAILED}"; for f in "$work"/nt_build*.txt; do tail -n 5 "$f"; done
mkdir -p "$work/nccltests"
export NCCL_TESTS_DEVICE=0   # every rank on GPU 0
want nccltests || kind=""
if [ "$kind" = mpi ]; then
  for n in 2 4; do
    left 520 || break
    timeout -k 5 90 mpirun --allow-run-as-root --oversubscribe -np $n -x LD_LIBRARY_PATH="$nccldir/lib:${LD_LIBRARY_PATH:-}" \
      -x NCCL_TESTS_DEVICE -x NCCL_P2P_DISABLE -x NCCL_SHM_DISABLE -x NCCL_IB_DISABLE -x NCCL_SOCKET_IFNAME -x NCCL_NVLS_ENABLE \
      bash -c "NCCL_HOSTID=h\$OMPI_COMM_WORLD_RANK exec $work/nt/build-mpi/all_reduce_perf -b 1M -e 64M -f 4 -g 1 -J $work/nccltests/all_reduce_perf_${n}ranks.json" \
      > "$work/nccltests/all_reduce_perf_${n}ranks.txt" 2>&1
    say "all_reduce_perf $n ranks (MPI): status $?"; tail -12 "$work/nccltests/all_reduce_perf_${n}ranks.txt"
  done
fi
if left 540 && [ -n "$kind" ] && [ ! -s "$work/nccltests/all_reduce_perf_2ranks.json" ]; then
  b=$work/nt/build; [ "$kind" = mpi ] && b=$work/nt/build-mpi
  LD_LIBRARY_PATH="$nccldir/lib:${LD_LIBRARY_PATH:-}" timeout -k 5 60 "$b/all_reduce_perf" -b 1M -e 64M -f 4 -g 1 \
    -J "$work/nccltests/all_reduce_perf_1rank.json" > "$work/nccltests/all_reduce_perf_1rank.txt" 2>&1
  say "all_reduce_perf 1 rank: status $?"; tail -12 "$work/nccltests/all_reduce_perf_1rank.txt"
fi

# ---- NCCL Inspector ----
timeout 60 tail --pid=$inpid -f /dev/null
so=$(ls "$work"/insp/*.so 2>/dev/null | head -1)
say "inspector build: ${so:-FAILED}"; tail -5 "$work/insp_build.txt"
if want inspector && [ -n "$so" ] && left 540; then
  mkdir -p "$work/inspector2/logs"
  (export NCCL_PROFILER_PLUGIN="$so" NCCL_INSPECTOR_ENABLE=1 NCCL_INSPECTOR_DUMP_DIR="$work/inspector2/logs" \
      NCCL_INSPECTOR_DUMP_THREAD_INTERVAL_MICROSECONDS=500 NCCL_INSPECTOR_DUMP_VERBOSE=1 NCCL_INSPECTOR_DUMP_MIN_SIZE_BYTES=0
   job inspector2 120 2 --mode ddp --steps 8 --sleep-steps 3,5)
  find "$work/inspector2/logs" -type f | head; du -sh "$work/inspector2/logs"
fi

say "all parts done"
cp "$log" "$work/log.txt" 2>/dev/null
rm -rf "$work/nt" "$work/insp" "$work/ncclhome"
tar -C "$work" -czf "$out/samples.tar.gz" . && ls -l "$out"
