// Gap domination (L2) without nonnegativity (theory.md §6, docs/open-questions.md).
//
// On S1 = (q, a^(n-1)), S2 = (q, b^(n-1)), S3_k = (q, a^k, b^(n-1-k)) with keys from
// {q, a, b}, write W, A, B for alpha(q, q), alpha(q, a), alpha(q, b), D1 = W + (n-1)A,
// D2 = W + (n-1)B, S = k D1 + (n-1-k) D2 and lambda = (n-1-k) D2 / S. Then
// y3 = (1 - lambda) y1 + lambda y2, and when at least two of W, A, B are nonzero y1 and y2
// can be chosen freely. So some readout solves all three exactly when D1, D2, S != 0, two
// of W, A, B are nonzero and lambda lies in (0, 1/g) or in (-1/(g-1), 0). For a kernel of
// any sign that solves them, the L2 inequality k D1 > (n-1-k)(g-1) D2 holds exactly when
// D1 > 0. These tests check that criterion against the exact evaluator (a readout built
// from it) and against Z3's linear arithmetic (find_readout), on every small integer kernel.
#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/bounds/domination_check.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/search/readout_feasibility.hpp"

#include <doctest/doctest.h>

#include <array>
#include <optional>

using namespace kernelrank;

namespace {

struct Setting {
  Token q, a, b;  // <q, a> = 0 and <q, b> = g
  int n = 3, k = 1, g = 2;
};

struct Kernel {
  Rational w, a, b;
};

// The readout (F(q), F(a), F(b)) the criterion gives, or nullopt when none exists.
std::optional<std::array<Rational, 3>> readout_by_criterion(const Setting& s, const Kernel& x) {
  const Rational d1 = x.w + (s.n - 1) * x.a, d2 = x.w + (s.n - 1) * x.b;
  const Rational sum = s.k * d1 + (s.n - 1 - s.k) * d2;
  const int nonzero = (x.w != 0) + (x.a != 0) + (x.b != 0);
  if (d1 == 0 || d2 == 0 || sum == 0 || nonzero < 2) return std::nullopt;
  const Rational lambda = (s.n - 1 - s.k) * d2 / sum, g(s.g);
  Rational y1, y2;
  if (lambda > 0 && lambda * g < 1) {
    // y1 = -1/2 + delta, y2 = g - 1/2 + delta: y3 = lambda g - 1/2 + delta.
    const Rational delta = (1 - lambda * g) / 2;
    y1 = Rational(-1, 2) + delta;
    y2 = g - Rational(1, 2) + delta;
  } else if (lambda < 0 && -lambda * (g - 1) < 1) {
    // y1 = 1/2 - e, y2 = g - 1/2 + e: y3 = 1/2 - e + lambda (g - 1 + 2e) > -1/2.
    const Rational e = (1 + lambda * (g - 1)) / (2 * (1 - 2 * lambda));
    y1 = Rational(1, 2) - e;
    y2 = g - Rational(1, 2) + e;
  } else {
    return std::nullopt;
  }
  // N1 = W F(q) + (n-1) A F(a) = y1 D1 and N2 = W F(q) + (n-1) B F(b) = y2 D2.
  const Rational n1 = y1 * d1, n2 = y2 * d2, n_1(s.n - 1);
  std::array<Rational, 3> f{Rational(0), Rational(0), Rational(0)};
  if (x.a != 0 && x.b != 0) {
    f[1] = n1 / (n_1 * x.a);
    f[2] = n2 / (n_1 * x.b);
  } else if (x.a == 0) {
    f[0] = n1 / x.w;
    f[2] = (n2 - x.w * f[0]) / (n_1 * x.b);
  } else {
    f[0] = n2 / x.w;
    f[1] = (n1 - x.w * f[0]) / (n_1 * x.a);
  }
  return f;
}

RationalMatrix kernel_table(const Kernel& x) {
  // Rows other than q's are never used by S1, S2, S3 (their query is q); 1 keeps them defined.
  RationalMatrix k(3, RationalVector(3, Rational(1)));
  k[0] = {x.w, x.a, x.b};
  return k;
}

TabularModel model_with(const Setting& s, const Kernel& x, const std::array<Rational, 3>& f) {
  RationalMatrix readout(3, RationalVector(3, Rational(0)));
  readout[0] = {f[0], f[1], f[2]};
  return TabularModel(s.q.width(), {s.q, s.a, s.b}, kernel_table(x), readout);
}

Family triple_family(const Setting& s) {
  const DominationStep step = domination_step(s.q, s.a, s.b, s.n, s.k);
  return Family{s.q.width(), s.n, {step.s1, step.s2, step.s3}};
}

// Every kernel with entries in -h..h: the criterion, the evaluator and Z3 agree.
void check_every_kernel(const Setting& s, int h) {
  const Family family = triple_family(s);
  int solvable = 0, violating = 0;
  for (int w = -h; w <= h; ++w)
    for (int a = -h; a <= h; ++a)
      for (int b = -h; b <= h; ++b) {
        const Kernel x{Rational(w), Rational(a), Rational(b)};
        CAPTURE(w);
        CAPTURE(a);
        CAPTURE(b);
        const auto f = readout_by_criterion(s, x);
        const Rational d1 = x.w + (s.n - 1) * x.a, d2 = x.w + (s.n - 1) * x.b;
        const Rational d3 = x.w + s.k * x.a + (s.n - 1 - s.k) * x.b;
        if (!f) {
          // No readout: Z3 must agree (a zero denominator fails for every readout).
          if (d1 != 0 && d2 != 0 && d3 != 0)
            CHECK(find_readout(s.q.width(), {s.q, s.a, s.b}, kernel_table(x), family).status ==
                  FeasibilityStatus::Infeasible);
          continue;
        }
        ++solvable;
        const TabularModel model = model_with(s, x, *f);
        for (const Instance& instance : family.instances)
          CHECK_FALSE(evaluate_instance(model, instance).fails());
        // L2 for NK: a nonnegative kernel that solves the three satisfies the inequality.
        if (w >= 0 && a >= 0 && b >= 0) CHECK(d1 > 0);
        const DominationReport report = check_domination_family(model, family);
        REQUIRE(report.checked == 1);
        CHECK(report.violated == (d1 > 0 ? 0U : 1U));
        if (report.violated == 1) {
          ++violating;
          CHECK(report.violations.front().all_solved);
          CHECK(report.classification.model_class == ModelClass::Signed);
        }
      }
  CHECK(solvable > 0);
  CHECK(violating > 0);
}

Setting setting(const char* q, const char* a, const char* b, int n, int k) {
  Setting s{parse_token(q), parse_token(a), parse_token(b), n, k, 0};
  s.g = inner(s.q, s.b) - inner(s.q, s.a);
  return s;
}

}  // namespace

