// Exact evaluation of all sequences over a finite token universe (the cube
// task T(m,n) or a token set such as a code), with integer fast paths, multiset
// enumeration of the keys, and blocks shared by threads and shards (see
// tabulated_eval.hpp).
#include "tabulated_eval.hpp"

#include "eval_kernels.hpp"
#include "eval_report.hpp"
#include "kernelrank/errors.hpp"
#include "kernelrank/progress.hpp"

#include <gmp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

namespace kernelrank::detail {
namespace {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

constexpr std::size_t kTableBudgetBytes = std::size_t{3} << 30;
// Row integers must stay below 2^62 so that sums of up to 2^40 terms and their
// products with a target (< 2^16) fit in 128 bits.
constexpr std::int64_t kRowLimit = std::int64_t{1} << 62;
constexpr u128 kNarrowLimit = u128{1} << 32;

// a > b for 256-bit products: compares an*bd with bn*ad.
bool ratio_greater(u128 an, u128 ad, u128 bn, u128 bd) {
  if (((an | ad | bn | bd) >> 64) == 0) return an * bd > bn * ad;  // products fit in 128 bits
  auto mul = [](u128 x, u128 y, u128& hi, u128& lo) {
    const u128 x0 = static_cast<std::uint64_t>(x), x1 = x >> 64;
    const u128 y0 = static_cast<std::uint64_t>(y), y1 = y >> 64;
    const u128 p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    const u128 mid = (p00 >> 64) + static_cast<std::uint64_t>(p01) + static_cast<std::uint64_t>(p10);
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

// Brings a row of rationals to coprime integers with the same ratios; returns
// false if some integer reaches kRowLimit.
bool integerise_row(const std::vector<Rational>& row, std::vector<std::int64_t>& out) {
  Integer lcm = 1;
  for (const Rational& x : row)
    mpz_lcm(lcm.backend().data(), lcm.backend().data(), mpq_denref(x.backend().data()));
  std::vector<Integer> scaled(row.size());
  Integer gcd = 0;
  for (std::size_t i = 0; i < row.size(); ++i) {
    Integer num = numerator(row[i]);
    mpz_divexact(scaled[i].backend().data(), lcm.backend().data(),
                 mpq_denref(row[i].backend().data()));
    scaled[i] *= num;
    mpz_gcd(gcd.backend().data(), gcd.backend().data(), scaled[i].backend().data());
  }
  out.resize(row.size());
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (gcd > 1) mpz_divexact(scaled[i].backend().data(), scaled[i].backend().data(),
                              gcd.backend().data());
    if (!mpz_fits_slong_p(scaled[i].backend().data())) return false;
    const long v = mpz_get_si(scaled[i].backend().data());
    if (v >= kRowLimit || v <= -kRowLimit) return false;
    out[i] = v;
  }
  return true;
}

// Narrow when A >= 0 and, for every instance of the row (n summands, target t <= |u|),
// SA < 2^32 and |SP - t SA| < 2^32: then |SP - t SA| * td and tn * SA fit in 64 bits for
// any tn, td < 2^32.
bool row_is_narrow(const std::int64_t* kernel, const std::int64_t* product, std::size_t count, int n,
                   int max_target) {
  u128 amax = 0, pabs = 0;
  bool product_nonnegative = true;
  for (std::size_t i = 0; i < count; ++i) {
    if (kernel[i] < 0) return false;
    amax = std::max<u128>(amax, static_cast<u128>(kernel[i]));
    if (product[i] < 0) product_nonnegative = false;
    pabs = std::max<u128>(pabs, static_cast<u128>(product[i] < 0 ? -static_cast<i128>(product[i]) : product[i]));
  }
  const u128 den = amax * static_cast<u128>(n);
  const u128 sp = pabs * static_cast<u128>(n);
  const u128 tsa = den * static_cast<u128>(max_target);
  // SP and t*SA are both >= 0 when P >= 0, so their difference is below the larger one.
  const u128 num = product_nonnegative ? std::max(sp, tsa) : sp + tsa;
  return den < kNarrowLimit && num < kNarrowLimit;
}

// ---- the enumeration ---------------------------------------------------------------

// Instances are enumerated pass by pass (one pass per query position of the mode), then by
// the query's token u, then by the other positions' tokens in position order, each
// slowest-first: index = pass * U^n + u * U^(n-1) + sum_j key_j * U^(n-2-j).
struct Layout {
  std::size_t U = 0;
  int n = 0;
  int k = 0;                       // keys: positions other than the query
  std::vector<int> queries;        // query positions of the mode
  std::vector<std::vector<int>> others;  // per query position: the key positions, increasing
  bool fold = false;               // position independent: multiset keys, one pass stands for all
  std::uint64_t passes = 1;        // passes walked
  std::uint64_t pass_factor = 1;   // instances each walked one stands for (times the orderings)
  std::vector<std::uint64_t> power;  // U^0 .. U^n
  std::uint64_t blocks = 0;        // (pass, u) when k <= 1, (pass, u, first key) otherwise
  int log2_u = -1;                 // U = 2^log2_u (the cube), else -1
};

Layout make_layout(const TabulatedModel& table, QueryMode mode, const EngineOptions& engine) {
  Layout layout;
  layout.U = table.universe;
  layout.n = table.n;
  layout.k = table.n - 1;
  layout.queries = query_positions(mode, table.n);
  for (int qp : layout.queries) {
    std::vector<int> keys;
    for (int j = 0; j < table.n; ++j)
      if (j != qp) keys.push_back(j);
    layout.others.push_back(std::move(keys));
  }
  layout.fold = engine.multiset && !table.position_dependent;
  layout.passes = layout.fold ? 1 : layout.queries.size();
  layout.pass_factor = layout.fold ? layout.queries.size() : 1;
  layout.power.assign(static_cast<std::size_t>(table.n) + 1, 1);
  for (int i = 1; i <= table.n; ++i) {
    const u128 next = static_cast<u128>(layout.power[static_cast<std::size_t>(i) - 1]) * layout.U;
    if (next > std::numeric_limits<std::uint64_t>::max())
      throw ResourceError("the task has more than 2^64 - 1 instances");
    layout.power[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(next);
  }
  const u128 blocks = static_cast<u128>(layout.passes) * layout.U * (layout.k >= 2 ? layout.U : 1);
  const u128 total = static_cast<u128>(layout.queries.size()) * layout.power.back();
  if (total > std::numeric_limits<std::uint64_t>::max())
    throw ResourceError("the task has more than 2^64 - 1 instances");
  layout.blocks = static_cast<std::uint64_t>(blocks);
  if (layout.U > 0 && (layout.U & (layout.U - 1)) == 0)
    for (layout.log2_u = 0; (std::size_t{1} << layout.log2_u) != layout.U; ++layout.log2_u) {
    }
  return layout;
}

// The instance with a given enumeration index.
Instance instance_at(const Layout& layout, const std::vector<Token>& universe, std::uint64_t index) {
  const std::uint64_t pass = index / layout.power.back();
  std::uint64_t rest = index % layout.power.back();
  Instance instance;
  instance.query = layout.queries.at(static_cast<std::size_t>(pass));
  instance.tokens.assign(static_cast<std::size_t>(layout.n), Token());
  const std::uint64_t u = rest / layout.power[static_cast<std::size_t>(layout.k)];
  rest %= layout.power[static_cast<std::size_t>(layout.k)];
  instance.tokens[static_cast<std::size_t>(instance.query)] = universe[u];
  const std::vector<int>& keys = layout.others[static_cast<std::size_t>(pass)];
  for (int j = 0; j < layout.k; ++j) {
    const std::uint64_t p = layout.power[static_cast<std::size_t>(layout.k - 1 - j)];
    instance.tokens[static_cast<std::size_t>(keys[static_cast<std::size_t>(j)])] = universe[rest / p];
    rest %= p;
  }
  return instance;
}

// The smallest `cap` indices offered (a max-heap of the kept ones).
class FirstIndices {
 public:
  explicit FirstIndices(std::size_t cap) : cap_(cap) {}
  bool might_accept(std::uint64_t index) const {
    return cap_ > 0 && (heap_.size() < cap_ || index < heap_.front());
  }
  bool offer(std::uint64_t index) {
    if (!might_accept(index)) return false;
    heap_.push_back(index);
    std::push_heap(heap_.begin(), heap_.end());
    if (heap_.size() > cap_) {
      std::pop_heap(heap_.begin(), heap_.end());
      heap_.pop_back();
    }
    return true;
  }
  const std::vector<std::uint64_t>& items() const { return heap_; }

 private:
  std::size_t cap_;
  std::vector<std::uint64_t> heap_;
};

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
    const std::size_t bits = std::max(mpz_sizeinbase(n.backend().data(), 2), mpz_sizeinbase(d.backend().data(), 2));
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
  // Created on the worker's first block (workers do not move once the blocks run).
  std::shared_ptr<IntegerPolicy<true>> narrow;
  std::shared_ptr<IntegerPolicy<false>> wide;
  std::shared_ptr<RationalPolicy> rational;
  std::vector<std::uint32_t> keys;
};

// ---- walking one block ----------------------------------------------------------------

// Decoded block: pass, query token u, first key (k >= 2).
struct BlockPos {
  std::uint64_t pass = 0;
  std::size_t u = 0;
  std::size_t first = 0;
};

BlockPos decode_block(const Layout& layout, std::uint64_t block) {
  BlockPos pos;
  if (layout.log2_u >= 0) {  // the cube: shifts instead of divisions
    const std::uint64_t mask = layout.U - 1;
    if (layout.k >= 2) {
      pos.first = static_cast<std::size_t>(block & mask);
      block >>= layout.log2_u;
    }
    pos.u = static_cast<std::size_t>(block & mask);
    pos.pass = block >> layout.log2_u;
    return pos;
  }
  if (layout.k >= 2) {
    pos.first = static_cast<std::size_t>(block % layout.U);
    block /= layout.U;
  }
  pos.u = static_cast<std::size_t>(block % layout.U);
  pos.pass = block / layout.U;
  return pos;
}

// Walks the key tuples of one block. Policy provides
//   Sum; begin_row(pass, qp, u) -> Sum (the query's own term); add(Sum, d, z) -> Sum;
//   single(Sum, t, weight, index, keys) for n = 1;
//   segment(Sum, t, d, lo, hi, weight, first_weight, base, keys): the last key keys[d] = z
//   runs over [lo, hi), instance index base + z, weight `weight` except first_weight at lo.
// keys[0..d-1] are set when segment is called.
template <class Policy>
void walk_block(const Layout& layout, const std::uint16_t* overlap, const BlockPos& pos, Policy& policy,
                std::vector<std::uint32_t>& keys) {
  const std::size_t U = layout.U;
  const int k = layout.k;
  const int qp = layout.queries[static_cast<std::size_t>(pos.pass)];
  const std::uint16_t* ov = overlap + pos.u * U;
  const typename Policy::Sum self = policy.begin_row(pos.pass, qp, pos.u);
  const int t0 = ov[pos.u];
  // "Prefix numbers": (pass, u, keys so far) read as a number with base-U digits after the
  // pass; once all k keys are in, it is the instance's enumeration index.
  const std::uint64_t head = pos.pass * U + pos.u;
  if (keys.size() < static_cast<std::size_t>(std::max(k, 1))) keys.assign(static_cast<std::size_t>(std::max(k, 1)), 0);
  if (k == 0) {
    policy.single(self, t0, layout.pass_factor, head, keys);
    return;
  }
  if (k == 1) {
    policy.segment(self, t0, 0, 0, U, layout.pass_factor, layout.pass_factor, head * U, keys);
    return;
  }
  const bool fold = layout.fold;
  // rec(d, ...): keys[0..d-1] set; weight = pass_factor * orderings of keys[0..d-1]; run =
  // multiplicity of keys[d-1] among them.
  auto rec = [&](auto&& self_ref, int d, const typename Policy::Sum& sum, int t, std::uint64_t weight, int run,
                 std::uint64_t prefix) -> void {
    if (d == k - 1) {
      if (fold) {
        // Non-decreasing keys: z >= keys[d-1]; z = keys[d-1] repeats it (one ordering fewer).
        const std::size_t lo = keys[static_cast<std::size_t>(d) - 1];
        const u128 grown = static_cast<u128>(weight) * static_cast<u128>(k);
        policy.segment(sum, t, d, lo, U, static_cast<std::uint64_t>(grown),
                       static_cast<std::uint64_t>(grown / static_cast<u128>(run + 1)), prefix * U, keys);
      } else {
        policy.segment(sum, t, d, 0, U, weight, weight, prefix * U, keys);
      }
      return;
    }
    const std::size_t start = fold ? keys[static_cast<std::size_t>(d) - 1] : 0;
    for (std::size_t z = start; z < U; ++z) {
      keys[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(z);
      std::uint64_t w = weight;
      int r = 1;
      if (fold) {
        r = z == keys[static_cast<std::size_t>(d) - 1] ? run + 1 : 1;
        w = static_cast<std::uint64_t>(static_cast<u128>(weight) * static_cast<u128>(d + 1) / static_cast<u128>(r));
      }
      self_ref(self_ref, d + 1, policy.add(sum, d, z), std::min<int>(t, ov[z]), w, r, prefix * U + z);
    }
  };
  keys[0] = static_cast<std::uint32_t>(pos.first);
  rec(rec, 1, policy.add(self, 0, pos.first), std::min<int>(t0, ov[pos.first]), layout.pass_factor, 1,
      head * U + pos.first);
}

// Offers the failing instance(s) that a visited tuple stands for: with folding, every
// ordering of the keys and every query position of the mode, smallest indices first.
void offer_failure(const Layout& layout, FirstIndices& failures, std::uint64_t index,
                   const std::vector<std::uint32_t>& keys) {
  // The visited (sorted) tuple has the smallest index of all the instances it stands for.
  if (!failures.might_accept(index)) return;
  if (!layout.fold || (layout.k < 2 && layout.pass_factor == 1)) {
    failures.offer(index);
    return;
  }
  const std::uint64_t per_pass = layout.power.back();
  const std::uint64_t head = index % per_pass / layout.power[static_cast<std::size_t>(layout.k)];  // u
  std::vector<std::uint32_t> perm(keys.begin(), keys.begin() + layout.k);
  for (std::uint64_t pass = 0; pass < layout.pass_factor; ++pass) {
    std::sort(perm.begin(), perm.end());
    do {
      std::uint64_t at = pass * per_pass + head * layout.power[static_cast<std::size_t>(layout.k)];
      for (int j = 0; j < layout.k; ++j)
        at += perm[static_cast<std::size_t>(j)] * layout.power[static_cast<std::size_t>(layout.k - 1 - j)];
      // Later orderings and later passes only have larger indices.
      if (!failures.offer(at)) return;
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

// Key-position tables of the current row, shared by the policies.
template <class Value>
struct RowTables {
  std::uint64_t pass = ~0ULL;
  std::size_t u = ~std::size_t{0};
  std::vector<const Value*> a, p;  // per key index d
  bool same(std::uint64_t next_pass, std::size_t next_u) const { return pass == next_pass && u == next_u; }
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
  IntegerPolicy(const TabulatedModel& table, const Layout& layout, const EngineOptions& engine, ExactWorker& worker)
      : table_(table), layout_(layout), engine_(engine), worker_(worker) {
    row_.a.resize(static_cast<std::size_t>(std::max(layout.k, 1)));
    row_.p.resize(static_cast<std::size_t>(std::max(layout.k, 1)));
  }

  Sum begin_row(std::uint64_t pass, int qp, std::size_t u) {
    const int qb = table_.position_dependent ? qp : 0;
    if (!row_.same(pass, u)) {
      row_.pass = pass;
      row_.u = u;
      const std::size_t row = static_cast<std::size_t>(qb) * layout_.U + u;
      maybe_zero_ = !table_.row_positive[row];
      const std::vector<int>& keys = layout_.others[static_cast<std::size_t>(pass)];
      for (int d = 0; d < layout_.k; ++d) {
        const int kb = table_.position_dependent ? keys[static_cast<std::size_t>(d)] : 0;
        const std::size_t off = table_.block_offset(qb, kb, u);
        row_.a[static_cast<std::size_t>(d)] = &table_.kernel_int[off];
        row_.p[static_cast<std::size_t>(d)] = &table_.product_int[off];
      }
      ov_ = &table_.overlap[u * layout_.U];
    }
    const std::size_t self = table_.block_offset(qb, table_.position_dependent ? qp : 0, u) + u;
    return {table_.kernel_int[self], table_.product_int[self]};
  }
  Sum add(const Sum& s, int d, std::size_t z) const {
    return {s.a + row_.a[static_cast<std::size_t>(d)][z], s.p + row_.p[static_cast<std::size_t>(d)][z]};
  }
  void single(const Sum& s, int t, std::uint64_t weight, std::uint64_t index, const std::vector<std::uint32_t>& keys) {
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
      if (worker_.best.any && !c.beats && (c.fails == 0 || !worker_.failures.might_accept(base + lo))) return;
      count = false;
    }
    for (std::size_t z = lo; z < hi; ++z) {
      keys[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(z);
      test(static_cast<i128>(s.a) + a[z], static_cast<i128>(s.p) + p[z], std::min<int>(t, ov_[z]),
           z == lo ? first_weight : weight, base + z, keys, count);
    }
  }

 private:
  void test(i128 sa, i128 sp, int t, std::uint64_t weight, std::uint64_t index, const std::vector<std::uint32_t>& keys,
            bool count) {
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
      : table_(table), layout_(layout), worker_(worker), pos_(static_cast<std::size_t>(std::max(layout.k, 1))) {}

  Sum begin_row(std::uint64_t pass, int qp, std::size_t u) {
    const int qb = table_.position_dependent ? qp : 0;
    ea_ = &table_.kernel_exact[static_cast<std::size_t>(qb) * layout_.U + u];
    ep_ = &table_.product_exact[static_cast<std::size_t>(qb) * layout_.U + u];
    const std::vector<int>& keys = layout_.others[static_cast<std::size_t>(pass)];
    for (int d = 0; d < layout_.k; ++d)
      pos_[static_cast<std::size_t>(d)] =
          static_cast<std::size_t>(table_.position_dependent ? keys[static_cast<std::size_t>(d)] : 0) * layout_.U;
    ov_ = &table_.overlap[u * layout_.U];
    const std::size_t self = static_cast<std::size_t>(table_.position_dependent ? qp : 0) * layout_.U + u;
    return {(*ea_)[self], (*ep_)[self]};
  }
  Sum add(const Sum& s, int d, std::size_t z) const {
    const std::size_t at = pos_[static_cast<std::size_t>(d)] + z;
    return {s.a + (*ea_)[at], s.p + (*ep_)[at]};
  }
  void single(const Sum& s, int t, std::uint64_t weight, std::uint64_t index, const std::vector<std::uint32_t>& keys) {
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
    }
    if (worker_.best.beaten_by(error)) worker_.best.set_exact(error, index);
  }
  void segment(const Sum& s, int t, int d, std::size_t lo, std::size_t hi, std::uint64_t weight,
               std::uint64_t first_weight, std::uint64_t base, std::vector<std::uint32_t>& keys) {
    for (std::size_t z = lo; z < hi; ++z) {
      keys[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(z);
      single(add(s, d, z), std::min<int>(t, ov_[z]), z == lo ? first_weight : weight, base + z, keys);
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

// Runs body(worker, block) over the blocks the shard owns, on `threads` threads; each worker
// sees its blocks in increasing order (parallel_for hands tasks out in increasing order).
template <class Worker, class Make, class Body>
std::vector<Worker> run_blocks(std::uint64_t blocks, const Shard& shard, int threads, const Make& make,
                               const Body& body, const std::string& label) {
  const std::uint64_t first = shard.index - 1;
  const std::uint64_t owned = blocks > first ? (blocks - first + shard.count - 1) / shard.count : 0;
  threads = std::max(threads, 1);
  const std::uint64_t chunk =
      threads == 1 ? std::max<std::uint64_t>(owned, 1)
                   : std::max<std::uint64_t>(1, owned / (static_cast<std::uint64_t>(threads) * 64));
  const std::uint64_t tasks = (owned + chunk - 1) / chunk;
  std::vector<Worker> workers;
  const int used = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(threads), std::max<std::uint64_t>(tasks, 1)));
  workers.reserve(static_cast<std::size_t>(used));
  for (int w = 0; w < used; ++w) workers.push_back(make());
  Progress progress(label, owned);
  std::atomic<std::uint64_t> done{0};
  parallel_for(static_cast<std::size_t>(tasks), used, [&](std::size_t task, int w) {
    const std::uint64_t begin = static_cast<std::uint64_t>(task) * chunk;
    const std::uint64_t end = std::min(owned, begin + chunk);
    Worker& worker = workers[static_cast<std::size_t>(w)];
    // The shared counter is touched once per 256 blocks (an atomic add per block costs as
    // much as a short block).
    for (std::uint64_t j = begin; j < end; j += 256) {
      const std::uint64_t stop = std::min(end, j + 256);
      for (std::uint64_t i = j; i < stop; ++i) body(worker, first + i * shard.count);
      const std::uint64_t now = done.fetch_add(stop - j, std::memory_order_relaxed) + (stop - j);
      if (w == 0) progress.update(now);
    }
  });
  progress.complete();
  return workers;
}

}  // namespace

std::size_t TabulatedModel::rows_in_tier(RowTier tier) const {
  return static_cast<std::size_t>(std::count(row_tier.begin(), row_tier.end(), tier));
}

std::vector<Token> cube_tokens(int m) {
  if (m < 0 || m > 24) throw ResourceError("cube tokens are listed only for m <= 24");
  std::vector<Token> tokens;
  tokens.reserve(std::size_t{1} << m);
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << m); ++i)
    tokens.push_back(Token::from_index(m, i));
  return tokens;
}

TabulatedModel tabulate(const Model& model, const std::vector<Token>& universe, int n, int threads) {
  TabulatedModel table;
  table.universe = universe.size();
  table.n = n;
  table.position_dependent = model.position_dependent();
  table.blocks = table.position_dependent ? n : 1;
  const std::size_t U = universe.size();
  const auto B = static_cast<std::size_t>(table.blocks);
  const long double bytes = static_cast<long double>(U) * U * B * B * 16.0L + U * U * 2.0L;
  if (bytes > static_cast<long double>(kTableBudgetBytes))
    throw ResourceError("tabulating the model over " + std::to_string(U) +
                        " tokens needs more than 3 GiB; use a family or overlap profiles");
  table.overlap.resize(U * U);
  for (std::size_t u = 0; u < U; ++u)
    for (std::size_t z = 0; z < U; ++z)
      table.overlap[u * U + z] = static_cast<std::uint16_t>(inner(universe[u], universe[z]));
  table.kernel_int.assign(U * U * B * B, 0);
  table.product_int.assign(U * U * B * B, 0);
  table.row_tier.assign(U * B, RowTier::Exact);
  table.row_fits.assign(U * B, 0);
  table.row_positive.assign(U * B, 0);
  table.kernel_exact.resize(U * B);
  table.product_exact.resize(U * B);

  // Rows (query block qb, query token u) in chunks: the model is asked on this thread only
  // (model objects may cache), then products, integers and tiers are computed on `threads`.
  const std::size_t rows = U * B;
  const std::size_t chunk = std::max<std::size_t>(1, std::min<std::size_t>(rows, (std::size_t{1} << 20) / std::max<std::size_t>(U * B, 1)));
  std::vector<std::vector<Rational>> kernels(chunk), readouts(chunk);
  Progress progress("tabulating model", rows);
  for (std::size_t first = 0; first < rows; first += chunk) {
    const std::size_t count = std::min(chunk, rows - first);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t qb = (first + i) / U, u = (first + i) % U;
      std::vector<Rational>& row_a = kernels[i];
      std::vector<Rational>& row_f = readouts[i];
      row_a.resize(U * B);
      row_f.resize(U * B);
      for (std::size_t kb = 0; kb < B; ++kb)
        for (std::size_t z = 0; z < U; ++z) {
          row_a[kb * U + z] = model.kernel(universe[u], universe[z], static_cast<int>(qb), static_cast<int>(kb));
          row_f[kb * U + z] = row_a[kb * U + z] == 0 ? Rational(0)
                                                     : model.readout(universe[u], universe[z], static_cast<int>(qb),
                                                                     static_cast<int>(kb));
        }
    }
    parallel_for(count, threads, [&](std::size_t i, int) {
      const std::size_t qb = (first + i) / U, u = (first + i) % U;
      const std::vector<Rational>& row_a = kernels[i];
      std::vector<Rational> row_p(U * B);
      for (std::size_t j = 0; j < U * B; ++j) row_p[j] = row_a[j] == 0 ? Rational(0) : Rational(row_a[j] * readouts[i][j]);
      // One common scale for the kernel and product parts of the row.
      std::vector<Rational> both(row_a);
      both.insert(both.end(), row_p.begin(), row_p.end());
      std::vector<std::int64_t> ints;
      if (integerise_row(both, ints)) {
        for (std::size_t kb = 0; kb < B; ++kb) {
          const std::size_t offset = table.block_offset(static_cast<int>(qb), static_cast<int>(kb), u);
          for (std::size_t z = 0; z < U; ++z) {
            table.kernel_int[offset + z] = ints[kb * U + z];
            table.product_int[offset + z] = ints[B * U + kb * U + z];
          }
        }
        const bool narrow = row_is_narrow(ints.data(), ints.data() + B * U, B * U, n, table.overlap[u * U + u]);
        table.row_tier[qb * U + u] = narrow ? RowTier::Narrow : RowTier::Wide;
        table.row_fits[qb * U + u] = 1;
        table.row_positive[qb * U + u] =
            std::all_of(ints.begin(), ints.begin() + static_cast<std::ptrdiff_t>(B * U), [](std::int64_t x) { return x > 0; });
      } else {
        table.kernel_exact[qb * U + u] = row_a;
        table.product_exact[qb * U + u] = std::move(row_p);
      }
    });
    progress.update(first + count);
  }
  return table;
}

std::uint64_t tabulated_block_count(const TabulatedModel& table, QueryMode mode, const EngineOptions& engine) {
  return make_layout(table, mode, engine).blocks;
}

EvalSummary evaluate_tabulated_summary(const TabulatedModel& table, const Model& model,
                                       const std::vector<Token>& universe, const EvalOptions& options,
                                       std::string method, const EngineOptions& engine) {
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
      if (!worker.rational) worker.rational = std::make_shared<RationalPolicy>(table, layout, worker);
      walk_block(layout, table.overlap.data(), pos, *worker.rational, worker.keys);
    } else if (tier == RowTier::Narrow && engine.vectorise) {
      if (!worker.narrow) worker.narrow = std::make_shared<IntegerPolicy<true>>(table, layout, engine, worker);
      walk_block(layout, table.overlap.data(), pos, *worker.narrow, worker.keys);
    } else {
      if (!worker.wide) worker.wide = std::make_shared<IntegerPolicy<false>>(table, layout, engine, worker);
      walk_block(layout, table.overlap.data(), pos, *worker.wide, worker.keys);
    }
  };
  std::vector<ExactWorker> workers =
      run_blocks<ExactWorker>(layout.blocks, options.shard, resolve_threads(options.threads), make, body, "evaluating");

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
    if (w.best.any && (!best || w.best.value > best->value || (w.best.value == best->value && w.best.index < best->index)))
      best = &w.best;
    failures.insert(failures.end(), w.failures.items().begin(), w.failures.items().end());
  }
  if (options.shard.whole() && instances != total)
    throw InternalError("instance count mismatch in evaluation (" + std::to_string(instances) + " of " +
                        std::to_string(total) + ")");
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
      throw InternalError("fast evaluation of " + kernelrank::to_string(worst.instance) + " gave error " +
                          kernelrank::to_string(best->value) + " but exact evaluation disagrees");
    summary.max_error = best->value;
    summary.worst = IndexedOutcome{best->index, std::move(worst)};
  }
  return summary;
}

EvalReport evaluate_tabulated(const TabulatedModel& table, const Model& model,
                              const std::vector<Token>& universe, const EvalOptions& options,
                              std::string method, const EngineOptions& engine) {
  EvalOptions whole = options;
  whole.shard = Shard{};
  return summary_to_report(evaluate_tabulated_summary(table, model, universe, whole, std::move(method), engine));
}

// ---- the double-precision twin (benchmark) ------------------------------------------

DoubleTable double_table(const TabulatedModel& table) {
  DoubleTable values;
  const std::size_t U = table.universe;
  const auto B = static_cast<std::size_t>(table.blocks);
  values.kernel.resize(table.kernel_int.size());
  values.product.resize(table.product_int.size());
  for (std::size_t qb = 0; qb < B; ++qb)
    for (std::size_t u = 0; u < U; ++u)
      for (std::size_t kb = 0; kb < B; ++kb) {
        const std::size_t off = table.block_offset(static_cast<int>(qb), static_cast<int>(kb), u);
        const bool exact = table.row_tier[qb * U + u] == RowTier::Exact;
        for (std::size_t z = 0; z < U; ++z) {
          if (exact) {
            values.kernel[off + z] = table.kernel_exact[qb * U + u][kb * U + z].convert_to<double>();
            values.product[off + z] = table.product_exact[qb * U + u][kb * U + z].convert_to<double>();
          } else {
            values.kernel[off + z] = static_cast<double>(table.kernel_int[off + z]);
            values.product[off + z] = static_cast<double>(table.product_int[off + z]);
          }
        }
      }
  values.overlap.assign(table.overlap.begin(), table.overlap.end());
  return values;
}

namespace {

class DoublePolicy;

struct DoubleWorker {
  std::uint64_t instances = 0, failing = 0;
  double max_error = 0;   // division form
  double bn = 0, bd = 1;  // cross form: the maximum as bn / bd
  std::shared_ptr<DoublePolicy> policy;
  std::vector<std::uint32_t> keys;
};

// The double twin of IntegerPolicy: the same walk, the same runs, the same weights.
class DoublePolicy {
 public:
  struct Sum {
    double a, p;
  };
  DoublePolicy(const TabulatedModel& table, const DoubleTable& values, const Layout& layout, bool division,
               DoubleWorker& worker)
      : table_(table), values_(values), layout_(layout), division_(division), worker_(worker) {
    row_.a.resize(static_cast<std::size_t>(std::max(layout.k, 1)));
    row_.p.resize(static_cast<std::size_t>(std::max(layout.k, 1)));
  }

