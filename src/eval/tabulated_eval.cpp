// Exact evaluation of all sequences over a finite token universe (the cube
// task T(m,n) or a token set such as a code), with integer fast paths, multiset
// enumeration of the keys, and blocks shared by threads and shards (see
// tabulated_eval.hpp): the exact policies for the walk of tabulated_walk.hpp, and the
// front doors evaluate_cube and evaluate_token_set. Tabulation is in tabulate.cpp.
#include "eval/tabulated_walk.hpp"

#include "eval/eval_report.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/progress.hpp"
#include "kernelrank/eval/eval_kernels.hpp"

#include <gmp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

namespace kernelrank::detail {
namespace {

// a > b for 256-bit products: compares an*bd with bn*ad.
bool ratio_greater(u128 an, u128 ad, u128 bn, u128 bd) {
  if (((an | ad | bn | bd) >> 64) == 0) return an * bd > bn * ad;  // products fit in 128 bits
  auto mul = [](u128 x, u128 y, u128& hi, u128& lo) {
    const u128 x0 = static_cast<std::uint64_t>(x), x1 = x >> 64;
    const u128 y0 = static_cast<std::uint64_t>(y), y1 = y >> 64;
    const u128 p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    const u128 mid =
        (p00 >> 64) + static_cast<std::uint64_t>(p01) + static_cast<std::uint64_t>(p10);
    lo = (mid << 64) | static_cast<std::uint64_t>(p00);
    hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  };
  u128 lhs_hi, lhs_lo, rhs_hi, rhs_lo;
  mul(an, bd, lhs_hi, lhs_lo);
  mul(bn, ad, rhs_hi, rhs_lo);
  return lhs_hi != rhs_hi ? lhs_hi > rhs_hi : lhs_lo > rhs_lo;
}

Integer to_integer(u128 value) {
  Integer result = static_cast<std::uint64_t>(value >> 64);
  result <<= 64;
  result += static_cast<std::uint64_t>(value);
  return result;
}

int bit_length(u128 value) {
  int bits = 0;
  while (value != 0) {
    ++bits;
    value >>= 1;
  }
  return bits;
}

// The running maximum of one worker: exact value, its index, and a lower bound tn/td on it
// with tn, td < 2^31 for the vectorised filter.
struct Best {
  bool any = false;
  bool small = true;  // value is num/den (128-bit); otherwise only `value` holds it
  u128 num = 0, den = 1;
  Rational value;
  std::uint64_t index = 0;
  std::uint64_t tn = 0, td = 1;

