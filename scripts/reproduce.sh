#!/usr/bin/env bash
# The default job on a fresh machine: install, build the two tools it runs, re-verify the
# paper's checkable facts exactly, and independently check the m = 24 certificate.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "reproduce: building kernelrank and kernelrank-check only (no tests, trainer or Python module; scripts/test.sh builds everything)"
scripts/build.sh kernelrank kernelrank-check
./build/kernelrank reproduce --cert build/golay24.cert
./build/kernelrank-check build/golay24.cert