  Sum begin_row(std::uint64_t pass, int qp, std::size_t u) {
    const int qb = table_.position_dependent ? qp : 0;
    if (!row_.same(pass, u)) {
      row_.pass = pass;
      row_.u = u;
      const std::vector<int>& keys = layout_.others[static_cast<std::size_t>(pass)];
      for (int d = 0; d < layout_.k; ++d) {
        const int kb = table_.position_dependent ? keys[static_cast<std::size_t>(d)] : 0;
        const std::size_t off = table_.block_offset(qb, kb, u);
        row_.a[static_cast<std::size_t>(d)] = &values_.kernel[off];
        row_.p[static_cast<std::size_t>(d)] = &values_.product[off];
      }
      ov_ = &values_.overlap[u * layout_.U];
    }
    const std::size_t self = table_.block_offset(qb, table_.position_dependent ? qp : 0, u) + u;
    return {values_.kernel[self], values_.product[self]};
  }
  Sum add(const Sum& s, int d, std::size_t z) const {
    return {s.a + row_.a[static_cast<std::size_t>(d)][z], s.p + row_.p[static_cast<std::size_t>(d)][z]};
  }
  void single(const Sum& s, int t, std::uint64_t weight, std::uint64_t, const std::vector<std::uint32_t>&) {
    worker_.instances += weight;
    test(s.a, s.p, t, weight);
  }
  void segment(const Sum& s, int t, int d, std::size_t lo, std::size_t hi, std::uint64_t weight,
               std::uint64_t first_weight, std::uint64_t, std::vector<std::uint32_t>&) {
    DoubleArgs g;
    g.a = row_.a[static_cast<std::size_t>(d)];
    g.p = row_.p[static_cast<std::size_t>(d)];
    g.ov = ov_;
    g.lo = lo;
    g.hi = hi;
    g.ca = s.a;
    g.cp = s.p;
    g.tp = t;
    g.bn = worker_.bn;
    g.bd = worker_.bd;
    worker_.instances += weight * (hi - lo) - (weight - first_weight);
    const DoubleCounts c = division_ ? double_division_segment(g) : double_cross_segment(g);
    worker_.failing += weight * c.fails;
    if (first_weight != weight) {
      // The first instance counts first_weight times, not weight times.
      const double sa = g.ca + g.a[lo];
      const double an = std::fabs(g.cp + g.p[lo] - std::min<double>(t, ov_[lo]) * sa);
      if (!(2 * an < sa)) worker_.failing -= weight - first_weight;
    }
    if (division_) {
      if (c.max_error > worker_.max_error) worker_.max_error = c.max_error;
      return;
    }
    if (!c.beats) return;
    for (std::size_t z = lo; z < hi; ++z) {
      const double sa = g.ca + g.a[z];
      const double an = std::fabs(g.cp + g.p[z] - std::min<double>(t, ov_[z]) * sa);
      if (an * worker_.bd > worker_.bn * sa) {
        worker_.bn = an;
        worker_.bd = sa;
      }
    }
  }

