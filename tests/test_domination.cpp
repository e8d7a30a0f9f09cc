// The L2 inequality checker, and L2's tightness by exact linear feasibility.
#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/bounds/domination_check.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/builtin_models.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/search/readout_feasibility.hpp"

#include <doctest/doctest.h>

using namespace kernelrank;

namespace {

std::vector<Token> all_tokens(int m) {
  std::vector<Token> tokens;
  for (std::uint64_t i = 0; i < (1ULL << m); ++i) tokens.push_back(Token::from_index(m, i));
  return tokens;
}

}  // namespace

TEST_CASE("domination: softmax base 3 satisfies every L2 inequality on small cubes") {
  for (int m = 2; m <= 4; ++m) {
    const DominationReport report = check_domination_cube(*make_softmax(m, Rational(3)), m, 3);
    CHECK(report.checked > 0);
    CHECK(report.violated == 0);
  }
}

TEST_CASE("domination: a model built to violate one inequality is caught on that triple") {
  // Softmax base 3 on m = 2, except alpha(11, 00) = 1/100. The only triple with
  // gap >= 2 is q = 11, a = 00, b = 11 (gap 2, factor 1): W + 2A = 1/9 + 1/50
  // is not > W + 2B = 1/9 + 2/9, so exactly that inequality fails.
  const std::vector<Token> tokens = all_tokens(2);
  const auto softmax = make_softmax(2, Rational(3));
  RationalMatrix kernel(4, RationalVector(4)), readout(4, RationalVector(4));
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      kernel[i][j] = softmax->kernel(tokens[i], tokens[j], 0, 0);
      readout[i][j] = softmax->readout(tokens[i], tokens[j], 0, 0);
    }
  kernel[3][0] = Rational(1, 100);  // token 3 = "11", token 0 = "00"
  const TabularModel model(2, tokens, kernel, readout);
  const DominationReport report = check_domination_cube(model, 2, 3);
  REQUIRE(report.violated == 1);
  const DominationViolation& v = report.violations.front();
  CHECK(v.q.to_string() == "11");
  CHECK(v.a.to_string() == "00");
  CHECK(v.b.to_string() == "11");
  CHECK(v.gap == 2);
  CHECK(v.lhs == Rational(1, 9) + Rational(1, 50));
  CHECK(v.rhs == Rational(1, 3));
  // One of S1, S2, S3 must fail (L2); here S3 = (11, 00, 11): y = (2/9 + 2/9 ... ).
  CHECK((v.s1.fails() || v.s2.fails() || v.s3.fails()));
  CHECK(v.s3.fails());
}

TEST_CASE("domination: family restriction only tests triples whose instances are present") {
  const auto softmax = make_softmax(4, Rational(2));
  Family family{4, 3, {}};
  const Token q = parse_token("1111"), a = parse_token("0000"), b = parse_token("1100");
  const DominationStep step = domination_step(q, a, b, 3);
  family.instances = {step.s1, step.s2, step.s3};
  const DominationReport report = check_domination_family(*softmax, family);
  CHECK(report.checked == 1);
  // Base 2: W + 2A = 1/16 + 2 > 1 * (1/16 + 2/4): holds.
  CHECK(report.violated == 0);
  family.instances.pop_back();  // without S3 the triple is not testable
  CHECK(check_domination_family(*softmax, family).checked == 0);
}

TEST_CASE("domination: L2 is tight (exact linear feasibility on S1, S2, S3)") {
  // q = 1111, a = 0000 (<q,a> = 0), b = 1110 (<q,b> = 3): g = 3, kappa = 2 at n = 3.
  // L2: W + 2A > 2 (W + 2B). With W = B = 1 the threshold is A = 5/2: just above
  // it some readout solves S1, S2 and S3; at it (and below) none does. (Adding
  // instances such as (q, q, a) adds constraints that involve W and move the
  // threshold; L2 speaks about the three instances.)
  const Token q = parse_token("1111"), a = parse_token("0000"), b = parse_token("1110");
  const std::vector<Token> tokens{q, a, b};
  Family family{4, 3, {}};
  const DominationStep step = domination_step(q, a, b, 3);
  family.instances = {step.s1, step.s2, step.s3};
  auto kernel_with = [&](const Rational& A) {
    RationalMatrix k(3, RationalVector(3, Rational(1)));
    k[0][0] = 1;  // W
    k[0][1] = A;  // alpha(q, a)
    k[0][2] = 1;  // B
    return k;
  };
  const ReadoutFeasibility above =
      find_readout(4, tokens, kernel_with(Rational(5, 2) + Rational(1, 1000)), family);
  CHECK(above.status == FeasibilityStatus::Feasible);
  REQUIRE(above.model);
  const ReadoutFeasibility at = find_readout(4, tokens, kernel_with(Rational(5, 2)), family);
  CHECK(at.status == FeasibilityStatus::Infeasible);
  const ReadoutFeasibility below = find_readout(4, tokens, kernel_with(Rational(2)), family);
  CHECK(below.status == FeasibilityStatus::Infeasible);
}

TEST_CASE("domination: exhaustive checks refuse cubes that are too large") {
  CHECK_THROWS_AS(check_domination_cube(*make_softmax(12, Rational(3)), 12, 3), ResourceError);
}
