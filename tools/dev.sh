#!/usr/bin/env bash
# ShardLab's one entry point for a fresh Debian 12 machine.
#   tools/dev.sh gui    install what is missing, build, run the desktop app on the default scenario
#   tools/dev.sh test   install what is missing, build with warnings as errors, run every test:
#                       the Debian package installed into a temporary root and run, every CPU test
#                       but the GUI's under AddressSanitizer + UBSan, the rest (the GUI's QtTest
#                       suites, GPU, MPI, live library) in the build itself, and a short fuzzing
#                       run (SHARDLAB_QUICK=1: ctest of the build only; SHARDLAB_SANITIZE_GUI=1:
#                       the GUI's tests under the sanitizers too, as before stop 46)
#   tools/dev.sh build  install what is missing and build only
#   tools/dev.sh format rewrite every C++ and CUDA source as .clang-format says (`test` checks it)
# Environment: BUILD_DIR (default build/dev; build/ci for `test`), SHARDLAB_CMAKE_ARGS (extra -D
# options), JOBS (parallel build jobs, default: number of cores).
#
# `test` builds in unity mode (CMAKE_UNITY_BUILD: the sources of a target compiled in batches, so
# the Qt, GoogleTest and JSON headers are parsed once a batch instead of once a file): the same
# code, half the compile time on two cores (942 against 1,956 CPU-seconds for the whole tree,
# docs/benchmarks.md "Build"). `gui` and `build` build file by file, as a developer edits.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
mode=${1:-gui}
if [ "$mode" = test ]; then build=${BUILD_DIR:-build/ci}; else build=${BUILD_DIR:-build/dev}; fi
unity=OFF
[ "$mode" = test ] && unity=ON
jobs=${JOBS:-$(nproc)}

packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n libgl-dev libxkbcommon-dev
  libqcustomplot-dev nlohmann-json3-dev libcli11-dev libgtest-dev googletest zlib1g-dev libsqlite3-dev
  libopenmpi-dev openmpi-bin
  fonts-noto-cjk fonts-dejavu-core xvfb xauth
  dpkg-dev file clang-14 libclang-rt-14-dev clang-format-14
  poppler-utils
  openssh-server openssh-client
)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# RelWithDebInfo with line tables only (-g1): backtraces and sanitizer reports keep function names,
# files and lines, and a clean build on two cores takes about a third less time than with full
# debug information (-g: 42 s against 30 s for one of the CLI's files). The CMake presets keep -g.
# The second argument says which tests to build: all, unsanitized (only those the sanitizer build
# cannot run: GPU, MPI, the live library; tests/unsanitized.cmake), or unsanitized+gui (those and
# the GUI's QtTest suites, which CI leaves out of the sanitizer build).
configure_and_build() {
  local werror=$1 tests=${2:-all}
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHARDLAB_WARNINGS_AS_ERRORS="$werror" \
    -DCMAKE_UNITY_BUILD="$unity" -DSHARDLAB_TESTS="$tests" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" ${SHARDLAB_CMAKE_ARGS:-}
  cmake --build "$build" -j "$jobs"
}