 private:
  void test(double sa, double sp, int t, std::uint64_t weight) {
    if (division_) {
      const double e = std::fabs(sp / sa - t);
      if (!(e < 0.5)) worker_.failing += weight;
      if (e > worker_.max_error) worker_.max_error = e;
    } else {
      const double an = std::fabs(sp - t * sa);
      if (!(2 * an < sa)) worker_.failing += weight;
      if (an * worker_.bd > worker_.bn * sa) {
        worker_.bn = an;
        worker_.bd = sa;
      }
    }
  }

  const TabulatedModel& table_;
  const DoubleTable& values_;
  const Layout& layout_;
  bool division_;
  DoubleWorker& worker_;
  RowTables<double> row_;
  const double* ov_ = nullptr;
};

}  // namespace

DoubleLoopResult evaluate_tabulated_double(const TabulatedModel& table, const DoubleTable& values, QueryMode mode,
                                           int threads, bool division, const EngineOptions& engine) {
  const Layout layout = make_layout(table, mode, engine);
  auto make = [] { return DoubleWorker{}; };
  auto body = [&](DoubleWorker& worker, std::uint64_t block) {
    if (!worker.policy) worker.policy = std::make_shared<DoublePolicy>(table, values, layout, division, worker);
    walk_block(layout, table.overlap.data(), decode_block(layout, block), *worker.policy, worker.keys);
  };
  const std::vector<DoubleWorker> workers =
      run_blocks<DoubleWorker>(layout.blocks, Shard{}, resolve_threads(threads), make, body, "double loop");
  DoubleLoopResult result;
  for (const DoubleWorker& w : workers) {
    result.instances += w.instances;
    result.failing += w.failing;
    const double e = division ? w.max_error : w.bn / w.bd;
    if (e > result.max_error) result.max_error = e;
  }
  return result;
}

}  // namespace kernelrank::detail

