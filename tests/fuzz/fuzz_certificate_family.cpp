// Fuzz target: krcheck::check_certificate on a family certificate with its family file,
// both in memory. The input is the certificate, a line "%%family%%", then the family file.
// So that the fuzzer gets past the digest comparison to the steps and chains, the target
// writes the family's real SHA-256 over the 64 characters after the first "sha256=" of the
// certificate (when there are 64). Properties as in fuzz_certificate.cpp; errors may name
// either file.
#include "fuzz_support.hpp"

#include "check/check.hpp"
#include "check/sha256.hpp"

#include <optional>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input = fuzz_bytes(data, size);
  const std::string separator = "%%family%%\n";
  const std::size_t split = input.find(separator);
  if (split == std::string::npos) return 0;
  std::string cert = input.substr(0, split);
  const std::string family = input.substr(split + separator.size());
  const std::size_t digest_at = cert.find("sha256=");
  if (digest_at != std::string::npos && cert.size() >= digest_at + 7 + 64)
    cert.replace(digest_at + 7, 64, krcheck::to_hex(krcheck::sha256(family)));

  std::istringstream cert_stream(cert);
  std::istringstream family_stream(family);
  std::ostringstream out, err;
  const krcheck::CheckResult result =
      krcheck::check_certificate(krcheck::NamedInput{"fuzz.cert", &cert_stream},
                                 krcheck::NamedInput{"fuzz.family", &family_stream}, out, err);
  const std::string output = out.str();
  const std::string errors = err.str();
  const bool verified = result.status == krcheck::Status::verified;
  const std::string status = verified ? "s VERIFIED\n" : "s NOT VERIFIED\n";
  FUZZ_REQUIRE(output.find("\ns ") == output.size() - status.size() - 1);
  FUZZ_REQUIRE(output.compare(output.size() - status.size(), status.size(), status) == 0);
  FUZZ_REQUIRE(verified == errors.empty());
  if (!verified) {
    FUZZ_REQUIRE(errors.rfind("fuzz.cert:", 0) == 0 || errors.rfind("fuzz.family:", 0) == 0);
    FUZZ_REQUIRE(errors.find(": error: ") != std::string::npos);
    FUZZ_REQUIRE(errors.find("internal error") == std::string::npos);
    FUZZ_REQUIRE(errors.find("out of memory") == std::string::npos);
  }
  return 0;
}
