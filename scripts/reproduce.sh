#!/usr/bin/env bash
# The default job on a fresh machine: install, build, re-verify the paper's
# checkable facts exactly, and independently check the m = 24 certificate.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
./build/kernelrank reproduce --cert build/golay24.cert
./build/kernelrank-check build/golay24.cert
