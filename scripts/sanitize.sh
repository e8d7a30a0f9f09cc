#!/usr/bin/env bash
# The sanitizer build: configures build-asan/ with AddressSanitizer and
# UndefinedBehaviorSanitizer (-DKERNELRANK_SANITIZE=ON, RelWithDebInfo), builds everything
# and runs the whole test suite through CTest. Any sanitizer report fails the run: UBSan
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
cmake -S . -B build-asan -DKERNELRANK_SANITIZE=ON -DKERNELRANK_TORCH=OFF -DKERNELRANK_WITH_MPI=OFF -DKERNELRANK_WITH_PYTHON=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" >/dev/null
cmake --build build-asan -j"$(nproc)"
ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$(nproc)"
