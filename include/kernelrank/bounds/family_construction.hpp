// Constructed upper bounds for families: the graded complement-detector head.
//
// A family whose distinct query tokens q_1..q_K are linearly independent gets a relu head
// with r = K features (kind=parametric, so PF by construction). Key feature i,
//
//   f_i(z) = relu(<c_i, z> - a <q_i, z> - |c_i| + 1),   c_i = complement of q_i,
//
// is 1 at z = c_i, 1 - a <q_i, z> on the other supersets of c_i (the intermediate tokens
// of a witness chain that starts at c_i are such supersets) and 0 on every token that
// misses a coordinate of c_i. The query features are solved exactly: phi_Q(q_i) has B at
// feature i and 1 elsewhere (W_Q = Y Q^T with G Y^T = U, G the Gram matrix of the
// queries, nonsingular exactly when they are independent). The readout is
// F_q(z) = <q, z> (v(z) = z, c(q) = q, d = m). So alpha(q_i, c_i) = B, alpha(q_i, c_j) = 1,
// and a superset of c_i at overlap s gets B (1 - a s): a large B makes the query's own
// complement dominate (the gap-g steps of L2 need factors g - 1), the slope a places the
// intermediates between the two.
//
// The construction is a proposal; the verdict is the exact evaluation on the family. a and
// B, when not given, are chosen on a grid by exact evaluation (the header's .cpp says how).
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace kernelrank {

struct ComplementHeadOptions {
  std::optional<Rational> slope;     // a >= 0; nullopt: chosen on the grid
  std::optional<Rational> diagonal;  // B > 0; nullopt: chosen on the grid
};

struct ComplementHead {
  std::shared_ptr<const ParametricModel> model;
  std::vector<Token> queries;  // feature i detects the complement of queries[i]
  Rational slope;
  Rational diagonal;
  EvalReport report;           // the exact evaluation of `model` on the family
  std::size_t candidates = 0;  // (a, B) pairs evaluated
};

// The head with the given (a, B), without evaluating it. Throws UsageError when the
// construction does not apply: an empty family, or queries that are linearly dependent
// (the message names one that is a combination of the others).
ComplementHead complement_head(const Family& family, const Rational& slope,
                               const Rational& diagonal);

// Builds the head, choosing a and B when not given, and evaluates it exactly on the family.
// The result may fail (report.solves() false): then it is the best candidate found.
ComplementHead construct_complement_head(const Family& family,
                                         const ComplementHeadOptions& options);

}  // namespace kernelrank
