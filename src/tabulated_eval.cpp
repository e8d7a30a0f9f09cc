// Exact evaluation of all sequences over a finite token universe (the cube
// task T(m,n) or a token set such as a code), with integer fast paths.
#include "tabulated_eval.hpp"

#include "eval_report.hpp"
#include "kernelrank/errors.hpp"
#include "kernelrank/progress.hpp"

#include <gmp.h>

#include <algorithm>
#include <functional>
#include <limits>

namespace kernelrank::detail {
namespace {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

constexpr std::size_t kTableBudgetBytes = std::size_t{3} << 30;
// Row integers must stay below 2^62 so that sums of up to 2^40 terms and their
// products with a target (< 2^16) fit in 128 bits.
constexpr std::int64_t kRowLimit = std::int64_t{1} << 62;

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

struct SmallMax {
  bool any = false;
  u128 num = 0, den = 1;
  std::vector<std::uint32_t> sequence;
  int query = 0;
};

Instance make_instance(const std::vector<Token>& universe, const std::vector<std::uint32_t>& seq,
                       int query) {
  Instance instance;
  instance.query = query;
  instance.tokens.reserve(seq.size());
  for (std::uint32_t index : seq) instance.tokens.push_back(universe[index]);
  return instance;
}

}  // namespace

std::vector<Token> cube_tokens(int m) {
  if (m < 0 || m > 24) throw ResourceError("cube tokens are listed only for m <= 24");
  std::vector<Token> tokens;
  tokens.reserve(std::size_t{1} << m);
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << m); ++i)
    tokens.push_back(Token::from_index(m, i));
  return tokens;
}

TabulatedModel tabulate(const Model& model, const std::vector<Token>& universe, int n) {
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
  table.row_fits.assign(U * B, 0);
  table.kernel_exact.resize(U * B);
  table.product_exact.resize(U * B);

  Progress progress("tabulating model", U * B);
  std::vector<Rational> row_a(U * B), row_p(U * B);
  std::vector<std::int64_t> ints;
  for (std::size_t qb = 0; qb < B; ++qb) {
    for (std::size_t u = 0; u < U; ++u) {
      for (std::size_t kb = 0; kb < B; ++kb) {
        for (std::size_t z = 0; z < U; ++z) {
          const Rational a = model.kernel(universe[u], universe[z], static_cast<int>(qb),
                                          static_cast<int>(kb));
          row_a[kb * U + z] = a;
          row_p[kb * U + z] =
              a == 0 ? Rational(0)
                     : Rational(a * model.readout(universe[u], universe[z], static_cast<int>(qb),
                                                  static_cast<int>(kb)));
        }
      }
      // One common scale for the kernel and product parts of the row.
      std::vector<Rational> both(row_a);
      both.insert(both.end(), row_p.begin(), row_p.end());
      if (integerise_row(both, ints)) {
        table.row_fits[qb * U + u] = 1;
        for (std::size_t kb = 0; kb < B; ++kb) {
          const std::size_t offset = table.block_offset(static_cast<int>(qb), static_cast<int>(kb), u);
          for (std::size_t z = 0; z < U; ++z) {
            table.kernel_int[offset + z] = ints[kb * U + z];
            table.product_int[offset + z] = ints[B * U + kb * U + z];
          }
        }
      } else {
        table.kernel_exact[qb * U + u] = row_a;
        table.product_exact[qb * U + u] = row_p;
      }
      progress.update(qb * U + u + 1);
    }
  }
  return table;
}

