#!/usr/bin/env bash
# Install, build and run the whole test suite through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure --no-tests=error -j"$(nproc)"
