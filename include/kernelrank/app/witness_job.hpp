// The pipeline behind `kernelrank witness` and kernelrank.witness: the witness family of the
// best construction tried (a code file, the Golay octads or dodecads, or lexicodes of weight
// m/2 from the sparsest down), its family certificate passed through the gate, and the files
// written. The bound reported is the checker's. Messages name parameters as {mode},
// {golay}, {max-instances} (core/errors.hpp).
#pragma once

#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/family_bound.hpp"
#include "kernelrank/bounds/witness.hpp"
#include "kernelrank/core/instance.hpp"

#include <cstddef>
#include <string>

namespace kernelrank {

struct WitnessRequest {
  int m = 24;  // the lexicodes' width (a code file or Golay sets its own)
  int n = 3;
  std::string code;                   // a code file whose words are the tokens; or
  std::string golay;                  // "octads" or "dodecads"; or neither: lexicodes of weight m/2
  QueryMode mode = QueryMode::First;  // first or last
  bool position_dependent = false;
  std::size_t max_instances = 3000;
  std::string out;          // the family file to write ("": none, the text is returned)
  std::string certificate;  // the certificate file to write ("": none)
};

struct WitnessOutcome {
  std::string construction;  // the winning code: "lexicode m=12 w=6 d=6", "golay octads", ...
  Witness witness;
  FamilyBound bound;  // bound.bound.bound is the checker's number
  std::string family_text;
  VerifiedCertificate certificate;
  std::string certificate_message;  // write_verified_certificate's sentence, or ""
};

// The certificate is checked against the family text before either file is written; the
// family is written first, then the certificate.
WitnessOutcome run_witness(const WitnessRequest& request);

}  // namespace kernelrank
