// Seeded randomness that is the same on every platform.
//
// std::mt19937_64's output sequence is fixed by the C++ standard, but
// std::uniform_int_distribution is implementation-defined, so everything seeded
// in kernelrank (random codes, generated instance sets, benchmark models) draws
// through this class instead.
#pragma once

#include <cstdint>
#include <random>

namespace kernelrank {

class PortableUniform {
 public:
  explicit PortableUniform(std::uint64_t seed) : engine_(seed) {}

  // Uniform in [0, n), n >= 1: rejecting the lowest 2^64 mod n raw outputs
  // leaves a multiple of n values, so x % n is exactly uniform.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (std::uint64_t{0} - n) % n;
    for (;;) {
      const std::uint64_t x = engine_();
      if (x >= threshold) return x % n;
    }
  }

  std::uint64_t raw() { return engine_(); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace kernelrank
