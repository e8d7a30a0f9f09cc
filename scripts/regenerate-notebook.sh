#!/usr/bin/env bash
# Runs the example notebook examples/notebooks/verify-your-head.ipynb as the test `notebook`
# does and, when every check holds, writes its outputs into it (the shipped notebook carries
# them; the test fails when they are not what the current code prints).
# Usage: scripts/regenerate-notebook.sh   (after scripts/build.sh, or it builds what it needs)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh kernelrank kernelrank-check kernelrank_python
exec tests/examples/run_notebook.sh --write build/kernelrank build/kernelrank-check build/python