  void set_small(u128 n, u128 d, std::uint64_t at) {
    any = true;
    small = true;
    num = n;
    den = d;
    index = at;
    value = make_rational(to_integer(n), to_integer(d));
    const int bits = std::max(bit_length(n), bit_length(d));
    if (bits <= 31) {
      tn = static_cast<std::uint64_t>(n);
      td = static_cast<std::uint64_t>(d);
    } else {
      const int s = bits - 30;  // tn <= n / 2^s and td > d / 2^s, both < 2^31
      tn = static_cast<std::uint64_t>(n >> s);
      td = static_cast<std::uint64_t>(d >> s) + 1;
    }
  }
  void set_exact(const Rational& v, std::uint64_t at) {
    any = true;
    small = false;
    value = v;
    index = at;
    Integer n = numerator(v), d = denominator(v);
    const std::size_t bits =
        std::max(mpz_sizeinbase(n.backend().data(), 2), mpz_sizeinbase(d.backend().data(), 2));
    if (mpz_sgn(n.backend().data()) == 0) {
      tn = 0;
      td = 1;
    } else if (bits <= 31) {
      tn = mpz_get_ui(n.backend().data());
      td = mpz_get_ui(d.backend().data());
    } else {
      const auto s = static_cast<mp_bitcnt_t>(bits - 30);
      mpz_fdiv_q_2exp(n.backend().data(), n.backend().data(), s);
      mpz_fdiv_q_2exp(d.backend().data(), d.backend().data(), s);
      tn = mpz_get_ui(n.backend().data());
      td = mpz_get_ui(d.backend().data()) + 1;
    }
  }
  bool beaten_by(u128 n, u128 d) const {
    if (!any) return true;
    if (small) return ratio_greater(n, d, num, den);
    return make_rational(to_integer(n), to_integer(d)) > value;
  }
  bool beaten_by(const Rational& v) const { return !any || v > value; }
};

// What one worker has seen of the blocks it ran.
template <bool Narrow>
class IntegerPolicy;
class RationalPolicy;

struct ExactWorker {
  explicit ExactWorker(std::size_t max_failures) : failures(max_failures) {}
  std::uint64_t instances = 0, failing = 0, undefined = 0;
  Best best;
  FirstIndices failures;
  // Solved instances with a negative denominator (signed kernels; never on narrow rows,
  // whose kernel is >= 0) and the smallest index among the visited ones, which is the
  // smallest index of every instance they stand for (see offer_failure).
  std::uint64_t negative = 0;
  std::uint64_t first_negative = std::numeric_limits<std::uint64_t>::max();
  void note_negative(std::uint64_t weight, std::uint64_t index, bool count) {
    if (count) negative += weight;
    first_negative = std::min(first_negative, index);
  }
  // Created on the worker's first block (workers do not move once the blocks run).
  std::shared_ptr<IntegerPolicy<true>> narrow;
  std::shared_ptr<IntegerPolicy<false>> wide;
  std::shared_ptr<RationalPolicy> rational;
  std::vector<std::uint32_t> keys;
};

// Rows whose integers fit: narrow (vectorised; the sums, below 2^32, are kept in 64 bits)
// or wide (scalar, 128-bit sums).
template <bool Narrow>
class IntegerPolicy {
 public:
  using Value = std::conditional_t<Narrow, std::int64_t, i128>;
  struct Sum {
    Value a, p;
  };
  IntegerPolicy(const TabulatedModel& table, const Layout& layout, const EngineOptions& engine,
                ExactWorker& worker)
      : table_(table), layout_(layout), engine_(engine), worker_(worker) {}

