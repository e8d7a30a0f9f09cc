// Tests of the explicit model forms (tabular, features, parametric), built by
// hand in code. Expected values are worked out independently in the comments,
// not recomputed with the code under test.
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <utility>

using namespace kernelrank;

namespace {

Token tok(const char* text) { return parse_token(text); }
Rational q(const char* text) { return parse_rational(text); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Tokens 00, 01, 11 with kernel[i][j] = i + 2j + 1 and readout[i][j] = i - j.
TabularModel small_table(const char* negative_entry = nullptr) {
  RationalMatrix kernel(3, RationalVector(3));
  RationalMatrix readout(3, RationalVector(3));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      kernel[i][j] = i + 2 * j + 1;
      readout[i][j] = i - j;
    }
  if (negative_entry != nullptr) kernel[1][2] = q(negative_entry);
  return TabularModel(2, {tok("00"), tok("01"), tok("11")}, kernel, readout);
}

}  // namespace

TEST_CASE("model: class names") {
  CHECK(to_string(ModelClass::PositiveFeatures) == "PF");
  CHECK(to_string(ModelClass::NonnegativeKernel) == "NK");
  CHECK(to_string(ModelClass::Signed) == "signed");
}

TEST_CASE("model: tabular lookups, description and domain errors") {
  const TabularModel model = small_table();
  CHECK(model.description() == "tabular model over 3 tokens (m=2)");
  CHECK(model.width() == 2);
  CHECK_FALSE(model.position_dependent());
  CHECK_FALSE(model.feature_count().has_value());
  REQUIRE(model.token_universe() != nullptr);
  CHECK(model.token_universe()->size() == 3);
  // 01 is token 1, 11 is token 2: kernel 1 + 4 + 1 = 6, readout 1 - 2 = -1.
  CHECK(model.kernel(tok("01"), tok("11"), 0, 0) == 6);
  CHECK(model.readout(tok("01"), tok("11"), 0, 0) == -1);
  // Positions are ignored by a position-independent table.
  CHECK(model.kernel(tok("11"), tok("00"), 5, 7) == 3);
  CHECK(model.index_of(tok("11")) == 2);
  CHECK_THROWS_AS(model.kernel(tok("10"), tok("00"), 0, 0), ModelDomainError);
  CHECK_THROWS_AS(model.readout(tok("00"), tok("10"), 0, 0), ModelDomainError);
  CHECK_THROWS_AS(model.kernel(tok("001"), tok("00"), 0, 0), ModelDomainError);

  const Classification c = model.classify();
  CHECK(c.model_class == ModelClass::NonnegativeKernel);
  CHECK(contains(c.detail, "kernel table is entrywise >= 0"));
}

TEST_CASE("model: tabular negative kernel entry is signed and named") {
  const Classification c = small_table("-1/2").classify();
  CHECK(c.model_class == ModelClass::Signed);
  CHECK(c.detail == "alpha(01, 11) = -1/2 < 0");
  // A zero entry is still NK.
  CHECK(small_table("0").classify().model_class == ModelClass::NonnegativeKernel);
}

