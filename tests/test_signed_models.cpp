// Signed single heads (theory.md §6): the class signed, declared classes in model files,
// identity features, and the count of solved instances with a negative denominator.
//
// The oracle here is written from the definition and reads the raw numbers the test built
// (kernel and readout tables, feature vectors, affine weights), never the model's kernel():
//   y = sum_j alpha(q, x_j) F_q(x_j) / sum_j alpha(q, x_j), undefined when the sum is 0,
//   target min_j popcount(q AND x_j) counted on the 0/1 strings.
#include <doctest/doctest.h>

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/instance.hpp"
#include "kernelrank/eval/eval_partial.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/eval/tabulated_eval.hpp"
#include "kernelrank/models/declared_class.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/model_safetensors.hpp"
#include "kernelrank/models/parametric_writer.hpp"
#include "kernelrank/models/safetensors.hpp"
#include "source_dir.hpp"

#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace kernelrank;

namespace {

// ---- the independent oracle ---------------------------------------------------------

// alpha and F of (query index, key index) into the test's own raw numbers.
struct RawModel {
  std::vector<std::string> tokens;  // index -> 0/1 string
  std::function<Rational(std::size_t, std::size_t)> alpha, readout;
};

struct RawOutcome {
  std::optional<Rational> output;
  Rational denominator;
  int target = 0;
  bool solved = false;
};

int overlap(const std::string& a, const std::string& b) {
  int count = 0;
  for (std::size_t i = 0; i < a.size(); ++i) count += a[i] == '1' && b[i] == '1';
  return count;
}

// Instance given by token indices, query at position 1.
RawOutcome raw_outcome(const RawModel& raw, const std::vector<std::size_t>& seq) {
  RawOutcome out;
  Rational numerator = 0;
  out.target = overlap(raw.tokens[seq[0]], raw.tokens[seq[0]]);
  for (std::size_t j : seq) {
    out.denominator += raw.alpha(seq[0], j);
    numerator += raw.alpha(seq[0], j) * raw.readout(seq[0], j);
    out.target = std::min(out.target, overlap(raw.tokens[seq[0]], raw.tokens[j]));
  }
  if (out.denominator != 0) {
    out.output = numerator / out.denominator;
    const Rational diff = *out.output - out.target;
    out.solved = (diff < 0 ? -diff : diff) * 2 < 1;
  }
  return out;
}

struct RawSweep {
  std::uint64_t instances = 0, failing = 0, undefined = 0, negative = 0;
  std::optional<std::vector<std::size_t>> first_negative;
  std::optional<Rational> first_negative_denominator;
};

Instance instance_of(const RawModel& raw, const std::vector<std::size_t>& seq) {
  Instance instance;
  for (std::size_t i : seq) instance.tokens.push_back(parse_token(raw.tokens[i]));
  instance.query = 0;
  return instance;
}

// Every length-n sequence in odometer order (position 1 slowest); checks each instance's
// output from evaluate_instance against the oracle's.
RawSweep sweep(const RawModel& raw, const Model& model, int n) {
  RawSweep s;
  std::vector<std::size_t> seq(static_cast<std::size_t>(n), 0);
  const std::size_t u = raw.tokens.size();
  while (true) {
    const RawOutcome o = raw_outcome(raw, seq);
    const InstanceOutcome e = evaluate_instance(model, instance_of(raw, seq));
    CHECK(e.output == o.output);
    CHECK(e.target == o.target);
    CHECK(e.negative_denominator == (o.denominator < 0));
    ++s.instances;
    if (!o.solved) ++s.failing;
    if (!o.output) ++s.undefined;
    if (o.solved && o.denominator < 0) {
      ++s.negative;
      if (!s.first_negative) {
        s.first_negative = seq;
        s.first_negative_denominator = o.denominator;
      }
    }
    std::size_t d = seq.size();
    while (d > 0 && ++seq[d - 1] == u) seq[--d] = 0;
    if (d == 0) break;
  }
  return s;
}

std::vector<std::string> cube_strings(int m) {
  std::vector<std::string> out;
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << m); ++i)
    out.push_back(Token::from_index(m, i).to_string());  // the engine's token order
  return out;
}

