# Sourced by the bench/*_device.sh scripts on the GPU machine, with DIR the folder that
# bench/carry_mpi.sh packed:
#   source "$dir/device_env.sh" "$dir"
# Unpacks the build (bin.tar.xz) and, where packed, the Qt runtime with its fonts (qt.tar.xz) into a
# fresh temporary folder, and sets what ShardLab needs there. NVLink multicast stays off.
# After it: $root (the temporary folder), $b (the build in it), $S (the CLI), $nccl (NCCL's
# library folder of the Python environment, empty where there is none), $gpus (GPUs seen).
root=$(mktemp -d)
tar -C "$root" -xJf "$1/bin.tar.xz"
if [ -f "$1/qt.tar.xz" ]; then
  tar -C "$root" -xJf "$1/qt.tar.xz"
  # Base libraries the Qt runtime needs, only where this machine lacks them.
  for f in "$root"/qt/lib-base/*; do
    ldconfig -p | grep -q "$(basename "$f")" || cp "$f" "$root/qt/lib/"
  done
  export QT_PLUGIN_PATH=$root/qt/plugins QT_QPA_PLATFORM=offscreen FONTCONFIG_FILE=$root/qt/fonts.conf
fi
b=$root/build
S=$b/app/cli/shardlab
export NCCL_NVLS_ENABLE=0
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}
nccl=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))" 2>/dev/null)
export LD_LIBRARY_PATH="${nccl:+$nccl:}$root/qt/lib:${LD_LIBRARY_PATH:-}"
export SHARDLAB_LIVE_LIBRARY=$b/engine/live/gpu/libshardlab_live.so
export SHARDLAB_MPI_MODULE=$b/engine/cluster/libshardlab_mpi.so
export SHARDLAB_NCCL_PROFILER=$b/engine/profile/plugin/libshardlab_nccl_profiler.so
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
