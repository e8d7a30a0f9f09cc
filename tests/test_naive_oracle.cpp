// Tests of the naive parametric oracle (tests/oracle/naive_parametric.hpp): hand-computed
// values, a cross-check against the library's evaluate_instance on random models (two
// independent paths), and its exact dual-number derivatives against exact difference quotients.
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "oracle/naive_parametric.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

using namespace kernelrank;
using namespace kernelrank::oracle;

namespace {

Token tok(const char* text) { return parse_token(text); }
Rational q(const char* text) { return parse_rational(text); }

// The worked example of docs/model-format.md §6 (m = 3, r = 2, d = 1):
//   WQ = [[1,-2,0],[0,1,1]], bQ = (1/2, -1)   WK = [[1,1,1],[-1,0,0]], bK = (0, 2)
//   V = [[1,2,3]], v0 = 0   C = [[1,0,-1]], c0 = 1   E = [0,0,1], e0 = 1/3
ParametricMaps hand_maps() {
  ParametricMaps p;
  p.query = {{{1, -2, 0}, {0, 1, 1}}, {q("1/2"), -1}};
  p.key = {{{1, 1, 1}, {-1, 0, 0}}, {0, 2}};
  p.value = {{{1, 2, 3}}, {0}};
  p.readout_c = {{{1, 0, -1}}, {1}};
  p.readout_e = {{{0, 0, 1}}, {q("1/3")}};
  return p;
}

// Uniform draw from {0, ..., n-1} by rejection (std::uniform_int_distribution is not the same
// on every standard library, so the random tests would not be reproducible).
std::uint64_t draw(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t limit = std::mt19937_64::max() - std::mt19937_64::max() % n;
  std::uint64_t value = rng();
  while (value >= limit) value = rng();
  return value % n;
}

int draw_int(std::mt19937_64& rng, int lo, int hi) {  // uniform in lo..hi
  return lo + static_cast<int>(draw(rng, static_cast<std::uint64_t>(hi - lo + 1)));
}

// 0 with probability 1/3 (so that some features and denominators vanish), otherwise a/b with
// a in -3..3 and b in 1..3.
Rational small_rational(std::mt19937_64& rng) {
  if (draw(rng, 3) == 0) return Rational(0);
  return Rational(draw_int(rng, -3, 3)) / draw_int(rng, 1, 3);
}

AffineMap random_map(std::mt19937_64& rng, int rows, int m) {
  AffineMap map;
  map.weight.assign(static_cast<std::size_t>(rows), RationalVector(static_cast<std::size_t>(m)));
  map.bias.assign(static_cast<std::size_t>(rows), Rational(0));
  for (RationalVector& row : map.weight)
    for (Rational& entry : row) entry = small_rational(rng);
  for (Rational& entry : map.bias) entry = small_rational(rng);
  return map;
}

std::vector<ParametricMaps> random_maps(std::mt19937_64& rng, int m, int r, int d, int slots) {
  std::vector<ParametricMaps> maps(static_cast<std::size_t>(slots));
  for (ParametricMaps& p : maps) {
    p.query = random_map(rng, r, m);
    p.key = random_map(rng, r, m);
    p.value = random_map(rng, d, m);
    p.readout_c = random_map(rng, d, m);
    p.readout_e = random_map(rng, 1, m);
  }
  return maps;
}

Instance random_instance(std::mt19937_64& rng, int m, int n) {
  Instance inst;
  for (int j = 0; j < n; ++j) {
    Token t(m);
    for (int k = 0; k < m; ++k) t.set(k, draw(rng, 2) == 1);
    inst.tokens.push_back(t);
  }
  inst.query = draw_int(rng, 0, n - 1);
  return inst;
}

// A random model (slots 1 or n) and instance with a defined output.
struct Case {
  std::vector<ParametricMaps> maps;
  Instance inst;
};

Case random_defined_case(std::mt19937_64& rng, FeatureMap act, bool position_dependent, int n) {
  for (;;) {
    const int m = draw_int(rng, 2, 5);
    Case c{
        random_maps(rng, m, draw_int(rng, 1, 3), draw_int(rng, 0, 2), position_dependent ? n : 1),
        random_instance(rng, m, n)};
    if (naive_evaluate(c.maps, act, c.inst).output) return c;
  }
}

// Every pre-activation WQ x + bQ and WK x + bK, over all slots and all tokens of the instance,
// computed here by hand.
std::vector<Rational> preactivations(const std::vector<ParametricMaps>& maps,
                                     const Instance& inst) {
  std::vector<Rational> out;
  for (const ParametricMaps& p : maps)
    for (const AffineMap* map : {&p.query, &p.key})
      for (const Token& x : inst.tokens)
        for (std::size_t i = 0; i < map->weight.size(); ++i) {
          Rational t = map->bias[i];
          for (int k = 0; k < x.width(); ++k)
            if (x.get(k)) t += map->weight[i][static_cast<std::size_t>(k)];
          out.push_back(t);
        }
  return out;
}

Rational output_at(const std::vector<Rational>& flat, const ParametricShape& shape, FeatureMap act,
                   const Instance& inst) {
  const NaiveOutcome outcome = naive_evaluate(maps_from_flat(flat, shape), act, inst);
  REQUIRE(outcome.output.has_value());
  return *outcome.output;
}

// Checks every partial derivative against the exact symmetric difference quotient at h = 10^-6.
void check_against_quotients(const Case& c, FeatureMap act) {
  const Rational h = Rational(1) / 1000000;
  const ParametricShape shape = shape_of(c.maps);
  const std::vector<Rational> theta = flatten_parameters(c.maps);
  const std::vector<Rational> gradient = naive_output_gradient(c.maps, act, c.inst);
  REQUIRE(gradient.size() == theta.size());
  for (std::size_t k = 0; k < theta.size(); ++k) {
    std::vector<Rational> plus = theta;
    std::vector<Rational> minus = theta;
    plus[k] += h;
    minus[k] -= h;
    const Rational quotient =
        (output_at(plus, shape, act, c.inst) - output_at(minus, shape, act, c.inst)) / (2 * h);
    INFO("parameter " << k << ": derivative " << to_string(gradient[k]) << ", quotient "
                      << to_decimal(quotient, 9));
    CHECK(abs_of(quotient - gradient[k]) < Rational(1) / 1000);
  }
}

}  // namespace

