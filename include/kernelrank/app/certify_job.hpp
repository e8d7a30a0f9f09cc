// The pipeline behind `kernelrank certify` and kernelrank.certify: the best bound an explicit
// family supports, its certificate always through the gate (a bound is shown as certified
// only after the checker verified it, and the bound reported is the checker's), the steps of an
// earlier certificate (read by the checker's own parser) that the family no longer supports, and
// the certificate file.
#pragma once

#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/family_bound.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

struct CertifyRequest {
  std::string family;       // the family file
  std::string certificate;  // write the certificate here ("": not written)
  std::string baseline;     // an earlier certificate whose lost steps are listed ("": none)
  bool position_dependent = false;
};

struct CertifyOutcome {
  int m = 0, n = 0;
  std::size_t instances = 0;
  FamilyBound bound;                // with a bound, bound.bound.bound is the checker's
  VerifiedCertificate certificate;  // the bound's, checked by the gate; empty without a bound
  std::string certificate_message;  // write_verified_certificate's sentence, or ""
  std::optional<std::vector<IncompletePattern>> lost_steps;  // with a baseline
};

// The certificate is written last, after the baseline was read.
CertifyOutcome run_certify(const CertifyRequest& request);

// One line about a pattern: "query Q at position P, a = A, b = B: missing S1 = ..." (with
// position, an incomplete pattern of the family; without, a lost step of a baseline).
std::string incomplete_pattern_text(const IncompletePattern& pattern, bool with_position);

}  // namespace kernelrank
