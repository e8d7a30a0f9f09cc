#!/usr/bin/env bash
# Executes examples/notebooks/verify-your-head.ipynb as a user would (jupyter nbconvert
# --execute, Debian's python3 kernel), in a scratch directory, checks its results
# independently with tests/examples/check_notebook.py, then checks that the shipped notebook
# holds this run's outputs (tests/examples/notebook_outputs.py).
# Usage: run_notebook.sh [--write] KERNELRANK KERNELRANK_CHECK PYTHON_MODULE_DIR
#   --write  when every check holds, write this run's outputs into the shipped notebook
#            instead of comparing (scripts/regenerate-notebook.sh)
# Exit 0 the notebook ran and every check holds; 1 otherwise. The packages it needs are
# installed by scripts/install-deps.sh; a missing one is a failure, named.
set -u
mode=check
if [ "${1:-}" = --write ]; then
  mode=write
  shift
fi
if [ $# -ne 3 ]; then
  echo "usage: $0 [--write] KERNELRANK KERNELRANK_CHECK PYTHON_MODULE_DIR" >&2
  exit 2
fi
# Absolute paths: the notebook runs in a scratch directory.
kr="$(realpath "$1")" checker="$(realpath "$2")" module_dir="$(realpath "$3")"
here="$(cd "$(dirname "$0")" && pwd)"
notebook="$here/../../examples/notebooks/verify-your-head.ipynb"
for need in "jupyter-nbconvert:command -v jupyter-nbconvert" \
            "python3-ipykernel:/usr/bin/python3 -c 'import ipykernel'" \
            "python3-matplotlib:/usr/bin/python3 -c 'import matplotlib'" \
            "python3-torch:/usr/bin/python3 -c 'import torch'"; do
  if ! eval "${need#*:}" >/dev/null 2>&1; then
    echo "FAIL: ${need%%:*} is missing (scripts/install-deps.sh installs it)"
    exit 1
  fi
done
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp "$notebook" "$scratch/"
start=$(date +%s)
# The kernel runs in the notebook's folder; its files go to a folder named relative to it, so
# that the outputs name no absolute path (notebook_outputs.py compares them).
if ! PYTHONPATH="$module_dir${PYTHONPATH:+:$PYTHONPATH}" KERNELRANK_NOTEBOOK_DIR=verify-your-head-files \
     jupyter-nbconvert --to notebook --execute --ExecutePreprocessor.timeout=300 \
       --output executed.ipynb "$scratch/verify-your-head.ipynb" >"$scratch/nbconvert.log" 2>&1; then
  echo "FAIL: the notebook did not execute:"
  tail -40 "$scratch/nbconvert.log"
  exit 1
fi
echo "notebook executed in $(( $(date +%s) - start )) s"
/usr/bin/python3 "$here/check_notebook.py" "$scratch/executed.ipynb" "$kr" "$checker" || exit 1
/usr/bin/python3 "$here/notebook_outputs.py" "$mode" "$scratch/executed.ipynb" "$(realpath "$notebook")"