TEST_CASE("oracle: worked example of model-format §6 by hand") {
  const std::vector<ParametricMaps> maps{hand_maps()};
  // WQ 101 + bQ = (3/2, 0) -> phiQ(101) = (3/2, 0); WK 011 + bK = (2, 2) = phiK(011) and
  // WK 101 + bK = (2, 1) = phiK(101). alpha(101, 011) = 3, alpha(101, 101) = 3.
  // v(011) = 5, v(101) = 4, c(101) = 1, e(101) = 4/3: F_101(011) = 19/3, F_101(101) = 16/3.
  // X = (101, 011), query 1: y = (3 * 16/3 + 3 * 19/3) / 6 = 35/6; t = min(2, 1) = 1: fails.
  const Instance first{{tok("101"), tok("011")}, 0};
  NaiveOutcome outcome = naive_evaluate(maps, FeatureMap::Relu, first);
  REQUIRE(outcome.output.has_value());
  CHECK(*outcome.output == q("35/6"));
  CHECK(outcome.target == 1);
  CHECK(outcome.fails);
  // Query 2 (x = 011): phiQ(011) = relu(-3/2, 1) = (0, 1), c(011) = 0, e(011) = 4/3, so
  // y = 4/3 whatever the attention; t = min(1, 2) = 1 and |4/3 - 1| = 1/3 < 1/2.
  outcome = naive_evaluate(maps, FeatureMap::Relu, Instance{{tok("101"), tok("011")}, 1});
  REQUIRE(outcome.output.has_value());
  CHECK(*outcome.output == q("4/3"));
  CHECK(outcome.target == 1);
  CHECK_FALSE(outcome.fails);
  // Position dependent, with the key at position 1 switched off (WK = 0, bK = 0 there): only
  // key 011 at position 2 is attended, so y = F_101(011) = 19/3 exactly.
  ParametricMaps off = hand_maps();
  off.key = {{{0, 0, 0}, {0, 0, 0}}, {0, 0}};
  outcome = naive_evaluate({off, hand_maps()}, FeatureMap::Relu, first);
  REQUIRE(outcome.output.has_value());
  CHECK(*outcome.output == q("19/3"));
  // Both keys switched off: zero denominator, undefined, a failure.
  outcome = naive_evaluate({off, off}, FeatureMap::Relu, first);
  CHECK_FALSE(outcome.output.has_value());
  CHECK(outcome.fails);
  CHECK(outcome.target == 1);
  CHECK_THROWS_AS(naive_output_gradient({off, off}, FeatureMap::Relu, first), std::domain_error);
  CHECK_THROWS_AS(naive_loss_gradient({off, off}, FeatureMap::Relu, {first}), std::domain_error);
  // Two slots for an instance of length 3, and a token of the wrong width.
  CHECK_THROWS_AS(naive_evaluate({off, off}, FeatureMap::Relu,
                                 Instance{{tok("101"), tok("011"), tok("000")}, 0}),
                  std::invalid_argument);
  CHECK_THROWS_AS(naive_evaluate(maps, FeatureMap::Relu, Instance{{tok("10"), tok("01")}, 0}),
                  std::invalid_argument);
}

