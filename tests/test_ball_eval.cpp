// Ball-arithmetic evaluation of real heads (ball_eval.hpp), checked against two paths that
// share nothing with it: the exact rational evaluator for rational feature maps, and a
// 60-digit decimal float (Boost's cpp_dec_float, not Arb) for elu1, exp and softmax.
#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/ball_eval.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/real_head.hpp"

#include <doctest/doctest.h>
#include <boost/multiprecision/cpp_dec_float.hpp>

#include <random>

using namespace kernelrank;

namespace {

using Decimal = boost::multiprecision::number<boost::multiprecision::cpp_dec_float<60>>;

Decimal decimal(const Rational& x) {
  return Decimal(numerator(x).str()) / Decimal(denominator(x).str());
}

AffineMap random_affine(std::mt19937_64& rng, int rows, int m, int spread) {
  std::uniform_int_distribution<int> pick(-spread, spread);
  AffineMap map;
  for (int i = 0; i < rows; ++i) {
    RationalVector row;
    for (int j = 0; j < m; ++j) row.push_back(Rational(pick(rng), 8));
    map.weight.push_back(row);
    map.bias.push_back(Rational(pick(rng), 8));
  }
  return map;
}

RealHead random_head(std::mt19937_64& rng, FeatureMap map, int m, int dk, int d) {
  RealHead head;
  head.m = m;
  head.map = map;
  head.query = random_affine(rng, dk, m, 12);
  head.key = random_affine(rng, dk, m, 12);
  head.value = random_affine(rng, d, m, 16);
  head.readout_c = random_affine(rng, d, m, 16);
  head.readout_e = random_affine(rng, 1, m, 8);
  if (map == FeatureMap::Exp) {
    std::uniform_int_distribution<int> pick(-8, 8);
    for (int j = 0; j < 5; ++j) {
      RationalVector row;
      for (int i = 0; i < dk; ++i) row.push_back(Rational(pick(rng), 4));
      head.projection.push_back(row);
    }
    head.scale = Rational(1, dk);
  }
  if (map == FeatureMap::Softmax) head.temperature = Rational(7, 10);
  head.description = "random " + to_string(map) + " head";
  return head;
}

std::vector<Instance> cube_instances(int m, int n) {
  std::vector<Instance> all;
  for_each_sequence(std::uint64_t{1} << m, n, QueryMode::All,
                    [&](const std::vector<std::uint32_t>& idx, int q) {
                      Instance instance;
                      for (std::uint32_t i : idx)
                        instance.tokens.push_back(Token::from_index(m, i));
                      instance.query = q;
                      all.push_back(instance);
                      return true;
                    });
  return all;
}

Decimal dot(const std::vector<Decimal>& a, const std::vector<Decimal>& b) {
  Decimal s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

std::vector<Decimal> apply(const AffineMap& map, const Token& x) {
  std::vector<Decimal> out;
  for (std::size_t i = 0; i < map.bias.size(); ++i) {
    Decimal s = decimal(map.bias[i]);
    for (int j = 0; j < x.width(); ++j)
      if (x.get(j)) s += decimal(map.weight[i][static_cast<std::size_t>(j)]);
    out.push_back(s);
  }
  return out;
}

// The head's features in decimal floating point, written from the formulas of real_head.hpp.
std::vector<Decimal> decimal_features(const RealHead& head, const std::vector<Decimal>& u) {
  std::vector<Decimal> phi;
  if (head.map == FeatureMap::Elu1) {
    for (const Decimal& x : u) phi.push_back(x > 0 ? Decimal(x + 1) : Decimal(exp(x)));
  } else {  // exp
    const Decimal s = pow(decimal(head.scale), Decimal(1) / 4);
    for (const RationalVector& row : head.projection) {
      Decimal p = 0, norm = 0;
      for (std::size_t i = 0; i < u.size(); ++i) {
        p += decimal(row[i]) * u[i];
        norm += u[i] * u[i];
      }
      phi.push_back(exp(s * p - s * s * norm / 2));
    }
  }
  return phi;
}

Decimal decimal_output(const RealHead& head, const Instance& instance) {
  const Token& q = instance.tokens[static_cast<std::size_t>(instance.query)];
  const std::vector<Decimal> u = apply(head.query, q), c = apply(head.readout_c, q);
  const Decimal e = apply(head.readout_e, q)[0];
  Decimal numerator = 0, denominator = 0;
  for (const Token& z : instance.tokens) {
    const std::vector<Decimal> w = apply(head.key, z);
    const Decimal alpha = head.map == FeatureMap::Softmax
                              ? exp(decimal(head.temperature) * dot(u, w))
                              : dot(decimal_features(head, u), decimal_features(head, w));
    numerator += alpha * (dot(c, apply(head.value, z)) + e);
    denominator += alpha;
  }
  return numerator / denominator;
}

}  // namespace

TEST_CASE(
    "ball eval: 20 random relu/square heads agree with the exact path, and every ball holds the "
    "exact value") {
  std::mt19937_64 rng(20261201);
  const std::vector<Instance> instances = cube_instances(2, 3);
  int decided = 0, defined = 0;
  for (int h = 0; h < 20; ++h) {
    const RealHead head =
        random_head(rng, h % 2 == 0 ? FeatureMap::Relu : FeatureMap::Square, 2, 3, 2);
    const auto model = exact_model(head);
    for (const Instance& instance : instances) {
      const InstanceOutcome exact = evaluate_instance(*model, instance);
      const BallOutcome ball = evaluate_ball_instance(head, instance, 64);
      CAPTURE(to_string(instance));
      if (!exact.output) {
        // 0/0: no finite ball, never a verdict.
        CHECK(ball.verdict == BallVerdict::Undecided);
        continue;
      }
      ++defined;
      REQUIRE(ball.enclosed);
      CHECK(ball.lo <= *exact.output);
      CHECK(*exact.output <= ball.hi);
      if (ball.verdict == BallVerdict::Undecided) {
        CHECK(*exact.error == Rational(1, 2));  // only an exact edge value may stay open
        continue;
      }
      ++decided;
      CHECK((ball.verdict == BallVerdict::Fails) == exact.fails());
    }
  }
  CHECK(defined > 1000);
  CHECK(decided > defined * 9 / 10);
}

TEST_CASE("ball eval: the cube report of a rational head matches evaluate_cube") {
  std::mt19937_64 rng(7);
  for (FeatureMap map : {FeatureMap::Square, FeatureMap::Taylor2, FeatureMap::Relu}) {
    const RealHead head = random_head(rng, map, 3, 2, 2);
    EvalOptions exact_options;
    const EvalReport exact = evaluate_cube(*exact_model(head), 3, 2, exact_options);
    BallOptions options;
    const BallReport ball = evaluate_ball_cube(head, 2, options);
    CAPTURE(to_string(map));
    CHECK(ball.instances == exact.instances);
    if (exact.undefined == 0 && ball.undecided == 0) {
      CHECK(Integer(ball.failing) == exact.failing);
      REQUIRE(exact.max_error);
      CHECK(*ball.max_error_lo <= *exact.max_error);
      CHECK(*exact.max_error <= *ball.max_error_hi);
    }
  }
}

TEST_CASE("ball eval: elu1, exp and softmax balls hold a 60-digit decimal evaluation") {
  std::mt19937_64 rng(11);
  const std::vector<Instance> instances = cube_instances(2, 2);
  for (FeatureMap map : {FeatureMap::Elu1, FeatureMap::Exp, FeatureMap::Softmax}) {
    for (int h = 0; h < 3; ++h) {
      const RealHead head = random_head(rng, map, 2, 3, 2);
      for (const Instance& instance : instances) {
        const BallOutcome ball = evaluate_ball_instance(head, instance, 128);
        REQUIRE(ball.enclosed);
        const Decimal y = decimal_output(head, instance);
        CAPTURE(to_string(map));
        CAPTURE(to_string(instance));
        // 128-bit balls are about 1e-38 wide; the decimal value is good to about 1e-55.
        CHECK(decimal(ball.lo) - Decimal("1e-50") <= y);
        CHECK(y <= decimal(ball.hi) + Decimal("1e-50"));
        CHECK(decimal(ball.hi) - decimal(ball.lo) < Decimal("1e-30"));
      }
    }
  }
}

TEST_CASE(
    "ball eval: an output within 1e-12 of the band edge is decided at higher precision or left "
    "undecided") {
  std::mt19937_64 rng(3);
  RealHead head = random_head(rng, FeatureMap::Elu1, 3, 4, 3);
  Instance instance;
  instance.tokens = {Token::from_index(3, 5), Token::from_index(3, 3), Token::from_index(3, 6)};
  instance.query = 0;
  const int t = min_ip_target(instance);
  const BallOutcome sharp = evaluate_ball_instance(head, instance, 1024);
  const Rational y = (sharp.lo + sharp.hi) / 2;  // within 2^-1000 of the output
  const Rational delta = Rational(1, 1000000000000LL);
  // e(q) shifts every F_q(z) alike, so it shifts y by the same amount.
  for (int side : {-1, 1}) {
    RealHead edge = head;
    edge.readout_e.bias[0] += (t + Rational(1, 2) + side * delta) - y;
    Family family{3, 3, {instance}};
    BallOptions options;
    options.precision = 24;
    options.max_precision = 24;
    const BallReport open = evaluate_ball_family(edge, family, options);
    CHECK(open.undecided == 1);
    CHECK(open.failing == 0);
    CHECK_FALSE(open.solves());
    options.max_precision = 4096;
    const BallReport decided = evaluate_ball_family(edge, family, options);
    CHECK(decided.undecided == 0);
    CHECK(decided.final_precision > 24);
    // Below the edge by 1e-12 the instance passes; above it, it fails.
    CHECK(decided.failing == (side > 0 ? 1u : 0u));
    CHECK(decided.passing == (side > 0 ? 0u : 1u));
  }
}

TEST_CASE("ball eval: the report does not depend on the thread count") {
  std::mt19937_64 rng(5);
  const RealHead head = random_head(rng, FeatureMap::Elu1, 3, 3, 2);
  BallOptions one, two;
  one.mode = two.mode = QueryMode::All;
  one.threads = 1;
  two.threads = 2;
  const BallReport a = evaluate_ball_cube(head, 3, one), b = evaluate_ball_cube(head, 3, two);
  CHECK(a.failing == b.failing);
  CHECK(a.passing == b.passing);
  CHECK(a.max_error_hi == b.max_error_hi);
  REQUIRE(a.failures.size() == b.failures.size());
  for (std::size_t i = 0; i < a.failures.size(); ++i)
    CHECK(a.failures[i].instance == b.failures[i].instance);
  REQUIRE(a.worst);
  CHECK(a.worst->instance == b.worst->instance);
}

TEST_CASE("ball eval: bad heads and precisions are refused") {
  std::mt19937_64 rng(1);
  RealHead head = random_head(rng, FeatureMap::Exp, 2, 2, 1);
  head.projection[0].pop_back();
  CHECK_THROWS_AS(validate(head), std::invalid_argument);
  head = random_head(rng, FeatureMap::Elu1, 2, 2, 1);
  BallOptions options;
  options.precision = 1;
  CHECK_THROWS_AS(evaluate_ball_cube(head, 2, options), UsageError);
  options.precision = 128;
  options.max_precision = 64;
  CHECK_THROWS_AS(evaluate_ball_cube(head, 2, options), UsageError);
  CHECK_THROWS_AS(exact_model(head), UsageError);  // elu1 is not rational
  CHECK_THROWS_AS(parse_feature_map("gelu"), UsageError);
}
