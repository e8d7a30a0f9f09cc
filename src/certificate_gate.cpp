// See certificate_gate.hpp. The checker prints its comment and status lines on `out`;
// only its error lines matter here.
#include "kernelrank/certificate_gate.hpp"

#include "kernelrank/atomic_write.hpp"
#include "kernelrank/errors.hpp"

#include "check.hpp"  // the checker's library (src/check)
#include "sha256.hpp"

#include <sstream>

namespace kernelrank {

CheckerVerdict run_checker(const std::string& text, const std::optional<FamilyInput>& family_input) {
  std::istringstream cert(text);
  std::istringstream family_stream(family_input ? family_input->bytes : std::string());
  std::optional<krcheck::NamedInput> family;
  if (family_input) family = krcheck::NamedInput{family_input->path, &family_stream};
  std::ostringstream out, err;
  const krcheck::CheckResult result =
      krcheck::check_certificate(krcheck::NamedInput{"<certificate in memory>", &cert}, family, out, err);
  CheckerVerdict verdict;
  verdict.verified = result.status == krcheck::Status::verified;
  verdict.bound = result.bound;
  verdict.diagnostics = err.str();
  return verdict;
}

void require_checker_verified(const std::string& text, const std::optional<FamilyInput>& family) {
  const CheckerVerdict verdict = run_checker(text, family);
  if (!verdict.verified)
    throw InternalError("kernelrank-check refuses the certificate the producer made (a bug; nothing was written): " +
                        verdict.diagnostics);
}

std::string family_digest_hex(const std::string& bytes) { return krcheck::to_hex(krcheck::sha256(bytes)); }

std::string write_verified_certificate(const std::string& path, const std::string& text,
                                       const std::optional<FamilyInput>& family) {
  require_checker_verified(text, family);
  write_file_atomically(path, text);
  return "certificate written to " + path + " (verified in memory by the checker; check it with: kernelrank-check " +
         path + (family ? " " + family->path : std::string()) + ")\n";
}

}  // namespace kernelrank