namespace kernelrank {

EvalSummary evaluate_token_set_summary(const Model& model, const std::vector<Token>& universe, int n,
                                       const EvalOptions& options, std::uint64_t* blocks) {
  if (n < 1) throw UsageError("length n must be at least 1");
  if (universe.empty()) throw UsageError("the token set is empty");
  for (const Token& token : universe)
    if (token.width() != model.width())
      throw UsageError("token " + token.to_string() + " has width " +
                       std::to_string(token.width()) + " but the model expects m=" +
                       std::to_string(model.width()));
  count_instances(universe.size(), n, options.mode, options.instance_limit);
  const detail::TabulatedModel table = detail::tabulate(model, universe, n, resolve_threads(options.threads));
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
  if (m < 1) throw UsageError("m must be at least 1");
  if (m != model.width())
    throw UsageError("the model expects m=" + std::to_string(model.width()) + ", not m=" +
                     std::to_string(m));
  if (m > 24)
    throw ResourceError("brute force over T(" + std::to_string(m) + "," + std::to_string(n) +
                        ") is out of reach; use overlap profiles or a family");
  count_instances(std::uint64_t{1} << m, n, options.mode, options.instance_limit);
  if (const auto* tokens = model.token_universe(); tokens && tokens->size() != (std::size_t{1} << m))
    throw UsageError("the model defines " + std::to_string(tokens->size()) +
                     " tokens, but the cube {0,1}^" + std::to_string(m) + " has " +
                     std::to_string(std::uint64_t{1} << m) + "; evaluate it on a family instead");
  const std::vector<Token> universe = detail::cube_tokens(m);
  const detail::TabulatedModel table = detail::tabulate(model, universe, n, resolve_threads(options.threads));
  if (blocks) *blocks = detail::tabulated_block_count(table, options.mode);
  return detail::evaluate_tabulated_summary(table, model, universe, options, "brute force");
}

EvalReport evaluate_cube(const Model& model, int m, int n, const EvalOptions& options) {
  EvalOptions whole = options;
  whole.shard = Shard{};
  return summary_to_report(evaluate_cube_summary(model, m, n, whole));
}

}  // namespace kernelrank
