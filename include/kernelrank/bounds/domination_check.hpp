// Tests the gap-domination inequalities (theory.md L2) on a given model.
//
// For every query q and tokens a, b with gap g = <q,b> - <q,a> >= 2 and every
// 1 <= k <= n-2, a model with error < 1/2 on S1, S2 and S3_k must satisfy
// k (W + (n-1)A) > (n-1-k)(g-1) (W + (n-1)B). Each violated inequality is
// reported with its three instances evaluated exactly; by L2 at least one of
// them fails, which the checker confirms (a failure to confirm is reported as
// an internal error: it would contradict L2).
#pragma once

#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model.hpp"

#include <cstdint>
#include <vector>

namespace kernelrank {

struct DominationViolation {
  Token q, a, b;
  int k = 1;
  int gap = 0;
  Rational factor;             // (n-1-k)(g-1)/k
  Rational lhs, rhs;           // W + (n-1)A and factor * (W + (n-1)B)
  InstanceOutcome s1, s2, s3;  // exact outcomes; in NK at least one fails (L2)
  // S1, S2 and S3_k all solved although the inequality fails: possible only for a signed
  // kernel, where the weights of S3_k need not be a convex combination
  // (docs/open-questions.md).
  bool all_solved = false;
};

struct DominationReport {
  Classification classification;  // of the model, on the tokens it defines
  std::uint64_t checked = 0;      // inequalities tested
  std::uint64_t violated = 0;
  std::vector<DominationViolation> violations;  // the first max_reported ones
};

// Every triple of the cube {0,1}^m (2^(3m) of them; refused above `limit`).
// Position-independent models only.
DominationReport check_domination_cube(const Model& model, int m, int n,
                                       std::size_t max_reported = 10,
                                       std::uint64_t limit = 1ULL << 27);

// The steps the family supports (S1, S2 and S3_k all present with the query at
// the same position, keys compared as multisets), at any query position.
DominationReport check_domination_family(const Model& model, const Family& family,
                                         std::size_t max_reported = 10);

// Builds the violation record for one triple (evaluates S1, S2, S3_k exactly). For a model
// of class `model_class` in NK, all three solved would contradict L2: InternalError.
DominationViolation describe_violation(const Model& model, ModelClass model_class, const Token& q,
                                       const Token& a, const Token& b, int n, int k);

}  // namespace kernelrank
