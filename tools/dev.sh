#!/usr/bin/env bash
# ShardLab's one entry point for a fresh Debian 12 machine.
#   tools/dev.sh gui    install what is missing, build, run the desktop app on the default scenario
#   tools/dev.sh test   install what is missing, build with warnings as errors, run every test
#   tools/dev.sh build  install what is missing and build only
# Environment: BUILD_DIR (default build/dev), SHARDLAB_CMAKE_ARGS (extra -D options),
# JOBS (parallel build jobs, default: number of cores).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
mode=${1:-gui}
build=${BUILD_DIR:-build/dev}
jobs=${JOBS:-$(nproc)}

packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libgl-dev libxkbcommon-dev
  libqcustomplot-dev nlohmann-json3-dev libcli11-dev libgtest-dev googletest
  libopenmpi-dev openmpi-bin
  fonts-noto-cjk fonts-dejavu-core xvfb xauth
  poppler-utils
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

configure_and_build() {
  local werror=$1
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHARDLAB_WARNINGS_AS_ERRORS="$werror" \
    ${SHARDLAB_CMAKE_ARGS:-}
  cmake --build "$build" -j "$jobs"
}

install_missing
case "$mode" in
  build)
    configure_and_build OFF
    ;;
  test)
    configure_and_build ON
    # GUI tests need no display; GPU tests skip with a message where no GPU is present.
    QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure --no-tests=error -j "$jobs"
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