TEST_CASE("signed L2: criterion, exact evaluation and Z3 agree on every kernel in -2..2") {
  check_every_kernel(setting("110", "001", "111", 3, 1), 2);     // g = 2, kappa = 1
  check_every_kernel(setting("1110", "0001", "1111", 3, 1), 2);  // g = 3, kappa = 2
  check_every_kernel(setting("110", "001", "111", 4, 1), 1);     // S3_1 at n = 4
  check_every_kernel(setting("1110", "0001", "1111", 5, 2), 1);  // S3_2 at n = 5, g = 3
}

TEST_CASE("signed L2: the smallest counterexample with denominators of both signs") {
  // m = 3, n = 3: q = 110, a = 001 (<q,a> = 0), b = 111 (<q,b> = 2), kappa = 1.
  // W = -1, A = -1, B = 1: D1 = -3, D2 = 1, D3 = -1; F(q) = 0, F(a) = 2/3, F(b) = 1.
  // By hand: y1 = (2 * -1 * 2/3) / -3 = 4/9, y2 = (2 * 1) / 1 = 2,
  // y3 = (-2/3 + 1) / -1 = -1/3: all within 1/2 of the targets 0, 2, 0,
  // while W + 2A = -3 <= 1 * (W + 2B) = 1.
  const Setting s = setting("110", "001", "111", 3, 1);
  const TabularModel model = model_with(s, {Rational(-1), Rational(-1), Rational(1)},
                                        {Rational(0), Rational(2, 3), Rational(1)});
  const Family family = triple_family(s);
  const std::array<Rational, 3> expected{Rational(4, 9), Rational(2), Rational(-1, 3)};
  for (std::size_t i = 0; i < 3; ++i) {
    const InstanceOutcome outcome = evaluate_instance(model, family.instances[i]);
    REQUIRE(outcome.output);
    CHECK(*outcome.output == expected[i]);
    CHECK_FALSE(outcome.fails());
  }
  const DominationReport report = check_domination_family(model, family);
  CHECK(report.classification.model_class == ModelClass::Signed);
  REQUIRE(report.violated == 1);
  const DominationViolation& v = report.violations.front();
  CHECK(v.lhs == Rational(-3));
  CHECK(v.rhs == Rational(1));
  CHECK(v.all_solved);
}

TEST_CASE("signed L2: negating an NK kernel keeps every output and flips the inequality") {
  // W = 1, A = 1, B = 0 (NK): D1 = 3, D2 = 1, lambda = 1/4 < 1/g = 1/2, so some readout
  // solves the three; the negated kernel gives the same outputs (y is a ratio), while
  // W + 2A > W + 2B turns into -3 <= -1.
  const Setting s = setting("110", "001", "111", 3, 1);
  const Kernel nk{Rational(1), Rational(1), Rational(0)};
  const auto f = readout_by_criterion(s, nk);
  REQUIRE(f);
  const TabularModel positive = model_with(s, nk, *f);
  const TabularModel negated = model_with(s, {-nk.w, -nk.a, -nk.b}, *f);
  const Family family = triple_family(s);
  for (const Instance& instance : family.instances) {
    const InstanceOutcome p = evaluate_instance(positive, instance);
    const InstanceOutcome n = evaluate_instance(negated, instance);
    CHECK_FALSE(p.fails());
    CHECK(p.output == n.output);
  }
  CHECK(check_domination_family(positive, family).violated == 0);
  const DominationReport report = check_domination_family(negated, family);
  REQUIRE(report.violated == 1);
  CHECK(report.violations.front().all_solved);
}