std::vector<Token> tokens_of(const std::vector<std::string>& strings) {
  std::vector<Token> out;
  for (const std::string& s : strings) out.push_back(parse_token(s));
  return out;
}

Rational small(std::mt19937_64& rng, int lo, int hi) {
  return Rational(std::uniform_int_distribution<int>(lo, hi)(rng));
}

void check_report(const EvalReport& report, const RawSweep& s, const RawModel& raw) {
  CHECK(report.instances == s.instances);
  CHECK(report.failing == s.failing);
  CHECK(report.undefined == s.undefined);
  CHECK(report.negative_solved == s.negative);
  REQUIRE(report.negative_example.has_value() == s.first_negative.has_value());
  if (s.first_negative) {
    CHECK(report.negative_example->instance == instance_of(raw, *s.first_negative));
    CHECK(report.negative_example->denominator == s.first_negative_denominator);
    CHECK(!report.negative_example->fails());
  }
}

// A signed tabular model over the cube {0,1}^m with entries in -2..2 (kernel) and
// -1..2 halves (readout); `offset` is added to every kernel entry (1/p with a huge p moves
// every row off the integer tiers, onto exact rationals).
struct Tables {
  RationalMatrix kernel, readout;
};
Tables random_tables(std::mt19937_64& rng, std::size_t k, const Rational& offset) {
  Tables t{RationalMatrix(k, RationalVector(k)), RationalMatrix(k, RationalVector(k))};
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      t.kernel[i][j] = small(rng, -2, 2) + offset;
      t.readout[i][j] = small(rng, -2, 4) / 2;
    }
  return t;
}

RawModel raw_tables(const std::vector<std::string>& tokens, const Tables& t) {
  return {tokens, [&t](std::size_t q, std::size_t z) { return t.kernel[q][z]; },
          [&t](std::size_t q, std::size_t z) { return t.readout[q][z]; }};
}

EvalOptions options_with(int threads) {
  EvalOptions options;
  options.threads = threads;
  options.max_failures = 5;
  return options;
}

}  // namespace

TEST_CASE("signed: tabular models on T(2,3) agree with the oracle, every tier") {
  const int m = 2, n = 3;
  const std::vector<std::string> strings = cube_strings(m);
  std::mt19937_64 rng(15);
  std::uint64_t negatives = 0;
  for (int round = 0; round < 6; ++round) {
    const Rational offset =
        round % 2 == 0 ? Rational(0) : make_rational(1, Integer("100000000000000000039"));
    const Tables t = random_tables(rng, strings.size(), offset);
    const TabularModel model(m, tokens_of(strings), t.kernel, t.readout);
    const RawModel raw = raw_tables(strings, t);
    const RawSweep s = sweep(raw, model, n);
    negatives += s.negative;
    // Signed rows are never narrow; the offset moves every row to exact rationals.
    const detail::TabulatedModel tiers = detail::tabulate(model, tokens_of(strings), n);
    CHECK(tiers.rows_in_tier(round % 2 == 0 ? detail::RowTier::Wide : detail::RowTier::Exact) > 0);
    for (int threads : {1, 2})
      check_report(evaluate_cube(model, m, n, options_with(threads)), s, raw);
  }
  CHECK(negatives > 0);  // the rounds do exercise negative denominators
}

TEST_CASE("signed: feature models on T(3,3) agree with the oracle") {
  const int m = 3, n = 3, r = 2, d = 1;
  const std::vector<std::string> strings = cube_strings(m);
  std::mt19937_64 rng(16);
  for (int round = 0; round < 3; ++round) {
    std::vector<TokenFeatures> features(strings.size());
    for (TokenFeatures& f : features) {
      f.phi_q = {{small(rng, -2, 2), small(rng, -2, 2)}};
      f.phi_k = {{small(rng, -2, 2), small(rng, -2, 2)}};
      f.value = {{small(rng, -1, 2)}};
      f.readout_c = {{small(rng, -1, 2)}};
      f.readout_e = {small(rng, -2, 2) / 2};
    }
    const FeatureModel model(m, r, d, 0, tokens_of(strings), features);
    const RawModel raw{strings,
                       [&](std::size_t q, std::size_t z) {
                         return features[q].phi_q[0][0] * features[z].phi_k[0][0] +
                                features[q].phi_q[0][1] * features[z].phi_k[0][1];
                       },
                       [&](std::size_t q, std::size_t z) {
                         return features[q].readout_c[0][0] * features[z].value[0][0] +
                                features[q].readout_e[0];
                       }};
    const RawSweep s = sweep(raw, model, n);
    check_report(evaluate_cube(model, m, n, options_with(2)), s, raw);
  }
}

