#!/usr/bin/env bash
# Installs missing Debian packages, then configures and builds kernelrank in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
scripts/install-python-path.sh
