// Overlap-profile evaluation (theory.md §5).
//
// For a model whose kernel and readout depend only on w = |q| and s = <q,z>, an
// instance of T(m,n) with query q is determined, as far as the output goes, by
// w and the multiset of the other n-1 overlaps s_j in 0..w; its target is the
// smallest s_j (w when n = 1). Each profile is realised by
// C(m,w) * multinomial * prod_j C(w,s_j) 2^(m-w) ordered instances, so exact
// error rates follow without touching the 2^(mn) instances. Rows are brought to
// integers (GMP) once per w; a bit-length test skips most exact comparisons
// against the running maximum. Each query weight is one block (threads, shards):
// weights are independent, and their results combine exactly (sums of counts, the
// maximum with the smallest weight on ties, failures in scan order).
#include "eval/eval_report.hpp"
#include "kernelrank/core/binomial.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/progress.hpp"
#include "kernelrank/eval/eval_partial.hpp"
#include "kernelrank/eval/evaluate.hpp"

#include <gmp.h>

#include <atomic>
#include <functional>

namespace kernelrank {
namespace {

constexpr long double kMaxProfiles = 4e10L;
// Profiles times 64-bit limbs per row integer: about 2e11 is a few minutes' work.
constexpr long double kMaxProfileWork = 2e11L;

// RAII wrapper for raw mpz_t temporaries in the inner loop.
struct Mpz {
  mpz_t v;
  Mpz() { mpz_init(v); }
  ~Mpz() { mpz_clear(v); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
};

Integer from_mpz(const mpz_t value) {
  Integer result;
  mpz_set(result.backend().data(), value);
  return result;
}

long double profile_count_estimate(int m, int n) {
  // sum over w of C(w + n - 1, n - 1), the multisets of n-1 overlaps in 0..w.
  long double total = 0;
  for (int w = 0; w <= m; ++w) {
    long double c = 1;
    for (int i = 1; i <= n - 1; ++i) c = c * (w + i) / i;
    total += c;
    if (total > kMaxProfiles) break;
  }
  return total;
}

// Ordered instances (query first) with |q| = w and the given overlap multiset.
Integer count_profile(int m, int n, int w, const std::vector<int>& overlaps) {
  Integer count = binomial(m, w);
  Integer free_bits = 1;
  free_bits <<= static_cast<unsigned>((n - 1) * (m - w));
  count *= free_bits;
  // multinomial (n-1)! / prod(multiplicity!) times prod C(w, s_j)
  Integer multinomial = 1;
  int run = 0;
  for (std::size_t j = 0; j < overlaps.size(); ++j) {
    run = (j > 0 && overlaps[j] == overlaps[j - 1]) ? run + 1 : 1;
    multinomial *= static_cast<unsigned>(j + 1);
    multinomial /= static_cast<unsigned>(run);
    count *= binomial(w, overlaps[j]);
  }
  return count * multinomial;
}

void check_profile_work(int max_weight, int n) {
  if (n < 1) throw UsageError("length n must be at least 1");
  if (max_weight < 0) throw UsageError("m must be at least 0");
  const long double profiles = profile_count_estimate(max_weight, n);
  const int limbs = max_weight / 64 + 1;  // of the largest integers the scan adds
  if (profiles > kMaxProfiles || profiles * limbs > kMaxProfileWork)
    throw ResourceError(
        "about " + std::to_string(static_cast<long long>(std::min(profiles, kMaxProfiles))) +
        " overlap profiles of " + std::to_string(limbs) +
        "-limb integers for m=" + std::to_string(max_weight) + ", n=" + std::to_string(n) +
        " would take hours; lower m or n (m = 2000 at n = 3 takes minutes)");
}

// What the scan of one query weight w found. Profiles are numbered in scan order (the
// non-decreasing overlap tuples in lexicographic order) from 0 within the weight.
struct WeightScan {
  std::optional<Rational> max;    // nullopt: no profile of this weight has a defined output
  std::vector<int> max_overlaps;  // the first profile attaining it
  std::uint64_t max_local = 0;
  Integer failing = 0, undefined = 0;  // ordered instances (query first), when m > 0
  // The first `max_failures` failing profiles: local number, overlaps.
  std::vector<std::pair<std::uint64_t, std::vector<int>>> failures;
};

// The row K[s], P[s] = K[s] F[s] for s = 0..w as integers with no common factor (one common
// denominator), so that the scan adds integers only.
void scale_rows(const OverlapForm& form, int w, std::vector<Mpz>& kernel_row,
                std::vector<Mpz>& product_row) {
  Mpz lcm, gcd;
  std::vector<Rational> ks(static_cast<std::size_t>(w) + 1), ps(static_cast<std::size_t>(w) + 1);
  mpz_set_ui(lcm.v, 1);
  for (int s = 0; s <= w; ++s) {
    const auto i = static_cast<std::size_t>(s);
    ks[i] = form.kernel(w, s);
    ps[i] = ks[i] == 0 ? Rational(0) : Rational(ks[i] * form.readout(w, s));
    mpz_lcm(lcm.v, lcm.v, mpq_denref(ks[i].backend().data()));
    mpz_lcm(lcm.v, lcm.v, mpq_denref(ps[i].backend().data()));
  }
  mpz_set_ui(gcd.v, 0);
  for (int s = 0; s <= w; ++s) {
    const auto i = static_cast<std::size_t>(s);
    mpz_divexact(kernel_row[i].v, lcm.v, mpq_denref(ks[i].backend().data()));
    mpz_mul(kernel_row[i].v, kernel_row[i].v, mpq_numref(ks[i].backend().data()));
    mpz_divexact(product_row[i].v, lcm.v, mpq_denref(ps[i].backend().data()));
    mpz_mul(product_row[i].v, product_row[i].v, mpq_numref(ps[i].backend().data()));
    mpz_gcd(gcd.v, gcd.v, kernel_row[i].v);
    mpz_gcd(gcd.v, gcd.v, product_row[i].v);
  }
  if (mpz_cmp_ui(gcd.v, 1) > 0) {
    for (int s = 0; s <= w; ++s) {
      mpz_divexact(kernel_row[static_cast<std::size_t>(s)].v,
                   kernel_row[static_cast<std::size_t>(s)].v, gcd.v);
      mpz_divexact(product_row[static_cast<std::size_t>(s)].v,
                   product_row[static_cast<std::size_t>(s)].v, gcd.v);
    }
  }
}

// Scans every profile with query weight w (n - 1 overlaps in 0..w). With m > 0 the failing
// counts are weighted by the number of ordered instances of T(m,n) of each profile.
WeightScan scan_weight(const OverlapForm& form, int w, int n, int m, std::size_t max_failures) {
  WeightScan out;
  const int k = n - 1;
  std::vector<Mpz> kernel_row(static_cast<std::size_t>(w) + 1);
  std::vector<Mpz> product_row(static_cast<std::size_t>(w) + 1);
  std::vector<Mpz> part_a(static_cast<std::size_t>(k) + 1), part_p(static_cast<std::size_t>(k) + 1);
  Mpz num, twice, lhs, rhs;
  Mpz best_num, best_den;  // maximum at this weight
  std::vector<int> overlaps(static_cast<std::size_t>(k), 0);

  scale_rows(form, w, kernel_row, product_row);
  bool have_max = false;
  std::uint64_t local = 0;
  mpz_set(part_a[0].v, kernel_row[static_cast<std::size_t>(w)].v);  // the query's own token
  mpz_set(part_p[0].v, product_row[static_cast<std::size_t>(w)].v);

  auto on_failure = [&](bool undefined) {
    if (m > 0) {
      const Integer count = count_profile(m, n, w, overlaps);
      out.failing += count;
      if (undefined) out.undefined += count;
    }
    if (out.failures.size() < max_failures) out.failures.emplace_back(local, overlaps);
  };
  auto leaf = [&]() {
    const mpz_t& sa = part_a[static_cast<std::size_t>(k)].v;
    const mpz_t& sp = part_p[static_cast<std::size_t>(k)].v;
    const int t = k == 0 ? w : overlaps[0];
    if (mpz_sgn(sa) == 0) {
      on_failure(true);
      return;
    }
    // num = |sp - t*sa|; error = num / |sa|.
    mpz_set(num.v, sp);
    mpz_submul_ui(num.v, sa, static_cast<unsigned long>(t));
    mpz_abs(num.v, num.v);
    mpz_mul_2exp(twice.v, num.v, 1);
    if (mpz_cmpabs(twice.v, sa) >= 0) on_failure(false);
    bool greater = !have_max;
    if (have_max && mpz_sgn(num.v) != 0) {
      // Exact filter: num*best_den < 2^(bits(num)+bits(best_den)) and
      // best_num*|sa| >= 2^(bits(best_num)+bits(sa)-2).
      const std::size_t lhs_bits = mpz_sizeinbase(num.v, 2) + mpz_sizeinbase(best_den.v, 2);
      const std::size_t rhs_bits =
          (mpz_sgn(best_num.v) == 0 ? 0 : mpz_sizeinbase(best_num.v, 2)) + mpz_sizeinbase(sa, 2);
      if (mpz_sgn(best_num.v) == 0 || lhs_bits + 2 > rhs_bits) {
        mpz_mul(lhs.v, num.v, best_den.v);
        mpz_mul(rhs.v, best_num.v, sa);
        mpz_abs(rhs.v, rhs.v);
        greater = mpz_cmp(lhs.v, rhs.v) > 0;
      }
    }
    if (greater) {
      have_max = true;
      mpz_set(best_num.v, num.v);
      mpz_abs(best_den.v, sa);
      out.max_overlaps = overlaps;
      out.max_local = local;
    }
  };
  std::function<void(int, int)> recurse = [&](int depth, int lowest) {
    if (depth == k) {
      leaf();
      ++local;
      return;
    }
    for (int s = lowest; s <= w; ++s) {
      overlaps[static_cast<std::size_t>(depth)] = s;
      mpz_add(part_a[static_cast<std::size_t>(depth) + 1].v,
              part_a[static_cast<std::size_t>(depth)].v, kernel_row[static_cast<std::size_t>(s)].v);
      mpz_add(part_p[static_cast<std::size_t>(depth) + 1].v,
              part_p[static_cast<std::size_t>(depth)].v,
              product_row[static_cast<std::size_t>(s)].v);
      recurse(depth + 1, s);
    }
  };
  recurse(0, 0);
  if (have_max) out.max = make_rational(from_mpz(best_num.v), from_mpz(best_den.v));
  return out;
}

// Scans the weights w = 0..max_weight that `shard` owns on `threads` threads; entry w of the
// result is empty for weights not owned.
std::vector<WeightScan> scan_weights(const OverlapForm& form, int max_weight, int n, int m,
                                     std::size_t max_failures, const Shard& shard, int threads) {
  check_profile_work(max_weight, n);
  std::vector<WeightScan> scans(static_cast<std::size_t>(max_weight) + 1);
  std::vector<int> owned;
  // Heaviest first: the work at weight w grows like w^(n-1).
  for (int w = max_weight; w >= 0; --w)
    if (shard.owns(static_cast<std::size_t>(w))) owned.push_back(w);
  Progress progress("profiles", owned.size());
  std::atomic<std::uint64_t> done{0};
  parallel_for(owned.size(), resolve_threads(threads), [&](std::size_t task, int worker) {
    const int w = owned[task];
    scans[static_cast<std::size_t>(w)] = scan_weight(form, w, n, m, max_failures);
    const std::uint64_t now = done.fetch_add(1) + 1;
    if (worker == 0) progress.update(now);
  });
  progress.complete();
  return scans;
}

// Profiles of weights below w: sum_{v < w} C(v + n - 1, n - 1) = C(w + n - 1, n).
std::uint64_t profiles_below(int w, int n) {
  const Integer count = binomial(w + n - 1, n);
  return count.convert_to<std::uint64_t>();
}

}  // namespace

Integer profile_instance_count(int m, int n, int w, const std::vector<int>& overlaps) {
  return count_profile(m, n, w, overlaps);
}

Instance realise_profile(int m, int w, const std::vector<int>& overlaps, int query_position) {
  auto prefix = [m](int ones) {
    Token t(m);
    for (int i = 0; i < ones; ++i) t.set(i, true);
    return t;
  };
  Instance instance;
  instance.query = query_position;
  std::size_t next = 0;
  const int n = static_cast<int>(overlaps.size()) + 1;
  for (int pos = 0; pos < n; ++pos)
    instance.tokens.push_back(pos == query_position ? prefix(w) : prefix(overlaps[next++]));
  return instance;
}

InstanceOutcome evaluate_with_form(const OverlapForm& form, const Instance& instance) {
  const Token& q = instance.tokens.at(static_cast<std::size_t>(instance.query));
  const int w = q.weight();
  Rational sa = 0, sp = 0;
  for (const Token& z : instance.tokens) {
    const int s = inner(q, z);
    const Rational a = form.kernel(w, s);
    sa += a;
    if (a != 0) sp += a * form.readout(w, s);
  }
  return detail::outcome_from_sums(instance, sp, sa);
}

EvalSummary evaluate_profiles_summary(const OverlapForm& form, int m, int n,
                                      const EvalOptions& options, std::uint64_t* blocks) {
  if (m < 1 || m > kMaxTokenWidth)
    throw UsageError("m must be in 1.." + std::to_string(kMaxTokenWidth));
  if (blocks) *blocks = static_cast<std::uint64_t>(m) + 1;
  const int query_position = query_positions(options.mode, n).front();
  const unsigned per_sequence = options.mode == QueryMode::All ? static_cast<unsigned>(n) : 1U;
  const std::vector<WeightScan> scans =
      scan_weights(form, m, n, m, options.max_failures, options.shard, options.threads);
  EvalSummary summary;
  summary.method = "profiles";
  summary.max_failures = options.max_failures;
  Integer keys = 1;
  keys <<= static_cast<unsigned>(m * (n - 1));
  std::optional<Rational> overall;
  int max_w = 0;
  for (int w = 0; w <= m; ++w) {
    if (!options.shard.owns(static_cast<std::size_t>(w))) continue;
    const WeightScan& scan = scans[static_cast<std::size_t>(w)];
    // Ordered instances with |q| = w: C(m, w) queries, any keys.
    summary.instances += binomial(m, w) * keys * per_sequence;
    summary.failing += scan.failing * per_sequence;
    summary.undefined += scan.undefined * per_sequence;
    for (const auto& [local, overlaps] : scan.failures) {
      if (summary.failures.size() >= options.max_failures) break;
      InstanceOutcome outcome =
          evaluate_with_form(form, realise_profile(m, w, overlaps, query_position));
      if (!outcome.fails())
        throw InternalError("profile scan and exact evaluation disagree on " +
                            to_string(outcome.instance));
      summary.failures.push_back({profiles_below(w, n) + local, std::move(outcome)});
    }
    if (scan.max && (!overall || *scan.max > *overall)) {
      overall = scan.max;
      max_w = w;
    }
  }
  if (overall) {
    const WeightScan& scan = scans[static_cast<std::size_t>(max_w)];
    InstanceOutcome worst =
        evaluate_with_form(form, realise_profile(m, max_w, scan.max_overlaps, query_position));
    if (!worst.error || *worst.error != *overall)
      throw InternalError("profile maximum does not match exact evaluation of " +
                          to_string(worst.instance));
    summary.max_error = *overall;
    summary.worst = IndexedOutcome{profiles_below(max_w, n) + scan.max_local, std::move(worst)};
  }
  return summary;
}

EvalReport evaluate_profiles(const OverlapForm& form, int m, int n, const EvalOptions& options) {
  EvalOptions whole = options;
  whole.shard = Shard{};
  return summary_to_report(evaluate_profiles_summary(form, m, n, whole));
}

std::vector<std::optional<Rational>> max_error_by_query_weight(const OverlapForm& form,
                                                               int max_weight, int n) {
  const std::vector<WeightScan> scans = scan_weights(form, max_weight, n, 0, 0, Shard{}, 1);
  std::vector<std::optional<Rational>> per_weight;
  for (const WeightScan& scan : scans) per_weight.push_back(scan.max);
  return per_weight;
}

}  // namespace kernelrank