EvalReport evaluate_tabulated(const TabulatedModel& table, const Model& model,
                              const std::vector<Token>& universe, const EvalOptions& options,
                              std::string method) {
  const std::size_t U = table.universe;
  const int n = table.n;
  const int k = n - 1;  // key positions other than the query
  ReportBuilder builder(std::move(method), options.max_failures);
  const std::vector<int> queries = query_positions(options.mode, n);
  const std::uint64_t total = count_instances(U, n, options.mode, options.instance_limit);
  Progress progress("evaluating", total);

  std::uint64_t instances = 0, failing = 0, undefined = 0;
  SmallMax small_max;
  std::optional<Rational> exact_max;
  std::vector<std::uint32_t> exact_max_seq;
  int exact_max_query = 0;

  std::vector<std::uint32_t> seq(static_cast<std::size_t>(n), 0);
  std::vector<int> others;
  std::vector<const std::int64_t*> arow(static_cast<std::size_t>(std::max(k, 1)));
  std::vector<const std::int64_t*> prow(static_cast<std::size_t>(std::max(k, 1)));

  auto record_failure = [&](int query) {
    if (!builder.wants_failure()) return;
    InstanceOutcome outcome = evaluate_instance(model, make_instance(universe, seq, query));
    if (!outcome.fails())
      throw InternalError("fast evaluation flagged " + to_string(outcome.instance) +
                          " as failing but exact re-evaluation disagrees");
    builder.keep_failure(outcome);
  };

  for (int qp : queries) {
    others.clear();
    for (int j = 0; j < n; ++j)
      if (j != qp) others.push_back(j);
    const int qb = table.position_dependent ? qp : 0;
    auto key_block = [&](int pos) { return table.position_dependent ? pos : 0; };
    for (std::size_t u = 0; u < U; ++u) {
      seq[static_cast<std::size_t>(qp)] = static_cast<std::uint32_t>(u);
      const std::uint16_t* ov = &table.overlap[u * U];
      const int self_overlap = ov[u];
      if (table.row_fits[static_cast<std::size_t>(qb) * U + u]) {
        const std::size_t self_off = table.block_offset(qb, key_block(qp), u);
        const i128 self_a = table.kernel_int[self_off + u];
        const i128 self_p = table.product_int[self_off + u];
        for (int d = 0; d < k; ++d) {
          const std::size_t off = table.block_offset(qb, key_block(others[static_cast<std::size_t>(d)]), u);
          arow[static_cast<std::size_t>(d)] = &table.kernel_int[off];
          prow[static_cast<std::size_t>(d)] = &table.product_int[off];
        }
        auto check = [&](i128 sa, i128 sp, int t) {
          ++instances;
          if (sa == 0) {
            ++failing;
            ++undefined;
            record_failure(qp);
            return;
          }
          const i128 num = sp - static_cast<i128>(t) * sa;
          const u128 anum = static_cast<u128>(num < 0 ? -num : num);
          const u128 aden = static_cast<u128>(sa < 0 ? -sa : sa);
          if (2 * anum >= aden) {
            ++failing;
            record_failure(qp);
          }
          if (!small_max.any || ratio_greater(anum, aden, small_max.num, small_max.den)) {
            small_max.any = true;
            small_max.num = anum;
            small_max.den = aden;
            small_max.sequence = seq;
            small_max.query = qp;
          }
        };
        if (k == 0) {
          check(self_a, self_p, self_overlap);
        } else {
          std::function<void(int, i128, i128, int)> recurse;
          recurse = [&](int d, i128 pa, i128 pp, int pt) {
            const std::int64_t* a = arow[static_cast<std::size_t>(d)];
            const std::int64_t* p = prow[static_cast<std::size_t>(d)];
            const auto pos = static_cast<std::size_t>(others[static_cast<std::size_t>(d)]);
            if (d == k - 1) {
              for (std::size_t z = 0; z < U; ++z) {
                seq[pos] = static_cast<std::uint32_t>(z);
                check(pa + a[z], pp + p[z], std::min<int>(pt, ov[z]));
              }
              progress.update(instances);
              return;
            }
            for (std::size_t z = 0; z < U; ++z) {
              seq[pos] = static_cast<std::uint32_t>(z);
              recurse(d + 1, pa + a[z], pp + p[z], std::min<int>(pt, ov[z]));
            }
          };
          recurse(0, self_a, self_p, self_overlap);
        }
      } else {
        // GMP fallback for rows whose integers are too large.
        const std::vector<Rational>& ea = table.kernel_exact[static_cast<std::size_t>(qb) * U + u];
        const std::vector<Rational>& ep = table.product_exact[static_cast<std::size_t>(qb) * U + u];
        auto at = [&](int pos, std::size_t z) {
          return static_cast<std::size_t>(key_block(pos)) * U + z;
        };
        std::function<void(int, const Rational&, const Rational&, int)> recurse;
        recurse = [&](int d, const Rational& pa, const Rational& pp, int pt) {
          if (d == k) {
            ++instances;
            if (pa == 0) {
              ++failing;
              ++undefined;
              record_failure(qp);
              return;
            }
            const Rational error = abs_of(pp / pa - pt);
            if (error * 2 >= 1) {
              ++failing;
              record_failure(qp);
            }
            if (!exact_max || error > *exact_max) {
              exact_max = error;
              exact_max_seq = seq;
              exact_max_query = qp;
            }
            return;
          }
          const int pos = others[static_cast<std::size_t>(d)];
          for (std::size_t z = 0; z < U; ++z) {
            seq[static_cast<std::size_t>(pos)] = static_cast<std::uint32_t>(z);
            recurse(d + 1, pa + ea[at(pos, z)], pp + ep[at(pos, z)], std::min<int>(pt, ov[z]));
          }
          progress.update(instances);
        };
        recurse(0, ea[at(qp, u)], ep[at(qp, u)], self_overlap);
      }
    }
  }
  progress.finish();
  builder.add_counts(instances, failing, undefined);
  // The maximum is re-derived by exact evaluation of the instance attaining it,
  // and must agree with the integer computation.
  if (small_max.any) {
    InstanceOutcome worst = evaluate_instance(model, make_instance(universe, small_max.sequence, small_max.query));
    const Rational fast = make_rational(to_integer(small_max.num), to_integer(small_max.den));
    if (!worst.error || *worst.error != fast)
      throw InternalError("integer evaluation of " + to_string(worst.instance) + " gave error " +
                          to_string(fast) + " but exact evaluation disagrees");
    builder.offer_max(worst);
  }
  if (exact_max) {
    InstanceOutcome worst = evaluate_instance(model, make_instance(universe, exact_max_seq, exact_max_query));
    if (!worst.error || *worst.error != *exact_max)
      throw InternalError("table evaluation disagrees with exact evaluation on " +
                          to_string(worst.instance));
    builder.offer_max(worst);
  }
  if (instances != total) throw InternalError("instance count mismatch in evaluation");
  return builder.finish();
}