TEST_CASE("model: position-dependent tabular picks the block of (qpos, kpos)") {
  // Two tokens, n = 2; every entry of block (p, k) is 10 (p+1) + (k+1) for the
  // kernel and -(that) for the readout, so a lookup reveals which block it used.
  const std::vector<Token> tokens{tok("10"), tok("01")};
  std::vector<std::vector<RationalMatrix>> kernels(2, std::vector<RationalMatrix>(2));
  std::vector<std::vector<RationalMatrix>> readouts(2, std::vector<RationalMatrix>(2));
  for (int p = 0; p < 2; ++p)
    for (int k = 0; k < 2; ++k) {
      const int tag = 10 * (p + 1) + (k + 1);
      kernels[p][k] = RationalMatrix(2, RationalVector(2, Rational(tag)));
      readouts[p][k] = RationalMatrix(2, RationalVector(2, Rational(-tag)));
    }
  kernels[1][0][0][1] = q("-3");
  const TabularModel model(2, tokens, 2, kernels, readouts);
  CHECK(model.position_dependent());
  CHECK(model.positions() == 2);
  CHECK(model.description() == "tabular model over 2 tokens (m=2), position-dependent, n=2");
  CHECK(model.kernel(tok("10"), tok("10"), 0, 0) == 11);
  CHECK(model.kernel(tok("10"), tok("10"), 0, 1) == 12);
  CHECK(model.kernel(tok("01"), tok("10"), 1, 1) == 22);
  CHECK(model.readout(tok("01"), tok("01"), 1, 0) == -21);
  CHECK(model.kernel(tok("10"), tok("01"), 1, 0) == -3);
  CHECK_THROWS_AS(model.kernel(tok("10"), tok("01"), 2, 0), ModelDomainError);
  CHECK_THROWS_AS(model.readout(tok("10"), tok("01"), 0, -1), ModelDomainError);

  const Classification c = model.classify();
  CHECK(c.model_class == ModelClass::Signed);
  CHECK(c.detail == "alpha(10, 01) = -3 < 0 at query position 2, key position 1");
}

TEST_CASE("model: tabular constructor rejects inconsistent data") {
  const RationalMatrix two(2, RationalVector(2, Rational(1)));
  CHECK_THROWS_AS(TabularModel(2, {tok("10"), tok("10")}, two, two), std::invalid_argument);
  CHECK_THROWS_AS(TabularModel(2, {tok("10"), tok("011")}, two, two), std::invalid_argument);
  CHECK_THROWS_AS(TabularModel(2, {tok("10")}, two, two), std::invalid_argument);
}

namespace {

TokenFeatures features(RationalVector phi_q, RationalVector phi_k, RationalVector v,
                       RationalVector c, Rational e) {
  TokenFeatures f;
  f.phi_q = {std::move(phi_q)};
  f.phi_k = {std::move(phi_k)};
  f.value = {std::move(v)};
  f.readout_c = {std::move(c)};
  f.readout_e = {std::move(e)};
  return f;
}

}  // namespace

TEST_CASE("model: feature model computes <phiQ, phiK> and <c, v> + e") {
  // m = 2, r = 2, d = 1 over tokens 01 and 10.
  const FeatureModel model(2, 2, 1, 0, {tok("01"), tok("10")},
                           {features({1, 2}, {q("1/2"), 0}, {q("1/3")}, {2}, q("1/2")),
                            features({0, 3}, {3, q("1/2")}, {5}, {q("-1")}, 0)});
  // alpha(01, 10) = 1*3 + 2*(1/2) = 4; alpha(10, 01) = 0*(1/2) + 3*0 = 0;
  // alpha(01, 01) = 1*(1/2) + 2*0 = 1/2.
  CHECK(model.kernel(tok("01"), tok("10"), 0, 0) == 4);
  CHECK(model.kernel(tok("10"), tok("01"), 0, 0) == 0);
  CHECK(model.kernel(tok("01"), tok("01"), 0, 0) == q("1/2"));
  // F_01(01) = 2 * 1/3 + 1/2 = 7/6; F_10(10) = -1 * 5 + 0 = -5.
  CHECK(model.readout(tok("01"), tok("01"), 0, 0) == q("7/6"));
  CHECK(model.readout(tok("10"), tok("10"), 0, 0) == -5);
  CHECK(model.feature_count() == 2);
  CHECK(model.description() == "feature model r=2 d=1 over 2 tokens (m=2)");
  CHECK_THROWS_AS(model.kernel(tok("11"), tok("10"), 0, 0), ModelDomainError);
  CHECK_THROWS_AS(model.kernel(tok("011"), tok("10"), 0, 0), ModelDomainError);

  const Classification c = model.classify();
  CHECK(c.model_class == ModelClass::PositiveFeatures);
  CHECK(contains(c.detail, ">= 0"));
}

