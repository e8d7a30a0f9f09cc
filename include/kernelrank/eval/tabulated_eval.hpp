// Internal: a model tabulated over a finite token universe, with each query
// row brought to integers over a common denominator, and the block-parallel
// exact evaluation of all length-n sequences over the universe.
//
// y = sum_j A[q][x_j] F[q][x_j] / sum_j A[q][x_j] is unchanged when a query's
// kernel row and product row P = A*F are scaled by the same positive number, so
// each row is multiplied by the lcm of its denominators and divided by the gcd
// of the results. Each row then gets a tier:
//
//   narrow  A >= 0 and every sum |SA| and |SP - t SA| of the row is below 2^32: the
//           whole test (2|SP - t SA| >= SA, and the comparison with the running maximum
//           by cross-multiplication) runs in 64-bit integer lanes, vectorised;
//   wide    the integers fit in 62 bits: 64/128-bit scalar integer arithmetic;
//   exact   GMP rationals.
//
// All three are exact. When the model does not depend on positions, the keys of an
// instance are a multiset: only non-decreasing key tuples are visited, each weighted by
// its number of orderings (and, in mode `all`, by n: every query position gives the same
// instance), so counts stay counts of ordered instances. Failing instances and the worst
// instance are reported by their index in the ordered enumeration (see enumeration_index),
// which makes the report independent of the visiting order, of threads and of shards.
#pragma once

#include "kernelrank/eval/eval_partial.hpp"
#include "kernelrank/eval/evaluate.hpp"

#include <cstdint>
#include <vector>

namespace kernelrank::detail {

enum class RowTier : std::uint8_t { Exact = 0, Wide = 1, Narrow = 2 };

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
  std::vector<RowTier> row_tier;       // [query block][u]
  std::vector<std::uint8_t> row_fits;  // [query block][u]: 1 when the row is on an integer tier
  std::vector<std::uint8_t>
      row_positive;  // [query block][u]: every kernel integer > 0 (no zero sums)
  // Exact rows for those that do not fit: same layout, empty vectors otherwise.
  std::vector<std::vector<Rational>> kernel_exact;  // [(qb*U + u)] -> blocks*U entries
  std::vector<std::vector<Rational>> product_exact;

  std::size_t block_offset(int query_block, int key_block, std::size_t u) const {
    return ((static_cast<std::size_t>(query_block) * static_cast<std::size_t>(blocks) +
             static_cast<std::size_t>(key_block)) *
                universe +
            u) *
           universe;
  }
  std::size_t rows_in_tier(RowTier tier) const;
};

// Tabulates `model` over `universe` for length-n sequences. Throws
// ResourceError when the tables would exceed the memory budget. The model is asked on
// the calling thread only; products, row integers and tiers use `threads` threads (the
// table is the same for every value).
TabulatedModel tabulate(const Model& model, const std::vector<Token>& universe, int n,
                        int threads = 1);

// Knobs for tests and the benchmark; the defaults are what eval uses.
struct EngineOptions {
  bool multiset = true;   // fold key orderings (and query positions) of position-independent models
  bool vectorise = true;  // narrow rows in vector lanes (false: every integer row on the wide path)
};

// Number of blocks of the task (the unit of threads and shards).
std::uint64_t tabulated_block_count(const TabulatedModel& table, QueryMode mode,
                                    const EngineOptions& engine = {});

// Evaluates the blocks options.shard owns, on options.threads threads.
EvalSummary evaluate_tabulated_summary(const TabulatedModel& table, const Model& model,
                                       const std::vector<Token>& universe,
                                       const EvalOptions& options, std::string method,
                                       const EngineOptions& engine = {});
// Whole task (options.shard is ignored).
EvalReport evaluate_tabulated(const TabulatedModel& table, const Model& model,
                              const std::vector<Token>& universe, const EvalOptions& options,
                              std::string method, const EngineOptions& engine = {});

// The same enumeration in double precision (benchmark only; never used for a verdict):
// the same blocks, the same multiset weights, the same threads. `division` selects the
// form of the inner test: |SP/SA - t| (true) or the exact loop's cross-multiplied form
// 2|SP - t SA| >= SA with the running maximum compared by cross-multiplication (false).
struct DoubleLoopResult {
  std::uint64_t instances = 0;
  std::uint64_t failing = 0;
  double max_error = 0;
};
struct DoubleTable {
  std::vector<double> kernel, product, overlap;  // same layout as the integer tables
};
DoubleTable double_table(const TabulatedModel& table);
DoubleLoopResult evaluate_tabulated_double(const TabulatedModel& table, const DoubleTable& values,
                                           QueryMode mode, int threads, bool division,
                                           const EngineOptions& engine = {});

// All tokens of width m in index order (m <= 24).
std::vector<Token> cube_tokens(int m);

}  // namespace kernelrank::detail
