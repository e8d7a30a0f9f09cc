#!/usr/bin/env bash
# Install, build and run the whole test suite through CTest, then check that no test took
# more than 300 s (scripts/test-time-budget.py).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure --no-tests=error -j"$(nproc)" \
      --output-junit ctest-junit.xml
scripts/test-time-budget.py build/ctest-junit.xml 300