TEST_CASE("model: signed features with a nonnegative kernel are NK") {
  // phiQ(a) = (1, -1), phiK(a) = (2, 1): alpha(a, a) = 1.
  // phiQ(b) = (1, 1),  phiK(b) = (1, 0): alpha(a, b) = 1, alpha(b, a) = 3, alpha(b, b) = 1.
  const FeatureModel model(
      3, 2, 0, 0, {tok("100"), tok("011")},
      {features({1, -1}, {2, 1}, {}, {}, 0), features({1, 1}, {1, 0}, {}, {}, 0)});
  CHECK(model.kernel(tok("011"), tok("100"), 0, 0) == 3);
  const Classification c = model.classify();
  CHECK(c.model_class == ModelClass::NonnegativeKernel);
  CHECK(c.detail == "signed features, kernel >= 0 on all 2^2 listed token pairs");
}

TEST_CASE("model: signed features with a negative kernel value are signed") {
  // phiQ(b) = (1, -2), phiK(a) = (1, 1): alpha(b, a) = -1; every other pair is >= 0.
  const FeatureModel model(
      2, 2, 0, 0, {tok("10"), tok("01")},
      {features({1, 0}, {1, 1}, {}, {}, 0), features({1, -2}, {0, 0}, {}, {}, 0)});
  const Classification c = model.classify();
  CHECK(c.model_class == ModelClass::Signed);
  CHECK(c.detail == "alpha(01, 10) = -1 < 0");
}

TEST_CASE("model: position-dependent features use qpos for phiQ/c/e and kpos for phiK/v") {
  // One token, n = 2, r = 1, d = 1. Position p (1-based) stores phiQ = p,
  // phiK = 10 p, v = 100 p, c = 1000 p, e = 7 p.
  TokenFeatures f;
  for (int p = 1; p <= 2; ++p) {
    f.phi_q.push_back({Rational(p)});
    f.phi_k.push_back({Rational(10 * p)});
    f.value.push_back({Rational(100 * p)});
    f.readout_c.push_back({Rational(1000 * p)});
    f.readout_e.push_back(Rational(7 * p));
  }
  const FeatureModel model(1, 1, 1, 2, {tok("1")}, {f});
  CHECK(model.position_dependent());
  // kernel at (qpos 1, kpos 2): 1 * 20 = 20; at (2, 1): 2 * 10 = 20; at (2, 2): 40.
  CHECK(model.kernel(tok("1"), tok("1"), 0, 1) == 20);
  CHECK(model.kernel(tok("1"), tok("1"), 1, 1) == 40);
  // readout at (qpos 2, kpos 1): 2000 * 100 + 14 = 200014.
  CHECK(model.readout(tok("1"), tok("1"), 1, 0) == 200014);
  CHECK_THROWS_AS(model.kernel(tok("1"), tok("1"), 0, 2), ModelDomainError);
  CHECK(model.description() ==
        "feature model r=1 d=1 over 1 tokens (m=1), position-dependent, n=2");

  TokenFeatures signed_f = f;
  signed_f.phi_k[1] = {Rational(-1)};  // alpha at kpos 2 = p * (-1) < 0
  const Classification c = FeatureModel(1, 1, 1, 2, {tok("1")}, {signed_f}).classify();
  CHECK(c.model_class == ModelClass::Signed);
  CHECK(c.detail == "alpha(1, 1) = -1 < 0 at query position 1, key position 2");
}

TEST_CASE("model: AffineMap::apply sums the columns of the set coordinates") {
  const AffineMap map{{{1, 2, 3}, {q("1/2"), 0, -1}}, {10, q("1/3")}};
  const RationalVector y = map.apply(tok("101"));
  REQUIRE(y.size() == 2);
  CHECK(y[0] == 14);         // 1 + 3 + 10
  CHECK(y[1] == q("-1/6"));  // 1/2 - 1 + 1/3
  CHECK(map.apply(tok("000"))[0] == 10);
  CHECK_THROWS_AS(map.apply(tok("10")), ModelDomainError);
}

