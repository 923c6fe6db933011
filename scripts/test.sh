#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test:
#   1. Release build (build/): unit, integration and SDK tests through ctest.
#   2. ASan/UBSan build of the project code (build-asan/): unit, integration
#      and SDK tests (llama-server, the reference upstream, from build 1).
# Idempotent; incremental after the first run (ccache, ninja).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="${JOBS:-$(nproc)}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"  # see scripts/setup.sh

step() { printf '\n=== %s\n' "$*"; }

step "setup"
scripts/setup.sh

step "build (Release)"
cmake --build build -j "$jobs"

step "tests (Release): unit, integration, SDK"
ctest --test-dir build --output-on-failure -j "$jobs" --timeout 900

step "build (ASan/UBSan)"
BUILD_DIR="$root/build-asan" CMAKE_EXTRA="-DTIERGATE_SANITIZE=ON -DTIERGATE_BUILD_BENCH=OFF -DTIERGATE_BUILD_LLAMA_TOOLS=OFF \
  -DTIERGATE_LLAMA_SERVER_BIN=$root/build/bin/llama-server" scripts/setup.sh
cmake --build build-asan -j "$jobs"

step "tests (ASan/UBSan): unit, integration, SDK"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 900