TEST_CASE("oracle: derivatives of the worked example by hand") {
  const std::vector<ParametricMaps> maps{hand_maps()};
  const Instance inst{{tok("101"), tok("011")}, 0};
  const ParametricShape shape = shape_of(maps);
  CHECK(shape == ParametricShape{3, 2, 1, 1});
  CHECK(parameter_count(shape) == 28);  // (2r + 2d + 1)(m + 1)
  const std::vector<Rational> g = naive_output_gradient(maps, FeatureMap::Relu, inst);
  REQUIRE(g.size() == 28);
  auto at = [&](MapRole role, int row, int col) {
    return g[parameter_index(shape, 0, role, row, col)];
  };
  // Order: WQ (0..5), bQ (6, 7), WK (8..13), bK (14, 15), V (16..18), v0 (19), C (20..22),
  // c0 (23), E (24..26), e0 (27).
  CHECK(parameter_index(shape, 0, MapRole::Query, 1, 3) == 7);
  CHECK(parameter_index(shape, 0, MapRole::Key, 1, 0) == 11);
  CHECK(parameter_index(shape, 0, MapRole::Value, 0, 3) == 19);
  CHECK(parameter_index(shape, 0, MapRole::ReadoutE, 0, 3) == 27);
  // dy/de0 = 1 and dy/dE = x = 101.
  CHECK(at(MapRole::ReadoutE, 0, 3) == 1);
  CHECK(at(MapRole::ReadoutE, 0, 0) == 1);
  CHECK(at(MapRole::ReadoutE, 0, 1) == 0);
  CHECK(at(MapRole::ReadoutE, 0, 2) == 1);
  // dy/dc0 = o = (3*4 + 3*5)/6 = 9/2 and dy/dC = x * 9/2.
  CHECK(at(MapRole::ReadoutC, 0, 3) == q("9/2"));
  CHECK(at(MapRole::ReadoutC, 0, 0) == q("9/2"));
  CHECK(at(MapRole::ReadoutC, 0, 1) == 0);
  // dy/dv0 = c(101) = 1; dy/dV = c * (3 * 101 + 3 * 011) / 6 = (1/2, 1/2, 1).
  CHECK(at(MapRole::Value, 0, 3) == 1);
  CHECK(at(MapRole::Value, 0, 0) == q("1/2"));
  CHECK(at(MapRole::Value, 0, 1) == q("1/2"));
  CHECK(at(MapRole::Value, 0, 2) == 1);
  // WK[1][2] (feature 1, coordinate 2) raises alpha(101, 011) at rate phiQ_1 = 3/2:
  // d/dh (27 + 15h/2) / (6 + 3h/2) at 0 = (45 - 81/2) / 36 = 1/8.
  CHECK(at(MapRole::Key, 0, 1) == q("1/8"));
  // Feature 2 of the query is 0 (phiQ(101)_2 = 0), so nothing of key feature 2 matters.
  CHECK(at(MapRole::Key, 1, 0) == 0);
  CHECK(at(MapRole::Key, 1, 3) == 0);
  // Kink: WQ_2 101 + bQ_2 = 0 exactly. relu'(0) = 0, so dy/dbQ_2 = 0 (the left derivative),
  // while the right quotient is (27 + 14h)/(6 + 3h) - 27/6 over h = 1/(12 + 6h).
  CHECK(at(MapRole::Query, 1, 3) == 0);
  const Rational h = Rational(1) / 1000000;
  std::vector<Rational> theta = flatten_parameters(maps);
  const Rational y0 = *naive_evaluate(maps, FeatureMap::Relu, inst).output;
  theta[7] += h;
  const Rational right =
      (*naive_evaluate(maps_from_flat(theta, shape), FeatureMap::Relu, inst).output - y0) / h;
  CHECK(right == 1 / (12 + 6 * h));
  theta[7] -= 2 * h;
  const Rational left =
      (*naive_evaluate(maps_from_flat(theta, shape), FeatureMap::Relu, inst).output - y0) / h;
  CHECK(left == 0);
}