  Sum begin_row(std::uint64_t pass, int qp, std::size_t u) {
    if (row_.load(table_, layout_, pass, u, table_.kernel_int.data(), table_.product_int.data())) {
      const int qb = table_.position_dependent ? qp : 0;
      maybe_zero_ = !table_.row_positive[static_cast<std::size_t>(qb) * layout_.U + u];
      ov_ = &table_.overlap[u * layout_.U];
    }
    const std::size_t self = RowTables<std::int64_t>::self_offset(table_, qp, u);
    return {table_.kernel_int[self], table_.product_int[self]};
  }
  Sum add(const Sum& s, int d, std::size_t z) const {
    return {s.a + row_.a[static_cast<std::size_t>(d)][z],
            s.p + row_.p[static_cast<std::size_t>(d)][z]};
  }
  void single(const Sum& s, int t, std::uint64_t weight, std::uint64_t index,
              const std::vector<std::uint32_t>& keys) {
    test(s.a, s.p, t, weight, index, keys, true);
  }
  void segment(const Sum& s, int t, int d, std::size_t lo, std::size_t hi, std::uint64_t weight,
               std::uint64_t first_weight, std::uint64_t base, std::vector<std::uint32_t>& keys) {
    const std::int64_t* a = row_.a[static_cast<std::size_t>(d)];
    const std::int64_t* p = row_.p[static_cast<std::size_t>(d)];
    bool count = true;
    if constexpr (Narrow) {
      NarrowArgs g;
      g.a = a;
      g.p = p;
      g.ov = ov_;
      g.lo = lo;
      g.hi = hi;
      g.ca = static_cast<std::int64_t>(s.a);
      g.cp = static_cast<std::int64_t>(s.p);
      g.tp = t;
      g.tn = worker_.best.tn;
      g.td = worker_.best.td;
      g.maybe_zero = maybe_zero_;
      const NarrowCounts c = narrow_segment(g);
      worker_.instances += weight * (hi - lo) - (weight - first_weight);
      worker_.failing += weight * c.fails;
      worker_.undefined += weight * c.undefined;
      if (first_weight != weight) {
        // The first instance counts first_weight times, not weight times.
        const std::int64_t sa = g.ca + a[lo];
        const std::int64_t num = g.cp + p[lo] - std::min<std::int64_t>(t, ov_[lo]) * sa;
        if (2 * (num < 0 ? -num : num) >= sa) worker_.failing -= weight - first_weight;
        if (sa == 0) worker_.undefined -= weight - first_weight;
      }
      // Look closer only where the maximum may move, a failure may be listed, or no maximum
      // exists yet.
      if (worker_.best.any && !c.beats &&
          (c.fails == 0 || !worker_.failures.might_accept(base + lo)))
        return;
      count = false;
    }
    for (std::size_t z = lo; z < hi; ++z) {
      keys[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(z);
      test(static_cast<i128>(s.a) + a[z], static_cast<i128>(s.p) + p[z], std::min<int>(t, ov_[z]),
           z == lo ? first_weight : weight, base + z, keys, count);
    }
  }

 private:
  void test(i128 sa, i128 sp, int t, std::uint64_t weight, std::uint64_t index,
            const std::vector<std::uint32_t>& keys, bool count) {
    if (count) worker_.instances += weight;
    if (sa == 0) {
      if (count) {
        worker_.failing += weight;
        worker_.undefined += weight;
      }
      offer_failure(layout_, worker_.failures, index, keys);
      return;
    }
    const i128 num = sp - static_cast<i128>(t) * sa;
    const u128 anum = static_cast<u128>(num < 0 ? -num : num);
    const u128 aden = static_cast<u128>(sa < 0 ? -sa : sa);
    if (2 * anum >= aden) {
      if (count) worker_.failing += weight;
      offer_failure(layout_, worker_.failures, index, keys);
    } else if (sa < 0) {
      worker_.note_negative(weight, index, count);
    }
    if (worker_.best.beaten_by(anum, aden)) worker_.best.set_small(anum, aden, index);
  }

  const TabulatedModel& table_;
  const Layout& layout_;
  const EngineOptions& engine_;
  ExactWorker& worker_;
  RowTables<std::int64_t> row_;
  const std::uint16_t* ov_ = nullptr;
  bool maybe_zero_ = true;
};

// Rows too large for integers: GMP rationals.
class RationalPolicy {
 public:
  struct Sum {
    Rational a, p;
  };
  RationalPolicy(const TabulatedModel& table, const Layout& layout, ExactWorker& worker)
      : table_(table),
        layout_(layout),
        worker_(worker),
        pos_(static_cast<std::size_t>(std::max(layout.k, 1))) {}

