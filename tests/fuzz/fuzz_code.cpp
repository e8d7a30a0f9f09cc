// Fuzz target: parse_code (code files: one 0/1 word per line).
// Properties: an accepted code has at least one word, all of width m; writing it with
// code_to_text and reading it back gives the same words; its statistics are consistent.
#include "fuzz_support.hpp"

#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const kernelrank::Code code = kernelrank::parse_code("fuzz.code", fuzz_bytes(data, size));
    FUZZ_REQUIRE(!code.words.empty());
    for (const kernelrank::Token& word : code.words) FUZZ_REQUIRE(word.width() == code.m);
    const kernelrank::Code again =
        kernelrank::parse_code("again.code", kernelrank::code_to_text(code));
    FUZZ_REQUIRE(again.m == code.m && again.words == code.words);
    const kernelrank::CodeStatistics stats = kernelrank::code_statistics(code);
    FUZZ_REQUIRE(stats.size == code.words.size());
    FUZZ_REQUIRE(stats.min_weight <= stats.max_weight && stats.max_weight <= code.m);
  } catch (const kernelrank::InputError& e) {
    FUZZ_REQUIRE(e.file() == "fuzz.code");
  }
  return 0;
}