TEST_CASE("oracle: flatten and maps_from_flat are inverse") {
  std::mt19937_64 rng(7);
  const std::vector<ParametricMaps> maps = random_maps(rng, 4, 2, 3, 3);
  const ParametricShape shape = shape_of(maps);
  CHECK(shape == ParametricShape{4, 2, 3, 3});
  const std::vector<Rational> flat = flatten_parameters(maps);
  REQUIRE(flat.size() == parameter_count(shape));
  CHECK(flat.size() == 3 * (2 * 2 + 2 * 3 + 1) * 5);
  CHECK(flatten_parameters(maps_from_flat(flat, shape)) == flat);
  // Spot checks of the order: slot 2, value row 1, coordinate 3; slot 1, readout_c bias 2.
  CHECK(flat[parameter_index(shape, 2, MapRole::Value, 1, 3)] == maps[2].value.weight[1][3]);
  CHECK(flat[parameter_index(shape, 1, MapRole::ReadoutC, 2, 4)] == maps[1].readout_c.bias[2]);
  CHECK(flat[parameter_index(shape, 0, MapRole::Query, 0, 0)] == maps[0].query.weight[0][0]);
  CHECK(flat.back() == maps[2].readout_e.bias[0]);
  std::vector<Rational> short_flat = flat;
  short_flat.pop_back();
  CHECK_THROWS_AS(maps_from_flat(short_flat, shape), std::invalid_argument);
  std::vector<ParametricMaps> broken = maps;
  broken[1].key.bias.pop_back();
  CHECK_THROWS_AS(shape_of(broken), std::invalid_argument);
}

