#!/usr/bin/env bash
# Installs missing Debian packages, then configures and builds kernelrank in build/.
# Usage: scripts/build.sh [TARGET...]
#   no target: everything (tools, trainer, Python module, tests), and registers the Python
#   module for python3 (scripts/install-python-path.sh);
#   targets:   only those and what they link (scripts/reproduce.sh builds kernelrank and
#   kernelrank-check).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/lib/compiler-cache.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${compiler_cache_args[@]}" >/dev/null
if [ $# -eq 0 ]; then
  cmake --build build -j"$(nproc)"
  scripts/install-python-path.sh
else
  cmake --build build -j"$(nproc)" --target "$@"
fi
