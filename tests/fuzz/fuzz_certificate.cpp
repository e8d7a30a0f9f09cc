// Fuzz target: the independent checker's entry point, krcheck::check_certificate, on a
// cube certificate held in memory (no family argument).
// Properties: exactly one status line, and it is the last line of the output; "s VERIFIED"
// exactly when the status is verified and nothing was reported on the error stream; every
// error line has the form "fuzz.cert:LINE: error: ..."; no internal error or out-of-memory.
#include "fuzz_support.hpp"

#include "check/check.hpp"

#include <optional>
#include <sstream>

namespace {

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++count;
  return count;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream cert_stream(fuzz_bytes(data, size));
  std::ostringstream out, err;
  const krcheck::CheckResult result = krcheck::check_certificate(
      krcheck::NamedInput{"fuzz.cert", &cert_stream}, std::nullopt, out, err);
  const std::string output = out.str();
  const std::string errors = err.str();
  FUZZ_REQUIRE(count_of(output, "\ns ") == 1);
  const bool verified = result.status == krcheck::Status::verified;
  const std::string status = verified ? "s VERIFIED\n" : "s NOT VERIFIED\n";
  FUZZ_REQUIRE(output.size() >= status.size() &&
               output.compare(output.size() - status.size(), status.size(), status) == 0);
  FUZZ_REQUIRE(verified == errors.empty());
  if (!verified) {
    FUZZ_REQUIRE(errors.rfind("fuzz.cert:", 0) == 0);
    FUZZ_REQUIRE(errors.find(": error: ") != std::string::npos);
    FUZZ_REQUIRE(errors.find("internal error") == std::string::npos);
    FUZZ_REQUIRE(errors.find("out of memory") == std::string::npos);
  }
  return 0;
}
