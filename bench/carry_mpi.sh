#!/usr/bin/env bash
# Packs what bench/mpi_device.sh runs on a GPU machine that has no compiler, no Qt and none of
# this project's dependencies (the project's device machines: Ubuntu 24.04, CUDA driver, Open MPI,
# NCCL as a pip package):
#   DIR/bin.tar.xz  stripped builds, in the build tree's layout (bench/calibration_accuracy.sh
#                   takes BUILD_DIR): shardlab, libshardlab_live.so, libshardlab_mpi.so,
#                   shardlab_gpu_tests, test_live_stress, runpage_demo, bench_calibration_accuracy,
#                   libshardlab_nccl_profiler.so, bench_profile_plugin, and the example programs
#                   (examples/: allreduce_buckets, allreduce_verify, reduce_scatter_all_gather,
#                   allreduce_sweep, allreduce_straggler)
#   DIR/qt.tar.xz   the Qt runtime: every library `ldd` names for those programs and the offscreen
#                   platform plugin, except the C/C++ runtime and the MPI stack (the machine's own
#                   are used); common base libraries go to lib-base/ and are used only where the
#                   machine lacks them; fonts (DejaVu Sans and Noto Sans CJK) with a fonts.conf
#   DIR/*.sh, DIR/*.shardlab.json, DIR/*.py (train_ddp.py and the PyTorch examples with dist_common.py): the scripts (tests/gpu/examples_gpu.sh among
#                   them), the scenarios and the torchrun example
#   bench/carry_mpi.sh BUILD_DIR DIR [GUI_BUILD_DIR]
# GUI_BUILD_DIR: where the screenshot programs (tests/gui/runpage_demo, tests/gui/mainwindow_demo)
# come from when BUILD_DIR has none (CI's build makes only the tests the sanitizers cannot run, so
# no demos; a simulation-only GUI build has them, and they start the carried CLI for live runs).
set -euo pipefail
build=$(cd "$1" && pwd)
dir=$2
gui_build=$(cd "${3:-$1}" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$dir"
mkdir -p "$dir"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# 1. The programs, stripped, in the build tree's layout.
programs=(app/cli/shardlab engine/live/gpu/libshardlab_live.so engine/cluster/libshardlab_mpi.so tests/shardlab_gpu_tests
          tests/gui/test_live_stress tests/gui/runpage_demo tests/gui/mainwindow_demo bench/bench_calibration_accuracy
          engine/profile/plugin/libshardlab_nccl_profiler.so bench/bench_profile_plugin
          examples/allreduce_buckets examples/allreduce_verify examples/reduce_scatter_all_gather examples/allreduce_sweep
          examples/allreduce_straggler)
# Each program's path in this machine's builds: BUILD_DIR's, else (the demos) GUI_BUILD_DIR's.
built() {
  if [ -f "$build/$1" ]; then echo "$build/$1"; elif [ -f "$gui_build/$1" ]; then echo "$gui_build/$1"; else
    echo "bench/carry_mpi.sh: neither $build nor $gui_build has $1" >&2; exit 1; fi
}
for f in "${programs[@]}"; do
  mkdir -p "$stage/build/$(dirname "$f")"
  strip --strip-debug -o "$stage/build/$f" "$(built "$f")"
done
tar -C "$stage" -cJf "$dir/bin.tar.xz" build

# 2. The Qt runtime.
qtplugins=$(dirname "$(dirname "$(find /usr/lib -path '*qt6/plugins/platforms/libqoffscreen.so' | head -1)")")
mkdir -p "$stage/qt/lib" "$stage/qt/lib-base" "$stage/qt/plugins/platforms" "$stage/qt/fonts"
cp "$qtplugins/platforms/libqoffscreen.so" "$stage/qt/plugins/platforms/"
core='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libgcc_s|libstdc\+\+|libmpi|libopen-|libhwloc|libevent|libpmix|libucp|libucs|libuct|libfabric|libnccl|libcuda|libnvidia)'
base='^(libz\.so|libzstd|libexpat|libsystemd|liblzma|libgcrypt|libgpg-error|libcap\.so|liblz4|libpcre2-8|libbsd|libmd\.so|libudev|libselinux|libffi|libbz2|libuuid|libgomp|libdbus-1)'
for f in "${programs[@]}" plugin; do
  [ "$f" = plugin ] || target=$(built "$f")
  [ "$f" = plugin ] && target="$qtplugins/platforms/libqoffscreen.so"
  ldd "$target" | awk '/=> \// { print $1, $3 }'
done | sort -u | while read -r name path; do
  if [[ $name =~ $core ]]; then continue; fi
  if [[ $name =~ $base ]]; then cp -L "$path" "$stage/qt/lib-base/$name"; else cp -L "$path" "$stage/qt/lib/$name"; fi
done
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \
   /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc "$stage/qt/fonts/"
cat > "$stage/qt/fonts.conf" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir prefix="relative">fonts</dir>
  <cachedir>/tmp/shardlab-fontconfig-cache</cachedir>
  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family><family>Noto Sans CJK SC</family></prefer></alias>
  <alias><family>monospace</family><prefer><family>DejaVu Sans Mono</family><family>Noto Sans CJK SC</family></prefer></alias>
</fontconfig>
EOF
tar -C "$stage" -cJf "$dir/qt.tar.xz" qt

# 3. Scripts and scenarios.
cp "$here/bench/mpi_device.sh" "$here/bench/calibration_accuracy.sh" "$here/bench/live_timing_device.sh" "$here/bench/stream_device.sh" "$here/bench/clizh_device.sh" "$here/bench/profile_device.sh" "$here/bench/device_env.sh" \
   "$here"/bench/mpi-*.shardlab.json "$here/bench/live-straggler-2.shardlab.json" "$here/bench/live-overlap-1.shardlab.json" "$here/tests/mpi/cli_under_mpirun.sh" \
   "$here/tests/gpu/examples_gpu.sh" "$here/bench/share_gpu_device.sh" "$here"/examples/profile/*.py "$dir/"
du -sh "$dir" "$dir"/*
