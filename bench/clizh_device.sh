#!/usr/bin/env bash
# Issue 13's "teaching text in Chinese" on a GPU machine: what only the live executor says, in
# Chinese and in English — a live hang (what each rank is blocked in and why the watchdog stopped the
# run), the clock note, a live run's notes, the "Detected by CUDA" section of `topo`, the live sweep
# of `bench` and `calibrate`'s table — checked for English left in the Chinese (no `[id]`, no
# `{placeholder}`), then the same hang under mpirun (the merged report and the clocks of processes).
# Needs two GPUs (nvidia-h200-x2): the hang is bench/mpi-hang-2.shardlab.json. DIR is what bench/carry_mpi.sh packs;
# results go to OUT.
#   bench/clizh_device.sh DIR OUT
set -uo pipefail
dir=$(cd "$1" && pwd); out=$2
mkdir -p "$out"
source "$dir/device_env.sh" "$dir"
hang=$dir/mpi-hang-2.shardlab.json
leftover='\[[a-z_]+(\.[a-z_0-9]+)+\]|\{[a-z_]+\}'
{
  echo "== date"; date -u; nvidia-smi -L
  for lang in zh en; do
    echo "== live hang, --lang $lang"; $S live "$hang" --watchdog-ms 3000 --lang $lang 2>&1 | tail -n 12; echo "exit $?"
    echo "== live (clock note, notes), --lang $lang"; $S live "$dir/live-overlap-1.shardlab.json" --lang $lang 2>&1 | tail -n 4
    echo "== topo, --lang $lang"; $S topo --lang $lang | tail -n 6
    echo "== bench live, --lang $lang"; $S bench --gpus 1 --sizes 1M,64M --lang $lang
    echo "== calibrate, --lang $lang"; $S calibrate --no-save --sizes 1M,16M,64M --collectives all_reduce,broadcast --lang $lang 2>&1 | tail -n 14
  done > "$out/texts.txt" 2>&1
  cat "$out/texts.txt"
  echo "== ids or placeholders left (none expected)"; grep -nE "$leftover" "$out/texts.txt" || echo none
  if command -v mpirun > /dev/null; then
    echo "== live hang under mpirun -np 2, --lang zh"
    mpirun --allow-run-as-root -np 2 $S live "$hang" --watchdog-ms 3000 --lang zh 2>&1 | tail -n 16
  fi
} > "$out/clizh-device.txt" 2>&1
cat "$out/clizh-device.txt"
