#!/usr/bin/env bash
# Makes `import kernelrank` work in the Python 3 interpreters of this machine (python3 on
# PATH and /usr/bin/python3) by writing a kernelrank-build.pth file that names this
# checkout's build/python into each one's site-packages (the user's site-packages when the
# system one is not writable). Only interpreters of the module's Python version (e.g. 3.11)
# can load it; the others are named and left alone. Run by scripts/build.sh; idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
module_dir="$(pwd)/build/python"
shopt -s nullglob
modules=("$module_dir"/kernelrank*.so)
if [ ${#modules[@]} -eq 0 ]; then
  echo "kernelrank: no Python module in build/python (pybind11 or the Python headers missing); skipped" >&2
  exit 0
fi
# kernelrank.cpython-311-x86_64-linux-gnu.so -> 311
tag="$(basename "${modules[0]}" | sed -n 's/^kernelrank\.cpython-\([0-9]*\)-.*/\1/p')"

declare -A seen=()
for candidate in python3 /usr/bin/python3; do
  py="$(command -v "$candidate" 2>/dev/null || true)"
  [ -n "$py" ] || continue
  real="$(readlink -f "$py")"
  [ -z "${seen[$real]:-}" ] || continue
  seen[$real]=1
  version="$("$py" -c 'import sys; print("%d%d" % sys.version_info[:2])' 2>/dev/null || true)"
  if [ "$version" != "$tag" ]; then
    echo "kernelrank: $py is Python ${version:-?}, the module is built for ${tag:-?}; not registered there" >&2
    continue
  fi
  target="$("$py" - <<'PY'
import os, site, sysconfig
for d in [sysconfig.get_paths()["purelib"]] + ([site.getusersitepackages()] if site.ENABLE_USER_SITE else []):
    try:
        os.makedirs(d, exist_ok=True)
        if os.access(d, os.W_OK):
            print(d)
            break
    except OSError:
        pass
PY
)"
  if [ -z "$target" ]; then
    echo "kernelrank: no writable site-packages for $py; use PYTHONPATH=$module_dir" >&2
    continue
  fi
  printf '%s\n' "$module_dir" >"$target/kernelrank-build.pth.tmp"
  mv "$target/kernelrank-build.pth.tmp" "$target/kernelrank-build.pth"
  if "$py" -c 'import kernelrank' 2>/dev/null; then
    echo "kernelrank: 'import kernelrank' works in $py ($target/kernelrank-build.pth)" >&2
  else
    # Not fatal for the build: the README-examples test reports it.
    echo "kernelrank: wrote $target/kernelrank-build.pth but $py still cannot import kernelrank" >&2
  fi
done