DoubleLoopResult evaluate_tabulated_double(const TabulatedModel& table, QueryMode mode) {
  // Same loop as the exact path with doubles; only the benchmark calls it.
  const std::size_t U = table.universe;
  const int n = table.n;
  const int k = n - 1;
  std::vector<double> a(table.kernel_int.size()), p(table.product_int.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<double>(table.kernel_int[i]);
    p[i] = static_cast<double>(table.product_int[i]);
  }
  DoubleLoopResult result;
  std::vector<int> others;
  std::vector<const double*> arow(static_cast<std::size_t>(std::max(k, 1)));
  std::vector<const double*> prow(static_cast<std::size_t>(std::max(k, 1)));
  for (int qp : query_positions(mode, n)) {
    others.clear();
    for (int j = 0; j < n; ++j)
      if (j != qp) others.push_back(j);
    const int qb = table.position_dependent ? qp : 0;
    auto key_block = [&](int pos) { return table.position_dependent ? pos : 0; };
    for (std::size_t u = 0; u < U; ++u) {
      const std::uint16_t* ov = &table.overlap[u * U];
      const std::size_t self_off = table.block_offset(qb, key_block(qp), u);
      for (int d = 0; d < k; ++d) {
        const std::size_t off = table.block_offset(qb, key_block(others[static_cast<std::size_t>(d)]), u);
        arow[static_cast<std::size_t>(d)] = &a[off];
        prow[static_cast<std::size_t>(d)] = &p[off];
      }
      auto check = [&](double sa, double sp, int t) {
        ++result.instances;
        const double error = std::abs(sp / sa - t);
        if (!(error < 0.5)) ++result.failing;
        if (error > result.max_error) result.max_error = error;
      };
      if (k == 0) {
        check(a[self_off + u], p[self_off + u], ov[u]);
        continue;
      }
      std::function<void(int, double, double, int)> recurse;
      recurse = [&](int d, double pa, double pp, int pt) {
        const double* ar = arow[static_cast<std::size_t>(d)];
        const double* pr = prow[static_cast<std::size_t>(d)];
        if (d == k - 1) {
          for (std::size_t z = 0; z < U; ++z) check(pa + ar[z], pp + pr[z], std::min<int>(pt, ov[z]));
          return;
        }
        for (std::size_t z = 0; z < U; ++z) recurse(d + 1, pa + ar[z], pp + pr[z], std::min<int>(pt, ov[z]));
      };
      recurse(0, a[self_off + u], p[self_off + u], ov[u]);
    }
  }
  return result;
}

}  // namespace kernelrank::detail

namespace kernelrank {

EvalReport evaluate_token_set(const Model& model, const std::vector<Token>& universe, int n,
                              const EvalOptions& options) {
  if (n < 1) throw UsageError("length n must be at least 1");
  if (universe.empty()) throw UsageError("the token set is empty");
  for (const Token& token : universe)
    if (token.width() != model.width())
      throw UsageError("token " + token.to_string() + " has width " +
                       std::to_string(token.width()) + " but the model expects m=" +
                       std::to_string(model.width()));
  count_instances(universe.size(), n, options.mode, options.instance_limit);
  const detail::TabulatedModel table = detail::tabulate(model, universe, n);
  return detail::evaluate_tabulated(table, model, universe, options, "token set");
}

EvalReport evaluate_cube(const Model& model, int m, int n, const EvalOptions& options) {
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
  const detail::TabulatedModel table = detail::tabulate(model, universe, n);
  return detail::evaluate_tabulated(table, model, universe, options, "brute force");
}

}  // namespace kernelrank