TEST_CASE("oracle: agrees with evaluate_instance on random parametric models") {
  std::mt19937_64 rng(20240611);
  const int n = 3;
  int undefined = 0;
  int defined = 0;
  int compared = 0;
  for (int model_index = 0; model_index < 50; ++model_index) {
    const FeatureMap act = model_index % 2 == 0 ? FeatureMap::Relu : FeatureMap::Square;
    const bool position_dependent = (model_index / 2) % 2 == 1;
    const int m = draw_int(rng, 2, 5);
    const std::vector<ParametricMaps> maps =
        random_maps(rng, m, draw_int(rng, 1, 3), draw_int(rng, 0, 2), position_dependent ? n : 1);
    const ParametricModel model(m, act, maps, position_dependent);
    for (int trial = 0; trial < 4; ++trial) {
      const Instance inst = random_instance(rng, m, n);
      const NaiveOutcome naive = naive_evaluate(maps, act, inst);
      const InstanceOutcome library = evaluate_instance(model, inst);
      INFO("model " << model_index << ", instance " << to_string(inst));
      CHECK(naive.target == library.target);
      CHECK(naive.output.has_value() == library.output.has_value());
      if (naive.output && library.output) CHECK(*naive.output == *library.output);
      CHECK(naive.fails == library.fails());
      ++(naive.output ? defined : undefined);
      ++compared;
    }
  }
  CHECK(compared == 200);
  // Both kinds of outcome are really compared.
  CHECK(undefined >= 10);
  CHECK(defined >= 100);
}

TEST_CASE("oracle: square-model derivatives match exact difference quotients") {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 6; ++round) {
    const Case c = random_defined_case(rng, FeatureMap::Square, round % 2 == 1, 3);
    INFO("round " << round << ", instance " << to_string(c.inst));
    check_against_quotients(c, FeatureMap::Square);
  }
}

TEST_CASE("oracle: relu-model derivatives match exact difference quotients away from kinks") {
  std::mt19937_64 rng(1234);
  const Rational h = Rational(1) / 1000000;
  for (int round = 0; round < 6; ++round) {
    Case c = random_defined_case(rng, FeatureMap::Relu, round % 2 == 1, 3);
    // Redraw until no pre-activation is within h of 0 (a perturbation of one parameter by h
    // moves each pre-activation by at most h, so no feature crosses a kink).
    auto near_kink = [&](const Case& candidate) {
      for (const Rational& t : preactivations(candidate.maps, candidate.inst))
        if (abs_of(t) <= h) return true;
      return false;
    };
    while (near_kink(c)) c = random_defined_case(rng, FeatureMap::Relu, round % 2 == 1, 3);
    REQUIRE_FALSE(near_kink(c));
    INFO("round " << round << ", instance " << to_string(c.inst));
    check_against_quotients(c, FeatureMap::Relu);
  }
}

TEST_CASE("oracle: loss gradient is the mean of 2 (y - t) dy/dtheta") {
  std::mt19937_64 rng(555);
  for (int round = 0; round < 4; ++round) {
    const FeatureMap act = round % 2 == 0 ? FeatureMap::Square : FeatureMap::Relu;
    const bool position_dependent = round >= 2;
    const Case first = random_defined_case(rng, act, position_dependent, 3);
    // A family of 5 instances on which this model is defined.
    std::vector<Instance> family{first.inst};
    while (family.size() < 5) {
      const Instance inst = random_instance(rng, first.inst.width(), 3);
      if (naive_evaluate(first.maps, act, inst).output) family.push_back(inst);
    }
    const std::vector<Rational> gradient = naive_loss_gradient(first.maps, act, family);
    std::vector<Rational> expected(gradient.size(), Rational(0));
    Rational expected_loss = 0;
    for (const Instance& inst : family) {
      const NaiveOutcome outcome = naive_evaluate(first.maps, act, inst);
      const Rational residual = *outcome.output - outcome.target;
      expected_loss += residual * residual / 5;
      const std::vector<Rational> dy = naive_output_gradient(first.maps, act, inst);
      REQUIRE(dy.size() == expected.size());
      for (std::size_t k = 0; k < dy.size(); ++k) expected[k] += 2 * residual * dy[k] / 5;
    }
    CHECK(naive_loss(first.maps, act, family) == expected_loss);
    CHECK(gradient == expected);
  }
  CHECK_THROWS_AS(naive_loss_gradient({hand_maps()}, FeatureMap::Relu, {}), std::invalid_argument);
}
