#!/usr/bin/env bash
# The sanitizer build: configures build-asan/ with AddressSanitizer and
# UndefinedBehaviorSanitizer (-DKERNELRANK_SANITIZE=ON, RelWithDebInfo), builds everything
# and runs the test suite through CTest, less the tests labelled slow. Any sanitizer report fails the run: UBSan
# aborts on the first finding (-fno-sanitize-recover), ASan on every error, and the
# options below make LeakSanitizer findings fatal too. See docs/robustness.md.
# libtorch, MPI and the Python module are left out here (their own code is not ours to
# sanitize; an ASan-built extension cannot be loaded into an uninstrumented python3; libtorch takes
# minutes to build under ASan); their tests run in the normal build. -g1 keeps file:line in
# the reports and shrinks the debug information that slowed every link.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
source scripts/lib/compiler-cache.sh
cmake -S . -B build-asan "${compiler_cache_args[@]}" -DKERNELRANK_SANITIZE=ON -DKERNELRANK_TORCH=OFF -DKERNELRANK_WITH_MPI=OFF -DKERNELRANK_WITH_PYTHON=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" >/dev/null
cmake --build build-asan -j"$(nproc)"
# The tests labelled "slow" ran once in the normal build (scripts/test.sh); docs/robustness.md
# lists them and why leaving them out here loses no coverage of the checker, the exact core
# or the parsers.
ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$(nproc)" -LE slow \
      --output-junit ctest-junit.xml
scripts/test-time-budget.py build-asan/ctest-junit.xml 300