TEST_CASE("signed: parametric identity models on T(3,3) agree with the oracle") {
  const int m = 3, n = 3;
  const std::vector<std::string> strings = cube_strings(m);
  std::mt19937_64 rng(17);
  auto random_map = [&](std::size_t rows) {
    AffineMap map;
    for (std::size_t i = 0; i < rows; ++i) {
      map.weight.push_back({small(rng, -2, 2), small(rng, -2, 2), small(rng, -2, 2)});
      map.bias.push_back(small(rng, -2, 2));
    }
    return map;
  };
  // W x + b read straight from the weights and the 0/1 string.
  auto apply = [](const AffineMap& map, const std::string& x, std::size_t row) {
    Rational sum = map.bias[row];
    for (std::size_t j = 0; j < x.size(); ++j)
      if (x[j] == '1') sum += map.weight[row][j];
    return sum;
  };
  for (int round = 0; round < 3; ++round) {
    const ParametricMaps maps{random_map(2), random_map(2), random_map(1), random_map(1),
                              random_map(1)};
    const ParametricModel model(m, FeatureMap::Identity, {maps}, false);
    CHECK(model.classify().model_class != ModelClass::PositiveFeatures);
    const RawModel raw{strings,
                       [&](std::size_t q, std::size_t z) {
                         return apply(maps.query, strings[q], 0) * apply(maps.key, strings[z], 0) +
                                apply(maps.query, strings[q], 1) * apply(maps.key, strings[z], 1);
                       },
                       [&](std::size_t q, std::size_t z) {
                         return apply(maps.readout_c, strings[q], 0) *
                                    apply(maps.value, strings[z], 0) +
                                apply(maps.readout_e, strings[q], 0);
                       }};
    const RawSweep s = sweep(raw, model, n);
    check_report(evaluate_cube(model, m, n, options_with(1)), s, raw);
    // The text form reads back to the same model.
    const auto back = parse_model("identity.model", parametric_model_to_text(model));
    CHECK(evaluate_cube(*back, m, n, options_with(1)).negative_solved == s.negative);
  }
}

TEST_CASE("signed: negative denominators agree across threads, families and shards") {
  const int m = 2, n = 3;
  const std::vector<std::string> strings = cube_strings(m);
  std::mt19937_64 rng(18);
  Tables t = random_tables(rng, strings.size(), 0);
  const TabularModel model(m, tokens_of(strings), t.kernel, t.readout);
  const RawModel raw = raw_tables(strings, t);
  const RawSweep s = sweep(raw, model, n);
  REQUIRE(s.negative > 0);
  check_report(evaluate_cube(model, m, n, options_with(1)), s, raw);
  check_report(evaluate_cube(model, m, n, options_with(2)), s, raw);

  // The same instances as a family, in the same order.
  Family family{m, n, {}};
  for (std::size_t a = 0; a < 4; ++a)
    for (std::size_t b = 0; b < 4; ++b)
      for (std::size_t c = 0; c < 4; ++c) family.instances.push_back(instance_of(raw, {a, b, c}));
  check_report(evaluate_family(model, family, options_with(1)), s, raw);

  // Shards 1..3 of 3, through the partial format, merged in reverse order.
  for (int threads : {1, 2}) {
    EvalSummary merged;
    merged.method = "brute force";
    merged.max_failures = 5;
    for (std::uint64_t k = 3; k >= 1; --k) {
      EvalOptions options = options_with(threads);
      options.shard = Shard{k, 3};
      const EvalSummary part = evaluate_cube_summary(model, m, n, options);
      merge_summary(merged, eval_summary_from_json(eval_summary_to_json(part), "part"));
    }
    check_report(summary_to_report(merged), s, raw);
  }
}

