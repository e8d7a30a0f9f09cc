# Sourced by the build scripts: sets compiler_cache_args to the CMake arguments that compile
# through ccache when it is installed (nothing needs it; a warm machine rebuilds faster).
# Paths inside the checkout are hashed relative to it, so another clone hits the cache too.
compiler_cache_args=()
if command -v ccache >/dev/null; then
  compiler_cache_args=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD"
fi
export CCACHE_NOHASHDIR=1  # debug info names the build directory; the cache key need not
