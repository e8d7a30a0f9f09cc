// Gap domination (theory.md L2) and amplification (L3).
//
// L2: for a query q and tokens a, b with gap g = <q,b> - <q,a> >= 2, a model in
// NK with error < 1/2 on S1 = (q, a^(n-1)), S2 = (q, b^(n-1)) and
// S3_k = (q, a^k, b^(n-1-k)) has W + (n-1)A > f (W + (n-1)B) with
// f = (n-1-k)(g-1)/k, where W = alpha(q,q), A = alpha(q,a), B = alpha(q,b);
// when f >= 1 this gives A > f B. L3 chains such steps through intermediate
// overlaps: R_n(G) is the best product over splits of a total gap G into
// parts >= 2, each part contributing (n-2)(g-1) (k = 1 is the best step).
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/core/token.hpp"

#include <optional>
#include <vector>

namespace kernelrank {

// (n-1-k)(g-1)/k; requires n >= 3, 1 <= k <= n-2, g >= 2.
Rational gap_domination_factor(int n, int gap, int k = 1);

struct Amplification {
  Integer factor;          // R_n(G)
  std::vector<int> parts;  // an optimal split (parts >= 2, sum G; empty for G = 0)
};

// R_n(G) for G = 0..max_gap by exact dynamic programming. G = 1 (and any G
// that cannot be split into parts >= 2) has no bound.
class AmplificationTable {
 public:
  AmplificationTable(int n, int max_gap);
  int n() const { return n_; }
  int max_gap() const { return static_cast<int>(best_.size()) - 1; }
  // nullopt when the gap admits no chain (G = 1) or is out of range.
  const std::optional<Amplification>& at(int gap) const;

 private:
  int n_;
  std::vector<std::optional<Amplification>> best_;
};

// The three instances of one domination step (query at position 1).
struct DominationStep {
  Token q, a, b;
  int k = 1;
  Instance s1, s2, s3;
};
DominationStep domination_step(const Token& q, const Token& a, const Token& b, int n, int k = 1);

// Tokens z_0 = from, z_1, ..., z_t = to with <q, z_s> increasing by the given
// parts: every intermediate overlap is realised in the cube. Requires
// <q,from> + sum(parts) = <q,to>.
std::vector<Token> cube_chain(const Token& q, const Token& from, const Token& to,
                              const std::vector<int>& parts);

}  // namespace kernelrank