# The Debian package, unpacked into a temporary root: the installed CLI and app must run from
# their installed files alone.
check_package() {
  echo "== package"
  (cd "$build" && rm -f ./*.deb && cpack -G DEB >/dev/null)
  local root
  root=$(mktemp -d)
  for deb in "$build"/shardlab_*.deb; do dpkg-deb -x "$deb" "$root"; done
  dpkg-deb -I "$build"/shardlab_*.deb | sed -n '/Depends/p'
  "$root/usr/bin/shardlab" --version
  # The MPI module package, where the build made it: the installed CLI must find its module.
  for deb in "$build"/shardlab-mpi_*.deb; do
    [ -f "$deb" ] || continue
    dpkg-deb -x "$deb" "$root"
    dpkg-deb -I "$deb" | sed -n '/Depends/p'
    "$root/usr/bin/shardlab" --version | grep -q "module $root/usr/lib" \
      || { echo "the installed shardlab does not find its MPI module"; exit 1; }
  done
  env -u SHARDLAB_RESOURCE_DIR "$root/usr/bin/shardlab" sim "$root/usr/share/shardlab/scenarios/straggler-12-6-4-2.shardlab.json" | tail -3
  test -f "$root/usr/share/applications/shardlab.desktop"
  test -f "$root/usr/share/man/man1/shardlab.1.gz"
  QT_QPA_PLATFORM=offscreen SHARDLAB_QUIT_AFTER_MS=1500 "$root/usr/bin/shardlab-gui" >/dev/null 2>&1
  # The translations are compiled into the app as Qt resources (names stored in UTF-16).
  strings -eb "$root/usr/bin/shardlab-gui" | grep shardlab_zh_CN.qm >/dev/null \
    || { echo "the installed shardlab-gui carries no Chinese translation"; exit 1; }
  LANG=zh_CN.UTF-8 LC_ALL= QT_QPA_PLATFORM=offscreen SHARDLAB_QUIT_AFTER_MS=1500 "$root/usr/bin/shardlab-gui" >/dev/null 2>&1
  rm -rf "$root"
}

# Every CPU test of the engine, the command line and the report under AddressSanitizer +
# UndefinedBehaviorSanitizer (the code that reads users' and other tools' files: the hostile
# input). The GUI and its QtTest suites are left to the optimised build: compiling the GUI
# libraries a second time, instrumented, was the largest part of a CI run (stop 46: 239 of the
# sanitizer build's 1,275 CPU-seconds, and its tests 95 of its 220 test-seconds), which had grown
# past its 30 minutes; SHARDLAB_SANITIZE_GUI=1 puts them back here. Preset dev-asan, with line
# tables, at -O1 as the
# sanitizers' authors advise (at -O0, nlohmann-json's parser alone took 103 s for a test's 2.5 MB
# scenario, against 1.3 s at -O1); without the benchmarks and the screenshot programs, which no
# test runs. Built with clang-14 and libFuzzer's coverage of the engine (SHARDLAB_FUZZ), so that the
# same build also makes the fuzz targets check_fuzz runs: one build of the engine fewer; the tests'
# own code at -O0 (docs/benchmarks.md, stop 41).
check_sanitizers() {
  echo "== sanitizers"
  # (a build folder configured with another compiler is configured afresh)
  if [ -f build/asan/CMakeCache.txt ] && ! grep -q '^CMAKE_CXX_COMPILER:.*clang++-14' build/asan/CMakeCache.txt; then
    rm -rf build/asan
  fi
  CC=clang-14 CXX=clang++-14 cmake --preset dev-asan -DSHARDLAB_WARNINGS_AS_ERRORS=ON -DSHARDLAB_BUILD_BENCH=OFF \
    -DSHARDLAB_BUILD_DEMOS=OFF -DSHARDLAB_FUZZ=ON "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DCMAKE_UNITY_BUILD=ON \
    -DSHARDLAB_BUILD_GUI="$(sanitize_gui && echo ON || echo OFF)" >/dev/null
  cmake --build build/asan -j "$jobs"
  ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp" \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 QT_QPA_PLATFORM=offscreen \
    ctest --preset dev-asan -j "$jobs"
}

sanitize_gui() { [ -n "${SHARDLAB_SANITIZE_GUI:-}" ]; }

# The tests of this build: only those the sanitizer build does not run (GPU, MPI, the live
# library; the GUI's unless SHARDLAB_SANITIZE_GUI), since it was configured with SHARDLAB_TESTS=
# unsanitized(+gui). None of them may also be a test of the sanitizer build: each test runs once.
ctest_the_rest() {
  local listed='s/^ *Test *#[0-9]*: //p'
  local here_tests sanitized twice
  here_tests=$(ctest --test-dir "$build" -N | sed -n "$listed" | sort)
  sanitized=$(ctest --preset dev-asan -N | sed -n "$listed" | sort)
  twice=$(comm -12 <(echo "$here_tests") <(echo "$sanitized"))
  [ -n "$twice" ] && { echo "tests in both builds (tests/unsanitized.cmake should hold only the others):"; echo "$twice"; return 1; }
  echo "   $(echo "$here_tests" | grep -c .) tests in this build, $(echo "$sanitized" | wc -l) run under the sanitizers"
  [ -z "$here_tests" ] && return 0
  QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure -j "$jobs"
}

# libFuzzer over every parser of a user's file, briefly (FUZZ_SECONDS, default 60), then over the
# run-stream reader and the profiler's records. The fuzz targets are check_sanitizers' build's.
check_fuzz() {
  echo "== fuzzing"
  run_fuzzer fuzz_scenario tests/fuzz/corpus "${FUZZ_SECONDS:-60}"
  # the run-stream reader (what arrives over SSH), a third of the time
  run_fuzzer fuzz_run_stream tests/fuzz/corpus-stream "$(( (${FUZZ_SECONDS:-60} + 2) / 3 ))"
  # the NCCL profiler's records (what a profiled program leaves), a third of the time
  run_fuzzer fuzz_profile_records tests/fuzz/corpus-profile "$(( (${FUZZ_SECONDS:-60} + 2) / 3 ))"
  # other tools' files (Kineto, Flight Recorder, nccl-tests, Inspector, gzip), a third of the time
  run_fuzzer fuzz_import tests/fuzz/corpus-import "$(( (${FUZZ_SECONDS:-60} + 2) / 3 ))"
}

# One fuzzer on a copy of its seed corpus. On success the final statistics; on a finding the
# report (stack, the invariant that failed) and the input that caused it, as text and base64, so
# that a CI log alone reproduces it.
run_fuzzer() {
  local name=$1 seeds=$2 seconds=$3 work
  work=$(mktemp -d)
  mkdir "$work/corpus"
  cp "$seeds"/* "$work/corpus/"
  # (halt_on_error: undefined behaviour is a finding, not a line in a log that passed)
  if (cd "$work" && UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$here/build/asan/tests/fuzz/$name" corpus -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 >log 2>&1); then
    tail -4 "$work/log"
    rm -rf "$work"
    return 0
  fi
  echo "== $name found a failing input:"
  grep -v '^#[0-9]' "$work/log" | tail -60
  for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
    [ -f "$f" ] || continue
    echo "== input $(basename "$f") ($(stat -c %s "$f") bytes):"
    head -c 4000 "$f"
    echo
    echo "== base64:"
    base64 -w 0 "$f" | head -c 8000
    echo
  done
  rm -rf "$work"
  return 1
}

# Every C++ and CUDA source as .clang-format has it (clang-format 14, Debian 12's). A file that
# differs is named with what would change; `tools/dev.sh format` rewrites them all.
check_format() {
  local files log
  log=$(mktemp)
  mapfile -t files < <(sources)
  if ! clang-format-14 --dry-run --Werror "${files[@]}" 2>"$log"; then
    head -60 "$log"
    echo "== these files differ from .clang-format; run tools/dev.sh format:"
    grep -o '^[^:]*:[0-9]*:[0-9]*: error' "$log" | cut -d: -f1 | sort -u
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
  echo "${#files[@]} files as .clang-format has them"
}

# The C++ and CUDA sources: git's list in a checkout, else every such file outside build/.
sources() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files '*.cpp' '*.h' '*.cu' '*.cuh'
  else
    find . -path ./build -prune -o \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) -type f -print
  fi
}

# Each stage's duration, printed at the end of the run (also when a stage fails).
stage_names=()
stage_secs=()
stage() {
  local name=$1
  shift
  local start=$SECONDS
  echo "== stage: $name"
  "$@"
  stage_names+=("$name")
  stage_secs+=($((SECONDS - start)))
}
print_stages() {
  local rc=$?
  [ ${#stage_names[@]} -eq 0 ] && return $rc
  echo "== stage durations"
  local i total=0
  for i in "${!stage_names[@]}"; do
    printf '   %-28s %4d min %02d s\n' "${stage_names[$i]}" $((stage_secs[i] / 60)) $((stage_secs[i] % 60))
    total=$((total + stage_secs[i]))
  done
  printf '   %-28s %4d min %02d s\n' "total" $((total / 60)) $((total % 60))
  [ $rc -ne 0 ] && echo "   (stopped by a failure after the stages above)"
  return $rc
}
trap print_stages EXIT

stage "install missing packages" install_missing
case "$mode" in
  build)
    configure_and_build OFF
    ;;
  format)
    sources | xargs clang-format-14 -i
    ;;
  test)
    # GUI tests need no display; GPU tests skip with a message where no GPU is present.
    if [ -n "${SHARDLAB_QUICK:-}" ]; then
      stage "build (RelWithDebInfo)" configure_and_build ON all
      stage "ctest" env QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure --no-tests=error -j "$jobs"
      exit 0
    fi
    # Each test runs once: under the sanitizers where that build has it, here otherwise (GPU, MPI,
    # and the tests of the live library, which the sanitizer build leaves out). This build makes
    # the package and only those tests.
    stage "format" check_format
    stage "build (RelWithDebInfo)" configure_and_build ON "$(sanitize_gui && echo unsanitized || echo unsanitized+gui)"
    stage "package" check_package
    stage "sanitizers (build + ctest)" check_sanitizers
    stage "ctest (the rest, in this build)" ctest_the_rest
    stage "fuzzing (run)" check_fuzz
    ;;
  gui)
    configure_and_build OFF
    gui="$build/app/gui/shardlab-gui"
    scenario="resources/scenarios/default.shardlab.json"
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      exec "$gui" "$scenario"
    fi
    # No display (a server, a container): run on a virtual one and leave a screenshot.
    shot="$build/shardlab-gui.png"
    echo "== no display: running on Xvfb for 8 s; the screenshot goes to $shot"
    SHARDLAB_SCREENSHOT="$shot" SHARDLAB_QUIT_AFTER_MS=8000 xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" "$scenario"
    echo "== wrote $shot"
    ;;
  *)
    echo "usage: tools/dev.sh gui|test|build" >&2
    exit 2
    ;;
esac