namespace {

// m = 3, r = 2, d = 1:
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

}  // namespace

TEST_CASE("model: parametric relu features computed by hand") {
  // WQ x + bQ: x = 101 -> (1, 1) + (1/2, -1) = (3/2, 0); x = 011 -> (-2, 2) + bQ = (-3/2, 1).
  // relu: phiQ(101) = (3/2, 0), phiQ(011) = (0, 1).
  // WK x + bK: 101 -> (2, -1) + (0, 2) = (2, 1); 011 -> (2, 0) + (0, 2) = (2, 2).
  const ParametricModel model(3, FeatureMap::Relu, {hand_maps()}, false);
  CHECK(model.kernel(tok("101"), tok("011"), 0, 0) == 3);  // 3/2*2 + 0*2
  CHECK(model.kernel(tok("011"), tok("101"), 0, 0) == 1);  // 0*2 + 1*1
  CHECK(model.kernel(tok("011"), tok("011"), 0, 0) == 2);
  // Asking again (now from the cache) gives the same value.
  CHECK(model.kernel(tok("011"), tok("101"), 0, 0) == 1);
  // v(011) = 5, c(101) = 1 - 1 + 1 = 1, e(101) = 1 + 1/3: F_101(011) = 5 + 4/3 = 19/3.
  CHECK(model.readout(tok("101"), tok("011"), 0, 0) == q("19/3"));
  // c(011) = 0 - 1 + 1 = 0: F_011(101) = e(011) = 4/3.
  CHECK(model.readout(tok("011"), tok("101"), 0, 0) == q("4/3"));
  CHECK(model.feature_count() == 2);
  CHECK(model.description() == "parametric relu model m=3 r=2 d=1");
  CHECK_THROWS_AS(model.kernel(tok("01"), tok("011"), 0, 0), ModelDomainError);
  const Classification c = model.classify();
  CHECK(c.model_class == ModelClass::PositiveFeatures);
  CHECK(c.detail == "relu/square features are >= 0");
}

TEST_CASE("model: parametric square activation") {
  // Squares of the pre-activations above: phiQ(101) = (9/4, 0), phiQ(011) = (9/4, 1),
  // phiK(101) = (4, 1), phiK(011) = (4, 4).
  const ParametricModel model(3, FeatureMap::Square, {hand_maps()}, false);
  CHECK(model.kernel(tok("011"), tok("101"), 0, 0) == 10);  // 9 + 1
  CHECK(model.kernel(tok("101"), tok("011"), 0, 0) == 9);   // 9 + 0
  CHECK(model.kernel(tok("011"), tok("011"), 0, 0) == 13);  // 9 + 4
  CHECK(model.description() == "parametric square model m=3 r=2 d=1");
}

TEST_CASE("model: position-dependent parametric maps") {
  // Position 2 doubles every key bias and adds 1 to e0.
  ParametricMaps second = hand_maps();
  second.key.bias = {0, 4};
  second.readout_e.bias = {q("4/3")};
  const ParametricModel model(3, FeatureMap::Relu, {hand_maps(), second}, true);
  // phiQ(011) at position 1 = (0, 1); phiK(101) at position 2 = (2, -1 + 4) = (2, 3).
  CHECK(model.kernel(tok("011"), tok("101"), 0, 1) == 3);
  CHECK(model.kernel(tok("011"), tok("101"), 0, 0) == 1);
  // e(011) at query position 2 = 1 + 4/3 = 7/3, c(011) = 0.
  CHECK(model.readout(tok("011"), tok("101"), 1, 0) == q("7/3"));
  CHECK_THROWS_AS(model.kernel(tok("011"), tok("101"), 0, 2), ModelDomainError);
  CHECK(model.description() == "parametric relu model m=3 r=2 d=1, position-dependent, n=2");
}

