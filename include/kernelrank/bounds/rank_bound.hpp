// Certified lower bounds on the feature rank (theory.md L4), computed exactly.
//
// Rows i carry an own token c_i and a query token q_i; M[i][j] = alpha(q_i, c_j).
// For every ordered pair i != j the gap G_ij = <q_i,c_j> - <q_i,c_i> must be >= 2,
// and then M[i][i] > R_n(G_ij) M[i][j] for any NK model solving T(m,n). Two rules
// turn the factors rho_ij = R_n(G_ij) into a bound on rank M <= r:
//
// * trace: N = diag(M)^-1 M scaled by column weights d_j = 1/(1 + c_j), with
//   c_j = sum_{i != j} rho_ij^-2, has trace sum_j d_j and squared Frobenius norm
//   < sum_j d_j, so rank M > T = sum_j 1/(1 + c_j) (Schur: rank >= tr^2/||.||_F^2).
//   Each term is rounded down to a multiple of 2^-precision, which keeps the sum
//   exact and cheap and only lowers T. Uniform weights give theory.md's
//   N^2 / (N + sum rho^-2), which this never falls below (Jensen).
// * dominance: if every row has sum_{j != i} 1/rho_ij <= 1, diag(M)^-1 M is
//   strictly diagonally dominant, so rank M = N.
#pragma once

#include "kernelrank/core/rational.hpp"
#include "kernelrank/core/token.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kernelrank {

struct BoundRow {
  Token own;    // c_i (also column i)
  Token query;  // q_i
};

// Rows with q_i = complement(c_i): <q_i,c_i> = 0 and G_ij = |c_j \ c_i|.
std::vector<BoundRow> complement_rows(const std::vector<Token>& code);

// ShiftedTrace: the trace rule after subtracting t J (docs/bounds.md, "A sharper rank
// inequality"); for explicit families only, where its entries are known to be >= 0.
enum class BoundRule { Trace, Dominance, ShiftedTrace };
std::string to_string(BoundRule rule);

struct RankBoundResult {
  BoundRule rule = BoundRule::Trace;
  int n = 3;
  std::size_t rows = 0;
  bool applicable = false;                     // false: some gap < 2, or dominance fails
  std::string reason;                          // why not applicable
  int precision = 64;                          // trace only
  Integer trace_sum;                           // trace: S with T = S / 2^precision
  Rational shift;                              // shifted trace: t of W = t J (S: of T_W)
  Rational max_row_sum;                        // dominance: the largest sum_{j != i} 1/rho_ij
  Integer bound;                               // r >= bound (0 when not applicable)
  std::map<int, std::uint64_t> gap_histogram;  // over ordered pairs i != j

  Rational trace_value() const;  // S / 2^precision
};

inline constexpr std::size_t kMaxBoundRows = 200'000;

RankBoundResult certify_rank_bound(const std::vector<BoundRow>& rows, int n, BoundRule rule,
                                   int precision = 64);

// The column-weighted trace bound for explicit factors, without rounding:
// sum_j 1/(1 + sum_{i != j} rho[i][j]^-2). rho[i][j] = 0 marks "no bound" and is
// rejected; the diagonal is ignored. rank M > this value for every nonnegative
// M with M[i][i] > rho[i][j] M[i][j].
Rational trace_bound_value(const std::vector<std::vector<Rational>>& rho);

// The better of the two rules (trace first on ties).
RankBoundResult best_rank_bound(const std::vector<BoundRow>& rows, int n, int precision = 64);

}  // namespace kernelrank
