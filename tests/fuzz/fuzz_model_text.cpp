// Fuzz target: parse_model on the text format (tabular, features, parametric, builtin).
// Inputs that would be read as JSON (first non-blank character '{') are left to
// fuzz_model_json. See fuzz_model_common.hpp for the properties checked.
#include "fuzz_model_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string contents = fuzz_bytes(data, size);
  const std::size_t first = contents.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && contents[first] == '{') return 0;
  fuzz_model::check_model(contents);
  return 0;
}
