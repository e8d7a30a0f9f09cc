#!/usr/bin/env bash
# Installs the Debian 12 packages kernelrank needs; does nothing when all are present.
set -euo pipefail
# cvc5 is optional: only `search --solver cvc5|both` runs it (found on PATH at run time); the
# build and the tests do not need it. jupyter-nbconvert, python3-ipykernel and
# python3-matplotlib run the example notebook (examples/notebooks/) in the test suite.
packages=(build-essential cmake xz-utils python3 libboost-dev libgmp-dev libz3-dev doctest-dev
          libcli11-dev nlohmann-json3-dev libtorch-dev gnuplot-nox libopenmpi-dev openmpi-bin
          libflint-arb-dev libflint-dev pybind11-dev python3-dev python3-numpy python3-torch
          clang-format clang-tidy ccache strace cvc5 jupyter-nbconvert python3-ipykernel
          python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present" >&2
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
