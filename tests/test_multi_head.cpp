// Multi-head models (models/multi_head.hpp, eval/multi_head_eval.hpp, models/multi_head_io.hpp).
//
// The oracle below computes y = sum_h y_h straight from the raw tables and feature arrays
// written in this file, with its own enumeration of the sequences, its own targets and its
// own rank routine (plain Gaussian elimination), never through the models or evaluators.
#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/eval/multi_head_eval.hpp"
#include "kernelrank/models/builtin_models.hpp"
#include "kernelrank/models/head_opener.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/multi_head_io.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>

using namespace kernelrank;

namespace {

// A multi-head text through the opener, which recognises its form (text or JSON).
MultiHeadModel parse_multi(const std::string& name, const std::string& text) {
  OpenedModel opened = open_model(model_file_from_bytes(name, text));
  REQUIRE(opened.multi_head.has_value());
  return std::move(*opened.multi_head);
}

constexpr int kM = 2;  // tokens 0..3, token i = Token::from_index(2, i)
constexpr int kU = 4;
constexpr int kN = 3;

// A head as raw functions of token indices and 0-based positions.
struct RawHead {
  std::function<Rational(int q, int z, int qp, int kp)> kernel, readout;
};

// Head 1, tabular: A = 1 + q z (rank 2, positive), F = (q - z)/3.
RawHead raw_tabular() {
  return {[](int q, int z, int, int) { return Rational(1 + q * z); },
          [](int q, int z, int, int) { return Rational(q - z) / 3; }};
}
// Head 2, features r = 1, d = 1: phiQ = q + 1, phiK = (z mod 3 + 1)/2, v = z, c = 1/(q+2),
// e = -q/4.
Rational phi_q2(int q) { return Rational(q + 1); }
Rational phi_k2(int z) { return Rational(z % 3 + 1) / 2; }
Rational value2(int z) { return Rational(z); }
Rational c2(int q) { return Rational(1) / (q + 2); }
Rational e2(int q) { return Rational(-q) / 4; }
RawHead raw_features() {
  return {[](int q, int z, int, int) { return phi_q2(q) * phi_k2(z); },
          [](int q, int z, int, int) { return c2(q) * value2(z) + e2(q); }};
}
// Head 3, signed: A = 2 except A[1][2] = -1 and A[2][1] = -5 (rank 3); F = <q, z>.
Rational signed_kernel(int q, int z) {
  if (q == 1 && z == 2) return -1;
  if (q == 2 && z == 1) return -5;
  return 2;
}
RawHead raw_signed() {
  return {[](int q, int z, int, int) { return signed_kernel(q, z); },
          [](int q, int z, int, int) { return Rational(std::popcount(unsigned(q & z))); }};
}
// Head 4, position dependent (n = 3): A = 1 + i + 2j + [q == z], F = (j - i)/2 + <q, z>.
RawHead raw_positional() {
  return {[](int q, int z, int i, int j) { return Rational(1 + i + 2 * j + (q == z ? 1 : 0)); },
          [](int q, int z, int i, int j) {
            return Rational(j - i) / 2 + std::popcount(unsigned(q & z));
          }};
}

std::vector<Token> tokens() {
  std::vector<Token> t;
  for (int i = 0; i < kU; ++i) t.push_back(Token::from_index(kM, static_cast<std::uint64_t>(i)));
  return t;
}

std::shared_ptr<const Model> tabular_of(const RawHead& raw, int positions = 0) {
  const int blocks = positions > 0 ? positions : 1;
  std::vector<std::vector<RationalMatrix>> kernels(blocks), readouts(blocks);
  for (int i = 0; i < blocks; ++i)
    for (int j = 0; j < blocks; ++j) {
      RationalMatrix a(kU, RationalVector(kU)), f(kU, RationalVector(kU));
      for (int q = 0; q < kU; ++q)
        for (int z = 0; z < kU; ++z) {
          a[q][z] = raw.kernel(q, z, i, j);
          f[q][z] = raw.readout(q, z, i, j);
        }
      kernels[i].push_back(a);
      readouts[i].push_back(f);
    }
  if (positions == 0)
    return std::make_shared<TabularModel>(kM, tokens(), kernels[0][0], readouts[0][0]);
  return std::make_shared<TabularModel>(kM, tokens(), positions, kernels, readouts);
}

std::shared_ptr<const Model> features_head() {
  std::vector<TokenFeatures> features;
  for (int t = 0; t < kU; ++t) {
    TokenFeatures f;
    f.phi_q = {{phi_q2(t)}};
    f.phi_k = {{phi_k2(t)}};
    f.value = {{value2(t)}};
    f.readout_c = {{c2(t)}};
    f.readout_e = {e2(t)};
    features.push_back(f);
  }
  return std::make_shared<FeatureModel>(kM, 1, 1, 0, tokens(), features);
}

// The oracle: per instance, nullopt when some head's denominator is 0.
struct OracleOutcome {
  std::optional<Rational> y;
  int target = 0;
  bool negative = false;
};
OracleOutcome oracle(const std::vector<RawHead>& heads, const std::vector<int>& x, int i) {
  OracleOutcome out;
  out.target = 1 << 30;
  for (int z : x) out.target = std::min(out.target, std::popcount(unsigned(x[i] & z)));
  Rational y = 0;
  bool defined = true;
  for (const RawHead& head : heads) {
    Rational d = 0, p = 0;
    for (int j = 0; j < static_cast<int>(x.size()); ++j) {
      d += head.kernel(x[i], x[j], i, j);
      p += head.kernel(x[i], x[j], i, j) * head.readout(x[i], x[j], i, j);
    }
    if (d < 0) out.negative = true;
    if (d == 0) defined = false;
    if (d != 0) y += p / d;
  }
  if (defined) out.y = y;
  return out;
}

Instance instance_of(const std::vector<int>& x, int query) {
  Instance instance;
  for (int t : x) instance.tokens.push_back(Token::from_index(kM, static_cast<std::uint64_t>(t)));
  instance.query = query;
  return instance;
}

// Every instance of T(2,3) in mode all, in the documented enumeration order (docs/cli.md, the
// single-head order): query position, then the query's token, then the other positions'
// tokens, the earlier position slower; checks each outcome and the whole report against the
// oracle.
void check_against_oracle(const MultiHeadModel& model, const std::vector<RawHead>& raw) {
  EvalOptions options;
  options.mode = QueryMode::All;
  options.max_failures = 5;
  const EvalReport report = evaluate_multi_head_cube(model, kM, kN, options);
  long instances = 0, failing = 0, undefined = 0, negative_solved = 0;
  std::optional<Rational> max_error;
  std::vector<Instance> failures;
  std::optional<Instance> first_negative;
  for (int i = 0; i < kN; ++i)
    for (int a = 0; a < kU; ++a)
      for (int b = 0; b < kU; ++b)
        for (int c = 0; c < kU; ++c) {
          // a at the query position i, then b and c at the other two positions in order.
          std::vector<int> x(kN);
          x[static_cast<std::size_t>(i)] = a;
          x[i == 0 ? 1 : 0] = b;
          x[i == 2 ? 1 : 2] = c;
          const OracleOutcome want = oracle(raw, x, i);
          const InstanceOutcome got = evaluate_multi_head_instance(model, instance_of(x, i));
          ++instances;
          CHECK(got.target == want.target);
          CHECK(got.negative_denominator == want.negative);
          REQUIRE(got.output.has_value() == want.y.has_value());
          const bool fails = !want.y || abs_of(*want.y - want.target) * 2 >= 1;
          if (want.y) {
            CHECK(*got.output == *want.y);
            const Rational error = abs_of(*want.y - want.target);
            if (!max_error || error > *max_error) max_error = error;
          } else {
            ++undefined;
          }
          if (fails) {
            ++failing;
            if (failures.size() < 5) failures.push_back(instance_of(x, i));
          } else if (want.negative && ++negative_solved == 1) {
            first_negative = instance_of(x, i);
          }
        }
  CHECK(report.method == "brute force");
  CHECK(report.instances == instances);
  CHECK(report.failing == failing);
  CHECK(report.undefined == undefined);
  CHECK(report.negative_solved == negative_solved);
  CHECK(report.max_error == max_error);
  if (max_error) CHECK(*report.worst->error == *max_error);
  REQUIRE(report.failures.size() == failures.size());
  for (std::size_t k = 0; k < failures.size(); ++k)
    CHECK(report.failures[k].instance == failures[k]);
  REQUIRE(report.negative_example.has_value() == first_negative.has_value());
  if (first_negative) CHECK(report.negative_example->instance == *first_negative);
}

// Rank by plain Gaussian elimination over the rationals (independent of exact_rank).
std::size_t naive_rank(RationalMatrix a) {
  std::size_t rank = 0;
  const std::size_t cols = a.empty() ? 0 : a[0].size();
  for (std::size_t c = 0; c < cols && rank < a.size(); ++c) {
    std::size_t pivot = rank;
    while (pivot < a.size() && a[pivot][c] == 0) ++pivot;
    if (pivot == a.size()) continue;
    std::swap(a[pivot], a[rank]);
    for (std::size_t r = 0; r < a.size(); ++r)
      if (r != rank && a[r][c] != 0) {
        const Rational f = a[r][c] / a[rank][c];
        for (std::size_t k = 0; k < cols; ++k) a[r][k] -= f * a[rank][k];
      }
    ++rank;
  }
  return rank;
}

// Rows (i, q), columns (j, z) of a raw head's kernel over `positions` positions.
std::size_t raw_rank(const RawHead& raw, int positions) {
  RationalMatrix a;
  for (int i = 0; i < positions; ++i)
    for (int q = 0; q < kU; ++q) {
      RationalVector row;
      for (int j = 0; j < positions; ++j)
        for (int z = 0; z < kU; ++z) row.push_back(raw.kernel(q, z, i, j));
      a.push_back(row);
    }
  return naive_rank(a);
}

std::size_t error_line(const std::string& text) {
  try {
    parse_multi("f.model", text);
  } catch (const InputError& e) {
    return e.line();
  }
  return 0;
}
std::string error_text(const std::string& text) {
  try {
    parse_multi("f.model", text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const char* const kTwoHeads =
    "# two heads\n"                          // 1
    "kernelrank-multihead 1 m=2 heads=2\n"   // 2
    "head 1\n"                               // 3
    "kernelrank-model 1 kind=tabular m=2\n"  // 4
    "tokens 1\n"                             // 5
    "01\n"                                   // 6
    "kernel\n"                               // 7
    "1\n"                                    // 8
    "readout\n"                              // 9
    "0\n"                                    // 10
    "head 2\n"                               // 11
    "kernelrank-model 1 kind=tabular m=2\n"  // 12
    "tokens 1\n"                             // 13
    "01\n"                                   // 14
    "kernel\n"                               // 15
    "2\n"                                    // 16
    "readout\n"                              // 17
    "1/3\n";                                 // 18

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("multi-head: two heads of different forms agree with the oracle on every instance") {
  const MultiHeadModel model({tabular_of(raw_tabular()), features_head()});
  check_against_oracle(model, {raw_tabular(), raw_features()});
}

TEST_CASE("multi-head: a signed head and a position-dependent head agree with the oracle") {
  const MultiHeadModel model(
      {tabular_of(raw_tabular()), tabular_of(raw_signed()), tabular_of(raw_positional(), kN)});
  check_against_oracle(model, {raw_tabular(), raw_signed(), raw_positional()});
  // The signed head makes some instances undefined and some denominators negative.
  EvalOptions options;
  options.mode = QueryMode::All;
  const EvalReport report = evaluate_multi_head_cube(model, kM, kN, options);
  CHECK(report.undefined > 0);
  // q = 01 (index 1) with keys 10, 10 (index 2): 2 - 1 - 1 = 0 in the signed head.
  const InstanceOutcome zero = evaluate_multi_head_instance(model, instance_of({1, 2, 2}, 0));
  CHECK_FALSE(zero.output.has_value());
  CHECK(zero.fails());
}

TEST_CASE("multi-head: family, token set and cube give the same outcomes") {
  const MultiHeadModel model({tabular_of(raw_signed()), features_head()});
  Family family{kM, kN, {}};
  for (int a = 0; a < kU; ++a)
    for (int b = 0; b < kU; ++b) family.instances.push_back(instance_of({a, b, (a + b) % kU}, 1));
  EvalOptions options;
  options.max_failures = 100;
  const EvalReport on_family = evaluate_multi_head_family(model, family, options);
  long failing = 0;
  for (const Instance& instance : family.instances) {
    std::vector<int> x;
    for (const Token& t : instance.tokens) x.push_back(static_cast<int>(t.to_index()));
    const OracleOutcome want = oracle({raw_signed(), raw_features()}, x, instance.query);
    if (!want.y || abs_of(*want.y - want.target) * 2 >= 1) ++failing;
  }
  CHECK(on_family.instances == 16);
  CHECK(on_family.failing == failing);
  options.mode = QueryMode::Last;
  const EvalReport on_set = evaluate_multi_head_token_set(model, tokens(), kN, options);
  const EvalReport on_cube = evaluate_multi_head_cube(model, kM, kN, options);
  CHECK(on_set.instances == 64);
  CHECK(on_set.failing == on_cube.failing);
  CHECK(on_set.max_error == on_cube.max_error);
  CHECK(on_set.method == "token set");
  // A head that does not define a token: ModelDomainError, as for one head.
  const MultiHeadModel partial({tabular_of(raw_tabular()), features_head()});
  std::vector<Token> wider = tokens();
  const MultiHeadModel narrow({std::make_shared<TabularModel>(
      kM, std::vector<Token>{tokens()[0], tokens()[1]}, RationalMatrix{{1, 1}, {1, 1}},
      RationalMatrix{{0, 0}, {0, 0}})});
  CHECK_THROWS_AS(evaluate_multi_head_token_set(narrow, wider, 2, options), ModelDomainError);
  CHECK_THROWS_AS(evaluate_multi_head_cube(narrow, kM, 2, options), UsageError);
  options.instance_limit = 10;
  CHECK_THROWS_AS(evaluate_multi_head_cube(partial, kM, kN, options), ResourceError);
}

TEST_CASE("multi-head: rank1-mean plus a zero-readout head solves exactly when rank1-mean does") {
  for (int n : {2, 3}) {
    CAPTURE(n);
    auto mean = std::shared_ptr<const Model>(
        make_builtin_model("rank1-mean", 2, {{"n", std::to_string(n)}}));
    RawHead zero{[](int, int, int, int) { return Rational(1); },
                 [](int, int, int, int) { return Rational(0); }};
    const MultiHeadModel model({mean, tabular_of(zero)});
    EvalOptions options;
    options.mode = QueryMode::All;
    const EvalReport multi = evaluate_multi_head_cube(model, 2, n, options);
    const EvalReport single = evaluate_cube(*mean, 2, n, options);
    CHECK(multi.solves() == single.solves());
    CHECK(multi.failing == single.failing);
    CHECK(multi.max_error == single.max_error);
    // theory.md: rank1-mean is exact at n = 2 and fails at n = 3 (1/2 on (01, 00, 01)).
    CHECK(multi.solves() == (n == 2));
    const std::vector<HeadFeatures> features = model.head_features();
    REQUIRE(features.size() == 2);
    CHECK(features[0].count == 1);
    CHECK(features[0].declared);
    CHECK(features[1].count == 1);  // the all-ones table has rank 1
    CHECK_FALSE(features[1].declared);
    CHECK(features_text(features) == "1 + 1 = 2");
  }
}

TEST_CASE("multi-head: the rank report") {
  const MultiHeadModel model({tabular_of(raw_tabular()), features_head(), tabular_of(raw_signed()),
                              tabular_of(raw_positional(), kN)});
  const std::vector<HeadFeatures> f = model.head_features();
  REQUIRE(f.size() == 4);
  CHECK(f[0].count == naive_rank([] {
          RationalMatrix a(kU, RationalVector(kU));
          for (int q = 0; q < kU; ++q)
            for (int z = 0; z < kU; ++z) a[q][z] = raw_tabular().kernel(q, z, 0, 0);
          return a;
        }()));
  CHECK(f[0].count == 2);
  CHECK(f[1].count == 1);
  CHECK(f[1].declared);
  CHECK(f[2].count == 3);
  CHECK(f[3].count == raw_rank(raw_positional(), kN));
  CHECK(total_features(f) == 2 + 1 + 3 + raw_rank(raw_positional(), kN));
  CHECK(model.head_count() == 4);
  CHECK(model.width() == 2);
  CHECK(model.position_dependent());
  CHECK(model.classify()[2].model_class != ModelClass::NonnegativeKernel);
  CHECK(model.classify()[0].model_class == ModelClass::NonnegativeKernel);
  CHECK_THROWS_AS(MultiHeadModel({}), std::invalid_argument);
  const auto wide = std::shared_ptr<const Model>(make_builtin_model("rank1-mean", 3, {{"n", "3"}}));
  CHECK_THROWS_AS(MultiHeadModel({tabular_of(raw_tabular()), wide}), std::invalid_argument);
}

TEST_CASE("multi-head: text round trip") {
  const MultiHeadModel model(
      {tabular_of(raw_tabular()), features_head(), tabular_of(raw_positional(), kN)});
  const std::string text = multi_head_text(model);
  CHECK(is_multi_head_contents(text));
  const MultiHeadModel back = parse_multi("round.model", text);
  REQUIRE(back.head_count() == 3);
  CHECK(multi_head_text(back) == text);
  CHECK(back.head(1).feature_count() == 1);
  for (int a = 0; a < kU; ++a)
    for (int b = 0; b < kU; ++b)
      for (int c = 0; c < kU; ++c)
        for (int i = 0; i < kN; ++i) {
          const OracleOutcome want =
              oracle({raw_tabular(), raw_features(), raw_positional()}, {a, b, c}, i);
          const InstanceOutcome got = evaluate_multi_head_instance(back, instance_of({a, b, c}, i));
          REQUIRE(got.output.has_value() == want.y.has_value());
          if (want.y) CHECK(*got.output == *want.y);
        }
  // Through a file, and the opener's recognition.
  const std::string path = "test_multi_head_round.model";
  std::ofstream(path) << text;
  CHECK(read_model_file(path).kind == ModelFileKind::MultiHead);
  CHECK(open_model(path).multi_head->head_count() == 3);
  std::ofstream(path) << tabular_model_to_text(
      dynamic_cast<const TabularModel&>(*tabular_of(raw_tabular())));
  CHECK(read_model_file(path).kind == ModelFileKind::Text);
  std::remove(path.c_str());
  // A built-in head has no writer.
  const MultiHeadModel builtin(
      {std::shared_ptr<const Model>(make_builtin_model("rank1-mean", 2, {{"n", "3"}}))});
  CHECK_THROWS_AS(multi_head_text(builtin), UsageError);
}

TEST_CASE("multi-head: malformed text files name the real line") {
  const MultiHeadModel ok = parse_multi("f.model", kTwoHeads);
  CHECK(ok.head_count() == 2);
  // (1,1): y = 0 + 1/3.
  const InstanceOutcome o = evaluate_multi_head_instance(ok, [] {
    Instance i;
    i.tokens = {parse_token("01"), parse_token("01")};
    return i;
  }());
  CHECK(*o.output == Rational(1) / 3);
  // A bad number inside head 2, at its real line.
  const std::string bad = replace(kTwoHeads, "2\nreadout\n1/3", "1/0\nreadout\n1/3");
  CHECK(error_line(bad) == 16);
  CHECK(error_text(bad).find("f.model:16: error: head 2:") != std::string::npos);
  // Wrong head count: too few sections (reported at the header) or one too many.
  CHECK(error_line(replace(kTwoHeads, "heads=2", "heads=3")) == 2);
  CHECK(error_text(replace(kTwoHeads, "heads=2", "heads=3")).find("wrong head count") !=
        std::string::npos);
  CHECK(error_line(replace(kTwoHeads, "heads=2", "heads=1")) == 11);
  // Heads out of order.
  CHECK(error_line(replace(kTwoHeads, "head 2\n", "head 3\n")) == 11);
  CHECK(error_text(replace(kTwoHeads, "head 2\n", "head 3\n")).find("out of order") !=
        std::string::npos);
  // A head whose width differs from m=.
  const std::string wide = replace(replace(kTwoHeads, "kind=tabular m=2\ntokens 1\n01\nkernel\n2",
                                           "kind=tabular m=3\ntokens 1\n011\nkernel\n2"),
                                   "", "");
  CHECK(error_line(wide) == 12);
  CHECK(error_text(wide).find("width mismatch") != std::string::npos);
  // Unknown header key, missing head line, empty head.
  CHECK(error_line(replace(kTwoHeads, "heads=2", "heads=2 extra=1")) == 2);
  CHECK(error_text(replace(kTwoHeads, "heads=2", "heads=2 extra=1")).find("unknown header key") !=
        std::string::npos);
  CHECK(error_line(replace(kTwoHeads, "head 1\n", "")) == 3);
  CHECK(error_text(replace(kTwoHeads, "head 1\n", "")).find("missing 'head 1'") !=
        std::string::npos);
  CHECK(error_line("kernelrank-multihead 1 m=2 heads=1\nhead 1\n") == 2);
  CHECK(error_line("kernelrank-multihead 1 m=2 heads=65\n") == 1);
  CHECK(error_line("kernelrank-multihead 2 m=2 heads=1\n") == 1);
}

TEST_CASE("multi-head: the JSON form") {
  const std::string head1 =
      R"({"format": "kernelrank-model", "version": 1, "m": 2, "tokens": ["01"],
    "kernel": [["1"]], "readout": [[0]]})";
  const std::string head2 =
      R"({"format": "kernelrank-model", "version": 1, "m": 2, "tokens": ["01", "11"],
    "kernel": [["2", 1], [1, 1]],
    "readout": [["1/3", 0], [0, 1]]})";
  const std::string doc =
      "{\"format\": \"kernelrank-multihead\", \"version\": 1, \"m\": 2,\n"
      " \"heads\": [" +
      head1 + ",\n " + head2 + "]}\n";
  CHECK(is_multi_head_contents(doc));
  const MultiHeadModel model = parse_multi("f.json", doc);
  REQUIRE(model.head_count() == 2);
  Instance i;
  i.tokens = {parse_token("01"), parse_token("01")};
  // head 1: 0; head 2: (2*1/3 + 2*1/3) / 4 = 1/3.
  CHECK(*evaluate_multi_head_instance(model, i).output == Rational(1) / 3);
  // A bad number in head 2 names its path and its real line (line 5 of the document).
  const std::string bad = replace(doc, "[\"2\", 1]", "[\"2\", \"1/0\"]");
  CHECK(error_line(bad) == 5);
  CHECK(error_text(bad).find("heads[1].kernel[0][1]") != std::string::npos);
  const std::string mismatch =
      replace(doc, "\"version\": 1, \"m\": 2, \"tokens\": [\"01\", \"11\"]",
              "\"version\": 1, \"m\": 3, \"tokens\": [\"01\", \"11\"]");
  CHECK(error_text(mismatch).find("heads[1].m: width mismatch") != std::string::npos);
  CHECK(error_line(mismatch) == 4);
  CHECK(error_text(replace(doc, "\"m\": 2,\n", "\"m\": 2, \"x\": 1,\n")).find("unknown key") !=
        std::string::npos);
  CHECK_FALSE(is_multi_head_contents(
      R"({"format": "kernelrank-model", "version": 1, "m": 2, "tokens": ["01"], "kernel": [["1"]], "readout": [[0]]})"));
  // A head may declare its class, as a single-head JSON model may (§8): checked on its data.
  CHECK_FALSE(model.head(1).declared_class());
  const std::string declared = replace(doc, "\"tokens\": [\"01\", \"11\"]",
                                       "\"class\": \"NK\", \"tokens\": [\"01\", \"11\"]");
  CHECK(parse_multi("f.json", declared).head(1).declared_class() == ModelClass::NonnegativeKernel);
  const std::string negative = replace(declared, "[\"2\", 1]", "[\"2\", -1]");
  CHECK(error_text(negative).find("heads[1].class: the head declares class NK") !=
        std::string::npos);
  CHECK(error_line(negative) == 4);
  const std::string signed_head = replace(negative, "\"class\": \"NK\"", "\"class\": \"signed\"");
  CHECK(parse_multi("f.json", signed_head).head(1).declared_class() == ModelClass::Signed);
  CHECK(error_text(replace(declared, "\"NK\"", "\"nk?\"")).find("heads[1].class: expected") !=
        std::string::npos);
}
