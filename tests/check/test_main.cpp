// The single doctest main of the checker's tests (they link only kernelrank_check_lib).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