TEST_CASE("model: parametric model at width 4096 without tables") {
  // r = 1, d = 0; WQ = WK = all ones, biases -1: phiQ(x) = relu(|x| - 1).
  const int m = 4096;
  ParametricMaps p;
  p.query = {{RationalVector(m, Rational(1))}, {-1}};
  p.key = p.query;
  p.readout_e = {{RationalVector(m, Rational(0))}, {q("1/2")}};
  const ParametricModel model(m, FeatureMap::Relu, {p}, false);
  Token x(m);
  Token z(m);
  for (int i = 0; i < m; i += 2) x.set(i, true);  // |x| = 2048
  for (int i = 0; i < 5; ++i) z.set(i, true);     // |z| = 5
  CHECK(model.kernel(x, z, 0, 0) == Rational(2047 * 4));
  CHECK(model.readout(x, z, 0, 0) == q("1/2"));
  CHECK(model.kernel(Token(m), z, 0, 0) == 0);
}

TEST_CASE("model: parametric constructor rejects inconsistent maps") {
  ParametricMaps p = hand_maps();
  p.key.bias.pop_back();
  CHECK_THROWS_AS(ParametricModel(3, FeatureMap::Relu, {p}, false), std::invalid_argument);
  CHECK_THROWS_AS(ParametricModel(3, FeatureMap::Relu, {hand_maps(), hand_maps()}, false),
                  std::invalid_argument);
  CHECK_THROWS_AS(ParametricModel(4, FeatureMap::Relu, {hand_maps()}, false),
                  std::invalid_argument);
  // Only the entrywise maps are a parametric model's activation.
  for (FeatureMap map :
       {FeatureMap::Taylor2, FeatureMap::Elu1, FeatureMap::Exp, FeatureMap::Softmax})
    CHECK_THROWS_AS(ParametricModel(3, map, {hand_maps()}, false), std::invalid_argument);
}

// One vocabulary (models/feature_map.hpp): the names docs/model-format.md §12 lists, and the
// subsets each context accepts, written out here from the docs rather than from the code.
TEST_CASE("feature maps: names, and the subsets of exact heads, the trainer and rational kernels") {
  const std::pair<FeatureMap, const char*> names[] = {
      {FeatureMap::Relu, "relu"},         {FeatureMap::Square, "square"},
      {FeatureMap::Identity, "identity"}, {FeatureMap::Taylor2, "taylor2"},
      {FeatureMap::Elu1, "elu1"},         {FeatureMap::Exp, "exp"},
      {FeatureMap::Softmax, "softmax"}};
  for (const auto& [map, name] : names) {
    CAPTURE(name);
    CHECK(to_string(map) == name);
    CHECK(feature_map_named(name) == map);
    CHECK(parse_feature_map(name) == map);
    const std::string n = name;
    // kind=parametric takes relu, square, identity (§5); the trainer relu, square, softmax
    // (docs/training.md); taylor2 is a polynomial, elu1, exp and softmax are not rational.
    const bool entrywise = n == "relu" || n == "square" || n == "identity";
    CHECK(is_entrywise(map) == entrywise);
    CHECK(parse_activation(name).has_value() == entrywise);
    CHECK(is_trainable(map) == (n == "relu" || n == "square" || n == "softmax"));
    CHECK(is_rational(map) == (entrywise || n == "taylor2"));
  }
  CHECK_FALSE(feature_map_named("gelu"));
  CHECK_FALSE(feature_map_named("Relu"));
  CHECK_THROWS_WITH_AS(parse_feature_map("gelu"),
                       "feature map must be relu, square, identity, taylor2, elu1, exp or "
                       "softmax, not 'gelu'",
                       UsageError);
}