  Sum begin_row(std::uint64_t pass, int qp, std::size_t u) {
    const int qb = table_.position_dependent ? qp : 0;
    ea_ = &table_.kernel_exact[static_cast<std::size_t>(qb) * layout_.U + u];
    ep_ = &table_.product_exact[static_cast<std::size_t>(qb) * layout_.U + u];
    const std::vector<int>& keys = layout_.others[static_cast<std::size_t>(pass)];
    for (int d = 0; d < layout_.k; ++d)
      pos_[static_cast<std::size_t>(d)] =
          static_cast<std::size_t>(table_.position_dependent ? keys[static_cast<std::size_t>(d)]
                                                             : 0) *
          layout_.U;
    ov_ = &table_.overlap[u * layout_.U];
    const std::size_t self =
        static_cast<std::size_t>(table_.position_dependent ? qp : 0) * layout_.U + u;
    return {(*ea_)[self], (*ep_)[self]};
  }
  Sum add(const Sum& s, int d, std::size_t z) const {
    const std::size_t at = pos_[static_cast<std::size_t>(d)] + z;
    return {s.a + (*ea_)[at], s.p + (*ep_)[at]};
  }
  void single(const Sum& s, int t, std::uint64_t weight, std::uint64_t index,
              const std::vector<std::uint32_t>& keys) {
    worker_.instances += weight;
    if (s.a == 0) {
      worker_.failing += weight;
      worker_.undefined += weight;
      offer_failure(layout_, worker_.failures, index, keys);
      return;
    }
    const Rational error = abs_of(s.p / s.a - t);
    if (error * 2 >= 1) {
      worker_.failing += weight;
      offer_failure(layout_, worker_.failures, index, keys);
    } else if (s.a < 0) {
      worker_.note_negative(weight, index, true);
    }
    if (worker_.best.beaten_by(error)) worker_.best.set_exact(error, index);
  }
  void segment(const Sum& s, int t, int d, std::size_t lo, std::size_t hi, std::uint64_t weight,
               std::uint64_t first_weight, std::uint64_t base, std::vector<std::uint32_t>& keys) {
    for (std::size_t z = lo; z < hi; ++z) {
      keys[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(z);
      single(add(s, d, z), std::min<int>(t, ov_[z]), z == lo ? first_weight : weight, base + z,
             keys);
    }
  }

 private:
  const TabulatedModel& table_;
  const Layout& layout_;
  ExactWorker& worker_;
  const std::vector<Rational>* ea_ = nullptr;
  const std::vector<Rational>* ep_ = nullptr;
  std::vector<std::size_t> pos_;
  const std::uint16_t* ov_ = nullptr;
};

// The workers' negative-denominator counts, and the example re-derived exactly: the
// instance with the smallest index, which must be solved with a negative denominator.
void add_negative_denominators(const std::vector<ExactWorker>& workers, const Layout& layout,
                               const Model& model, const std::vector<Token>& universe,
                               EvalSummary& summary) {
  std::uint64_t negative = 0;
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
  for (const ExactWorker& w : workers) {
    negative += w.negative;
    first = std::min(first, w.first_negative);
  }
  summary.negative_solved = negative;
  if (negative == 0) return;
  InstanceOutcome example = evaluate_instance(model, instance_at(layout, universe, first));
  if (example.fails() || !example.negative_denominator)
    throw InternalError("fast evaluation found " + kernelrank::to_string(example.instance) +
                        " solved with a negative denominator but exact evaluation disagrees");
  summary.negative_example = IndexedOutcome{first, std::move(example)};
}

}  // namespace

std::uint64_t tabulated_block_count(const TabulatedModel& table, QueryMode mode,
                                    const EngineOptions& engine) {
  return make_layout(table, mode, engine).blocks;
}

EvalSummary evaluate_tabulated_summary(const TabulatedModel& table, const Model& model,
                                       const std::vector<Token>& universe,
                                       const EvalOptions& options, std::string method,
                                       const EngineOptions& engine) {
  const Layout layout = make_layout(table, options.mode, engine);
  const std::size_t U = layout.U;
  const std::uint64_t total = count_instances(U, table.n, options.mode, options.instance_limit);

  auto make = [&] { return ExactWorker(options.max_failures); };
  auto body = [&](ExactWorker& worker, std::uint64_t block) {
    const BlockPos pos = decode_block(layout, block);
    const int qp = layout.queries[static_cast<std::size_t>(pos.pass)];
    const int qb = table.position_dependent ? qp : 0;
    const RowTier tier = table.row_tier[static_cast<std::size_t>(qb) * U + pos.u];
    if (tier == RowTier::Exact) {
      if (!worker.rational)
        worker.rational = std::make_shared<RationalPolicy>(table, layout, worker);
      walk_block(layout, table.overlap.data(), pos, *worker.rational, worker.keys);
    } else if (tier == RowTier::Narrow && engine.vectorise) {
      if (!worker.narrow)
        worker.narrow = std::make_shared<IntegerPolicy<true>>(table, layout, engine, worker);
      walk_block(layout, table.overlap.data(), pos, *worker.narrow, worker.keys);
    } else {
      if (!worker.wide)
        worker.wide = std::make_shared<IntegerPolicy<false>>(table, layout, engine, worker);
      walk_block(layout, table.overlap.data(), pos, *worker.wide, worker.keys);
    }
  };
  std::vector<ExactWorker> workers = run_blocks<ExactWorker>(
      layout.blocks, options.shard, resolve_threads(options.threads), make, body, "evaluating");

  // Exact, order-free combination of the workers.
  EvalSummary summary;
  summary.method = std::move(method);
  summary.max_failures = options.max_failures;
  std::uint64_t instances = 0, failing = 0, undefined = 0;
  const Best* best = nullptr;
  std::vector<std::uint64_t> failures;
  for (const ExactWorker& w : workers) {
    instances += w.instances;
    failing += w.failing;
    undefined += w.undefined;
    if (w.best.any && (!best || w.best.value > best->value ||
                       (w.best.value == best->value && w.best.index < best->index)))
      best = &w.best;
    failures.insert(failures.end(), w.failures.items().begin(), w.failures.items().end());
  }
  if (options.shard.whole() && instances != total)
    throw InternalError("instance count mismatch in evaluation (" + std::to_string(instances) +
                        " of " + std::to_string(total) + ")");
  summary.instances = instances;
  summary.failing = failing;
  summary.undefined = undefined;
  std::sort(failures.begin(), failures.end());
  if (failures.size() > options.max_failures) failures.resize(options.max_failures);
  for (std::uint64_t index : failures) {
    InstanceOutcome outcome = evaluate_instance(model, instance_at(layout, universe, index));
    if (!outcome.fails())
      throw InternalError("fast evaluation flagged " + kernelrank::to_string(outcome.instance) +
                          " as failing but exact re-evaluation disagrees");
    summary.failures.push_back({index, std::move(outcome)});
  }
  // The maximum is re-derived by exact evaluation of the instance attaining it, and must
  // agree with the fast computation.
  if (best) {
    InstanceOutcome worst = evaluate_instance(model, instance_at(layout, universe, best->index));
    if (!worst.error || *worst.error != best->value)
      throw InternalError("fast evaluation of " + kernelrank::to_string(worst.instance) +
                          " gave error " + kernelrank::to_string(best->value) +
                          " but exact evaluation disagrees");
    summary.max_error = best->value;
    summary.worst = IndexedOutcome{best->index, std::move(worst)};
  }
  add_negative_denominators(workers, layout, model, universe, summary);
  return summary;
}

EvalReport evaluate_tabulated(const TabulatedModel& table, const Model& model,
                              const std::vector<Token>& universe, const EvalOptions& options,
                              std::string method, const EngineOptions& engine) {
  EvalOptions whole = options;
  whole.shard = Shard{};
  return summary_to_report(
      evaluate_tabulated_summary(table, model, universe, whole, std::move(method), engine));
}

}  // namespace kernelrank::detail

namespace kernelrank {

EvalSummary evaluate_token_set_summary(const Model& model, const std::vector<Token>& universe,
                                       int n, const EvalOptions& options, std::uint64_t* blocks) {
  check_token_set(model.width(), universe, n);
  count_instances(universe.size(), n, options.mode, options.instance_limit);
  const detail::TabulatedModel table =
      detail::tabulate(model, universe, n, resolve_threads(options.threads));
  if (blocks) *blocks = detail::tabulated_block_count(table, options.mode);
  return detail::evaluate_tabulated_summary(table, model, universe, options, "token set");
}

EvalReport evaluate_token_set(const Model& model, const std::vector<Token>& universe, int n,
                              const EvalOptions& options) {
  EvalOptions whole = options;
  whole.shard = Shard{};
  return summary_to_report(evaluate_token_set_summary(model, universe, n, whole));
}

EvalSummary evaluate_cube_summary(const Model& model, int m, int n, const EvalOptions& options,
                                  std::uint64_t* blocks) {
  check_cube_walk(model.width(), m, n, options, "use overlap profiles or a family");
  if (const auto* tokens = model.token_universe();
      tokens && tokens->size() != (std::size_t{1} << m))
    throw UsageError("the model defines " + std::to_string(tokens->size()) +
                     " tokens, but the cube {0,1}^" + std::to_string(m) + " has " +
                     std::to_string(std::uint64_t{1} << m) + "; evaluate it on a family instead");
  const std::vector<Token> universe = detail::cube_tokens(m);
  const detail::TabulatedModel table =
      detail::tabulate(model, universe, n, resolve_threads(options.threads));
  if (blocks) *blocks = detail::tabulated_block_count(table, options.mode);
  return detail::evaluate_tabulated_summary(table, model, universe, options, "brute force");
}

EvalReport evaluate_cube(const Model& model, int m, int n, const EvalOptions& options) {
  EvalOptions whole = options;
  whole.shard = Shard{};
  return summary_to_report(evaluate_cube_summary(model, m, n, whole));
}

}  // namespace kernelrank
