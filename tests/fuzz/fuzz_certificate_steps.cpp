// Fuzz target: read_certificate_steps, the producer's reader of the step lines of a
// family certificate (`certify --baseline`), for a family with m = 8 and n = 4 (the
// width of the seed certificates). It reads from a path, so the input is handed over
// through an in-memory file. Properties: rejection is an InputError naming that path;
// accepted steps have tokens of width 8, a query position in 0..3 and k in 1..2.
#include "fuzz_support.hpp"

#include "kernelrank/bounds/family_bound.hpp"
#include "kernelrank/core/errors.hpp"

#include <sys/mman.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int fd = memfd_create("fuzz.cert", MFD_CLOEXEC);
  FUZZ_REQUIRE(fd >= 0);
  std::size_t written = 0;
  while (written < size) {
    const ssize_t n = write(fd, data + written, size - written);
    FUZZ_REQUIRE(n > 0);
    written += static_cast<std::size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    const auto steps = kernelrank::read_certificate_steps(path, 8, 4);
    for (const kernelrank::FamilyStep& step : steps) {
      FUZZ_REQUIRE(step.q.width() == 8 && step.a.width() == 8 && step.b.width() == 8);
      FUZZ_REQUIRE(step.position >= 0 && step.position < 4);
      FUZZ_REQUIRE(step.k >= 1 && step.k <= 2);
    }
  } catch (const kernelrank::InputError& e) {
    FUZZ_REQUIRE(e.file() == path);
  }
  close(fd);
  return 0;
}
