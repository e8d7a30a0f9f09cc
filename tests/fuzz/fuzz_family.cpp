// Fuzz target: parse_family (the producer's family reader).
// Properties: every instance has n tokens of width m and a query position in 0..n-1;
// family_to_text reads back to an equal family and is a fixed point.
#include "fuzz_support.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/instance.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const kernelrank::Family family =
        kernelrank::parse_family("fuzz.family", fuzz_bytes(data, size));
    for (const kernelrank::Instance& instance : family.instances) {
      FUZZ_REQUIRE(instance.length() == family.n);
      FUZZ_REQUIRE(instance.width() == family.m);
      FUZZ_REQUIRE(instance.query >= 0 && instance.query < family.n);
    }
    const std::string text = kernelrank::family_to_text(family);
    const kernelrank::Family again = kernelrank::parse_family("again.family", text);
    FUZZ_REQUIRE(again.m == family.m && again.n == family.n);
    FUZZ_REQUIRE(again.instances == family.instances);
    FUZZ_REQUIRE(kernelrank::family_to_text(again) == text);
  } catch (const kernelrank::InputError& e) {
    FUZZ_REQUIRE(e.file() == "fuzz.family");
  }
  return 0;
}
