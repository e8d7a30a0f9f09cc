// Internal: a model tabulated over a finite token universe, with each query
// row brought to integers over a common denominator.
//
// y = sum_j A[q][x_j] F[q][x_j] / sum_j A[q][x_j] is unchanged when a query's
// kernel row and product row P = A*F are scaled by the same positive number, so
// each row is multiplied by the lcm of its denominators and divided by the gcd
// of the results. Rows whose integers fit in 62 bits are evaluated with 64/128-bit
// integer arithmetic (exact); the others fall back to GMP rationals.
#pragma once

#include "kernelrank/evaluate.hpp"

#include <cstdint>
#include <vector>

namespace kernelrank::detail {

struct TabulatedModel {
  std::size_t universe = 0;  // U tokens, indexed 0..U-1
  int n = 0;                 // sequence length
  int blocks = 1;            // 1 (position independent) or n (key positions per query position)
  bool position_dependent = false;
  std::vector<std::uint16_t> overlap;  // U*U inner products
  // Integer rows, laid out [query position block][key position block][u][z]; for a
  // position-independent model there is a single block pair.
  std::vector<std::int64_t> kernel_int;
  std::vector<std::int64_t> product_int;
  std::vector<std::uint8_t> row_fits;  // [query block][u]
  // Exact rows for those that do not fit: same layout, empty vectors otherwise.
  std::vector<std::vector<Rational>> kernel_exact;   // [(qb*U + u)] -> blocks*U entries
  std::vector<std::vector<Rational>> product_exact;

  std::size_t block_offset(int query_block, int key_block, std::size_t u) const {
    return ((static_cast<std::size_t>(query_block) * static_cast<std::size_t>(blocks) +
             static_cast<std::size_t>(key_block)) * universe + u) * universe;
  }
};

// Tabulates `model` over `universe` for length-n sequences. Throws
// ResourceError when the tables would exceed the memory budget.
TabulatedModel tabulate(const Model& model, const std::vector<Token>& universe, int n);

// Evaluates all length-n sequences over the universe with the mode's queries.
EvalReport evaluate_tabulated(const TabulatedModel& table, const Model& model,
                              const std::vector<Token>& universe, const EvalOptions& options,
                              std::string method);

// The same loop in double precision (benchmark only; never used for a verdict).
struct DoubleLoopResult {
  std::uint64_t instances = 0;
  std::uint64_t failing = 0;
  double max_error = 0;
};
DoubleLoopResult evaluate_tabulated_double(const TabulatedModel& table, QueryMode mode);

// All tokens of width m in index order (m <= 24).
std::vector<Token> cube_tokens(int m);

}  // namespace kernelrank::detail
