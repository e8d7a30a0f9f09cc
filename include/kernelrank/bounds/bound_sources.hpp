// The best certified lower bound on the feature rank of T(m,n) from every source the
// checker has a rule for: the code bound (trace or dominance rule), the order argument
// (r >= 2 from T(4,3), r >= 3 from T(5,3)), inherited by every larger m through the
// zero-padding embedding, the linear-dependence argument (r >= floor(m/2) for m = 4..17),
// the one-row bound r >= 1, and products of codes (product_bound.hpp, any m up to 100,000).
// Only the best candidate goes through the certificate gate, which runs the checker once; a
// candidate the gate refuses (a bug) is dropped and the next best is tried, so no
// certificate wins without the checker, and the normal case costs one checker run.
#pragma once

#include "kernelrank/bounds/bound_search.hpp"
#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

enum class BoundSource { Code, Order, InheritedOrder, Dependence, OneRow, Product };
std::string to_string(BoundSource source);

struct SourcedCandidate {
  BoundSource source = BoundSource::Code;
  // The best's: the checker's bound (certificate.bound()). The others': what they claim,
  // not seen by the checker.
  Integer bound = 0;
  VerifiedCertificate certificate;  // the best's, checked once; empty for the others
  std::string unchecked_text;       // the others' certificate text, for certify_candidate
  std::string description;          // one line for people
  std::vector<std::string> blocks;  // product of codes: each block, "name x copies"
  int hadamard_power = 1;           // product of codes: k of theory.md L4' (1: the plain rule)
};

// A candidate the gate refused: a wrong certificate, so a bug in its source.
struct RefusedCandidate {
  BoundSource source = BoundSource::Code;
  Integer claim = 0;
  std::string refusal;  // the gate's reason
};

struct SourcedBound {
  SourcedCandidate best;
  std::vector<SourcedCandidate>
      candidates;  // every source that gave a bound, best first on ties as chosen
  std::vector<RefusedCandidate> refused;  // better candidates the gate refused (normally none)
  std::optional<BoundSearchResult> code;  // the code search, when some construction applied
  std::string code_reason;                // why the code search gave nothing, when it did not
};

// Ties go to the code bound, then the direct order argument, then inheritance, then the
// dependence argument, so that a bound the code already gives keeps its (format 1) certificate.
// The winner is the first candidate in that order that the gate accepts; InternalError
// (exit 4) when it refuses them all.
SourcedBound best_certified_bound(const CertificateTask& task, const BoundSearchOptions& options);

// Puts a candidate that is not the best (e.g. the code's alone) through the gate, once;
// nothing to do when it already holds its certificate. InternalError when it is refused.
void certify_candidate(SourcedCandidate& candidate);

}  // namespace kernelrank