TEST_CASE("signed: a zero denominator is still undefined, a negative one is not") {
  // m = 1: alpha(1, 1) = 2, alpha(1, 0) = -1.
  const TabularModel model(1, tokens_of({"0", "1"}), {{1, 1}, {-1, 2}}, {{0, 0}, {0, 1}});
  const InstanceOutcome zero = evaluate_instance(model, Instance{tokens_of({"1", "0", "0"}), 0});
  CHECK(!zero.output);
  CHECK(zero.fails());
  CHECK(!zero.negative_denominator);
  const EvalReport report = evaluate_cube(model, 1, 3, options_with(1));
  CHECK(report.undefined >= 1);
  CHECK(report.failing >= report.undefined);
}

TEST_CASE("signed: declared classes are checked against the data") {
  const std::string table = "tokens 2\n0\n1\nkernel\n1 1\n-1/2 1\nreadout\n0 0\n0 1\n";
  auto tabular = [&](const std::string& cls) {
    return "# comment first\nkernelrank-model 1 kind=tabular m=1 " + cls + "\n" + table;
  };
  auto error_of = [](const std::string& name, const std::string& text) {
    try {
      parse_model(name, text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string nk = error_of("nk.model", tabular("class=NK"));
  CHECK(nk.find("nk.model:2:") != std::string::npos);
  CHECK(nk.find("alpha(1, 0) = -1/2 < 0") != std::string::npos);
  CHECK(error_of("pf.model", tabular("class=PF")).find("pf.model:2:") != std::string::npos);
  CHECK(error_of("x.model", tabular("class=nk"))
            .find("expected class=PF, class=NK or class=signed") != std::string::npos);
  const auto declared = parse_model("s.model", tabular("class=signed"));
  CHECK(declared->declared_class() == ModelClass::Signed);
  CHECK(declared->classify().model_class == ModelClass::Signed);
  const Classification shown = reported_class(*declared);
  CHECK(shown.model_class == ModelClass::Signed);
  CHECK(shown.detail == "declared; the kernel has negative values: alpha(1, 0) = -1/2 < 0");
  CHECK(!parse_model("n.model", tabular(""))->declared_class());
  // The writer keeps the declaration.
  const auto& tab = dynamic_cast<const TabularModel&>(*declared);
  CHECK(tabular_model_to_text(tab).find("class=signed") != std::string::npos);
  CHECK(parse_model("j.json", tabular_model_to_json(tab))->declared_class() == ModelClass::Signed);

  // Features: PF with a negative entry, NK with a negative kernel value.
  const std::string features =
      "token 01 phiQ 1 -1 phiK 1 0 v c e 0\ntoken 10 phiQ 1 0 phiK 0 2 v c e 0\n";
  auto feature_file = [&](const std::string& cls) {
    return "kernelrank-model 1 kind=features m=2 r=2 d=0 " + cls + "\n" + features;
  };
  const std::string pf = error_of("f.model", feature_file("class=PF"));
  CHECK(pf.find("f.model:1:") != std::string::npos);
  CHECK(pf.find("phiQ entry 2 of token 01 is -1 < 0") != std::string::npos);
  const std::string fnk = error_of("f.model", feature_file("class=NK"));
  CHECK(fnk.find("alpha(01, 10) = -2 < 0") != std::string::npos);
  CHECK(error_of("f.model", feature_file("class=signed")) == "accepted");

  // JSON: the optional "class" member.
  const std::string json =
      "{\"format\": \"kernelrank-model\", \"version\": 1, \"m\": 1, \"class\": \"NK\",\n"
      " \"tokens\": [\"0\", \"1\"], \"kernel\": [[1, 1], [\"-1/2\", 1]], \"readout\": [[0, 0], "
      "[0, 1]]}";
  const std::string jnk = error_of("m.json", json);
  CHECK(jnk.find("m.json:1:") != std::string::npos);
  CHECK(jnk.find("alpha(1, 0) = -1/2 < 0") != std::string::npos);
  std::string bad = json;
  bad.replace(bad.find("\"NK\""), 4, "\"both\"");
  CHECK(error_of("m.json", bad).find("expected \"PF\", \"NK\" or \"signed\"") != std::string::npos);
}

TEST_CASE("signed: identity features are classified on the cube") {
  // phi(x) = x_1 - x_2 + 1 >= 0 on the cube: PF.
  const std::string pf_header =
      "kernelrank-model 1 kind=parametric m=2 r=1 d=0 activation=identity";
  const std::string body = "\nWQ\n1 -1 1\nWK\n1 -1 1\nV\nC\nE\n0 0 0\n";
  CHECK(parse_model("p.model", pf_header + body)->classify().model_class ==
        ModelClass::PositiveFeatures);
  // phi_Q(x) = x_1 - x_2, phi_K(x) = 1: alpha(01, .) = -1 < 0.
  const std::string signed_body = "\nWQ\n1 -1 0\nWK\n0 0 1\nV\nC\nE\n0 0 0\n";
  const auto model = parse_model("s.model", pf_header + signed_body);
  const Classification c = model->classify();
  CHECK(c.model_class == ModelClass::Signed);
  CHECK(c.detail.find("alpha(") == 0);
  std::string error;
  try {
    parse_model("s.model", pf_header + " class=PF" + signed_body);
  } catch (const InputError& e) {
    error = e.what();
  }
  CHECK(error.find("s.model:1:") != std::string::npos);
  CHECK(error.find("phi_Q feature 1 = -1 < 0 at x = ") != std::string::npos);
  CHECK_THROWS_AS(parse_model("s.model", pf_header + " class=NK" + signed_body), InputError);
  CHECK(parse_model("s.model", pf_header + " class=signed" + signed_body)->declared_class() ==
        ModelClass::Signed);
  CHECK_THROWS_AS(parse_model("t.model",
                              "kernelrank-model 1 kind=parametric m=2 r=1 d=0 "
                              "activation=tanh" +
                                  body),
                  InputError);
}

TEST_CASE("signed: the L2 counterexample of docs/open-questions.md") {
  const std::string dir = std::string(KERNELRANK_SOURCE_DIR) + "/instances/models/signed/";
  const auto model = read_model(dir + "l2-counterexample-m3.model");
  CHECK(model->declared_class() == ModelClass::Signed);
  const Family family = read_family(dir + "l2-counterexample-m3.family");
  REQUIRE(family.instances.size() == 3);
  const EvalReport report = evaluate_family(*model, family, options_with(1));
  CHECK(report.solves());
  CHECK(report.negative_solved == 2);
  REQUIRE(report.negative_example);
  CHECK(report.negative_example->instance == family.instances[0]);  // S1, D1 = -3
  CHECK(report.negative_example->denominator == Rational(-3));
  CHECK(report.negative_example->output == make_rational(4, 9));
  const InstanceOutcome s3 = evaluate_instance(*model, family.instances[2]);
  CHECK(s3.denominator == Rational(-1));
  CHECK(s3.output == make_rational(-1, 3));
  CHECK(evaluate_instance(*model, family.instances[1]).denominator == Rational(1));
}

TEST_CASE("signed: identity heads in safetensors are kind=parametric, with positions") {
  HeadWeights weights;
  weights.activation = FeatureMap::Identity;
  weights.m = 2;
  weights.r = 1;
  weights.d = 1;
  weights.positions = 2;
  for (int p = 0; p < 2; ++p)
    weights.by_position.push_back(
        {{1, -1}, {0}, {0, 1}, {p - 0.5}, {1, 0}, {0.5}, {0, 1}, {0}, {0.25, 0}, {-1}});
  const auto direct = parametric_model_from_weights(weights);
  CHECK(direct->activation() == FeatureMap::Identity);
  const auto read = parse_model("h.safetensors", head_to_safetensors(weights));
  const auto* parametric = dynamic_cast<const ParametricModel*>(read.get());
  REQUIRE(parametric != nullptr);
  CHECK(parametric->activation() == FeatureMap::Identity);
  CHECK(parametric->position_dependent());
  CHECK(parametric_model_to_text(*parametric) == parametric_model_to_text(*direct));
  // phi_Q(01) = -1 and phi_K(00) = 1/2 at key position 2: alpha = -1/2 < 0.
  CHECK(read->classify().model_class == ModelClass::Signed);
}
