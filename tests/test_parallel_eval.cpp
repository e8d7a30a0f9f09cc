// The block-parallel exact evaluator (multiset keys, vector kernels, threads, shards)
// against a naive rational loop written here: the whole report must agree, including the
// worst instance and the list of first failing instances, for every thread count, every
// shard split, both enumerations and every kernel level the CPU has.
#include "kernelrank/eval/eval_kernels.hpp"
#include "kernelrank/eval/tabulated_eval.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/eval_partial.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/builtin_models.hpp"

#include <doctest/doctest.h>

#include <map>
#include <random>

using namespace kernelrank;

namespace {

// A model given by explicit tables, independent of the library's model forms.
class TableModel : public Model {
 public:
  TableModel(int m, std::vector<Token> universe, bool position_dependent)
      : m_(m), universe_(std::move(universe)), position_dependent_(position_dependent) {}
  std::string description() const override { return "test table model"; }
  int width() const override { return m_; }
  bool position_dependent() const override { return position_dependent_; }
  Rational kernel(const Token& q, const Token& z, int qpos, int kpos) const override {
    return kernel_.at(key(q, z, qpos, kpos));
  }
  Rational readout(const Token& q, const Token& z, int qpos, int kpos) const override {
    return readout_.at(key(q, z, qpos, kpos));
  }
  const std::vector<Token>* token_universe() const override { return &universe_; }
  Classification classify() const override { return {}; }

  std::string key(const Token& q, const Token& z, int qpos, int kpos) const {
    std::string k = q.to_string() + "|" + z.to_string();
    if (position_dependent_) k += "|" + std::to_string(qpos) + "|" + std::to_string(kpos);
    return k;
  }
  std::map<std::string, Rational> kernel_, readout_;

 private:
  int m_;
  std::vector<Token> universe_;
  bool position_dependent_;
};

// Styles: 0 small signed fractions with zeros, 1 some huge entries (GMP rows), 2 small
// nonnegative integers (many zero denominators), 3 positive decimals (narrow rows),
// 4 integers near 2^31 (rows on both sides of the narrow limit, wide maxima).
Rational kernel_entry(std::mt19937_64& rng, int style) {
  switch (style) {
    case 0:
      return Rational(static_cast<long>(rng() % 21) - 5, static_cast<long>(1 + rng() % 12));
    case 1: {
      Rational value(static_cast<long>(rng() % 9), static_cast<long>(1 + rng() % 7));
      if (rng() % 3 == 0) {
        Integer big = 1;
        big <<= 80;
        value *= big;
      }
      return value;
    }
    case 2:
      return Rational(static_cast<long>(rng() % 4), 1);
    case 3:
      return Rational(static_cast<long>(1 + rng() % 10000), 10000);
    default:
      return Rational(static_cast<long>((1L << 30) + static_cast<long>(rng() % (1UL << 31))), 1);
  }
}

Rational readout_entry(std::mt19937_64& rng, int style, int m) {
  if (style == 3)
    return Rational(static_cast<long>(rng() % (10000UL * static_cast<unsigned>(m) + 1)), 10000);
  if (style == 4)
    return Rational(static_cast<long>(rng() % 7) - 1, static_cast<long>(1 + rng() % 3));
  return Rational(static_cast<long>(rng() % 21) - 5, static_cast<long>(1 + rng() % 12));
}

std::unique_ptr<TableModel> random_model(std::mt19937_64& rng, int m,
                                         const std::vector<Token>& universe,
                                         bool position_dependent, int n, int style) {
  auto model = std::make_unique<TableModel>(m, universe, position_dependent);
  const int blocks = position_dependent ? n : 1;
  for (const Token& q : universe)
    for (const Token& z : universe)
      for (int a = 0; a < blocks; ++a)
        for (int b = 0; b < blocks; ++b) {
          model->kernel_[model->key(q, z, a, b)] = kernel_entry(rng, style);
          model->readout_[model->key(q, z, a, b)] = readout_entry(rng, style, m);
        }
  return model;
}

// Direct transcription of theory.md §2 over every instance in the documented enumeration
// order: query positions of the mode, then the query's token, then the other positions'
// tokens in position order (slowest first).
EvalReport naive_evaluate(const Model& model, const std::vector<Token>& universe, int n,
                          QueryMode mode, std::size_t max_failures) {
  EvalReport report;
  report.method = "token set";
  const std::size_t U = universe.size();
  for (int qp : query_positions(mode, n)) {
    std::vector<int> others;
    for (int j = 0; j < n; ++j)
      if (j != qp) others.push_back(j);
    std::vector<std::size_t> digits(static_cast<std::size_t>(n), 0);  // u, then the keys
    while (true) {
      Instance instance;
      instance.query = qp;
      instance.tokens.assign(static_cast<std::size_t>(n), Token());
      instance.tokens[static_cast<std::size_t>(qp)] = universe[digits[0]];
      for (std::size_t d = 0; d < others.size(); ++d)
        instance.tokens[static_cast<std::size_t>(others[d])] = universe[digits[d + 1]];
      const Token& q = instance.tokens[static_cast<std::size_t>(qp)];
      Rational den = 0, num = 0;
      for (int j = 0; j < n; ++j) {
        const Token& z = instance.tokens[static_cast<std::size_t>(j)];
        const Rational a = model.kernel(q, z, qp, j);
        den += a;
        num += a * model.readout(q, z, qp, j);
      }
      InstanceOutcome outcome;
      outcome.instance = instance;
      outcome.target = min_ip_target(instance);
      if (den != 0) {
        outcome.output = num / den;
        outcome.error = abs_of(*outcome.output - outcome.target);
      }
      report.instances += 1;
      if (outcome.fails()) {
        report.failing += 1;
        if (!outcome.error) report.undefined += 1;
        if (report.failures.size() < max_failures) report.failures.push_back(outcome);
      }
      if (outcome.error && (!report.max_error || *outcome.error > *report.max_error)) {
        report.max_error = *outcome.error;
        report.worst = outcome;
      }
      int p = n - 1;
      while (p >= 0 && digits[static_cast<std::size_t>(p)] + 1 == U)
        digits[static_cast<std::size_t>(p--)] = 0;
      if (p < 0) break;
      ++digits[static_cast<std::size_t>(p)];
    }
  }
  return report;
}

bool same_outcome(const InstanceOutcome& a, const InstanceOutcome& b) {
  return a.instance == b.instance && a.target == b.target && a.output == b.output &&
         a.error == b.error;
}

void check_same_report(const EvalReport& got, const EvalReport& want) {
  CHECK(got.instances == want.instances);
  CHECK(got.failing == want.failing);
  CHECK(got.undefined == want.undefined);
  CHECK(got.max_error == want.max_error);
  REQUIRE(got.worst.has_value() == want.worst.has_value());
  if (want.worst) CHECK(same_outcome(*got.worst, *want.worst));
  REQUIRE(got.failures.size() == want.failures.size());
  for (std::size_t i = 0; i < want.failures.size(); ++i) {
    CAPTURE(i);
    CHECK(same_outcome(got.failures[i], want.failures[i]));
  }
}

std::vector<Token> random_universe(std::mt19937_64& rng, int m, std::size_t size) {
  std::vector<Token> universe;
  while (universe.size() < size) {
    const Token t = Token::from_index(m, rng() % (1U << m));
    if (std::find(universe.begin(), universe.end(), t) == universe.end()) universe.push_back(t);
  }
  return universe;
}

// Sharded summaries merged in a scrambled order, through their JSON form.
EvalSummary merged_shards(const detail::TabulatedModel& table, const Model& model,
                          const std::vector<Token>& universe, EvalOptions options, std::uint64_t K,
                          int threads) {
  EvalSummary merged;
  merged.method = "token set";
  merged.max_failures = options.max_failures;
  for (std::uint64_t i = 0; i < K; ++i) {
    options.shard = Shard{K - i, K};
    options.threads = threads;
    const EvalSummary part =
        detail::evaluate_tabulated_summary(table, model, universe, options, "token set");
    merge_summary(merged, eval_summary_from_json(eval_summary_to_json(part), "test"));
  }
  return merged;
}

}  // namespace

TEST_CASE("parallel eval: every engine, thread count and shard split equals the naive loop") {
  std::mt19937_64 rng(20261201);
  const std::vector<detail::KernelIsa> levels = [] {
    std::vector<detail::KernelIsa> v{detail::KernelIsa::Portable};
    if (detail::best_kernel_isa() != detail::KernelIsa::Portable)
      v.push_back(detail::KernelIsa::Avx2);
    if (detail::best_kernel_isa() == detail::KernelIsa::Avx512)
      v.push_back(detail::KernelIsa::Avx512);
    return v;
  }();
  int trials = 0;
  std::size_t narrow_rows = 0, wide_rows = 0, exact_rows = 0;
  for (int style = 0; style <= 4; ++style) {
    for (bool position_dependent : {false, true}) {
      for (int n = 1; n <= 4; ++n) {
        for (QueryMode mode : {QueryMode::First, QueryMode::Last, QueryMode::All}) {
          const int m = 5;
          const std::size_t size = n <= 2 ? 21 : n == 3 ? 13 : 5;
          const std::vector<Token> universe = random_universe(rng, m, size);
          auto model = random_model(rng, m, universe, position_dependent, n, style);
          const std::size_t max_failures = 1 + rng() % 12;
          CAPTURE(style);
          CAPTURE(position_dependent);
          CAPTURE(n);
          CAPTURE(to_string(mode));
          const EvalReport want = naive_evaluate(*model, universe, n, mode, max_failures);
          const detail::TabulatedModel table = detail::tabulate(*model, universe, n);
          {
            // Tabulation on threads gives the same table.
            const detail::TabulatedModel threaded = detail::tabulate(*model, universe, n, 3);
            CHECK(threaded.kernel_int == table.kernel_int);
            CHECK(threaded.product_int == table.product_int);
            CHECK(threaded.row_tier == table.row_tier);
            CHECK(threaded.row_positive == table.row_positive);
            CHECK(threaded.kernel_exact == table.kernel_exact);
            CHECK(threaded.product_exact == table.product_exact);
          }
          narrow_rows += table.rows_in_tier(detail::RowTier::Narrow);
          wide_rows += table.rows_in_tier(detail::RowTier::Wide);
          exact_rows += table.rows_in_tier(detail::RowTier::Exact);
          EvalOptions options;
          options.mode = mode;
          options.max_failures = max_failures;
          for (detail::KernelIsa isa : levels) {
            detail::set_kernel_isa(isa);
            CAPTURE(detail::to_string(isa));
            for (bool multiset : {true, false}) {
              for (bool vectorise : {true, false}) {
                detail::EngineOptions engine;
                engine.multiset = multiset;
                engine.vectorise = vectorise;
                CAPTURE(multiset);
                CAPTURE(vectorise);
                for (int threads : {1, 2, 3}) {
                  options.threads = threads;
                  CAPTURE(threads);
                  check_same_report(detail::evaluate_tabulated(table, *model, universe, options,
                                                               "token set", engine),
                                    want);
                }
              }
            }
          }
          detail::set_kernel_isa(detail::best_kernel_isa());
          for (std::uint64_t K : {2U, 3U, 7U}) {
            CAPTURE(K);
            const EvalSummary merged =
                merged_shards(table, *model, universe, options, K, 1 + static_cast<int>(K % 2));
            check_same_report(summary_to_report(merged), want);
          }
          ++trials;
        }
      }
    }
  }
  CHECK(trials == 120);
  // Every tier was exercised.
  CHECK(narrow_rows > 0);
  CHECK(wide_rows > 0);
  CHECK(exact_rows > 0);
}

TEST_CASE("parallel eval: the cube with a built-in, sharded and threaded, equals one thread") {
  const auto model = make_builtin_model("softmax", 4, {{"base", "2"}});
  for (QueryMode mode : {QueryMode::First, QueryMode::All}) {
    EvalOptions options;
    options.mode = mode;
    options.max_failures = 6;
    const EvalReport whole = evaluate_cube(*model, 4, 3, options);
    REQUIRE_FALSE(whole.solves());
    check_same_report(whole, naive_evaluate(*model, detail::cube_tokens(4), 3, mode, 6));
    std::uint64_t blocks = 0;
    EvalSummary merged;
    merged.method = "brute force";
    merged.max_failures = 6;
    for (std::uint64_t k = 1; k <= 5; ++k) {
      options.shard = Shard{k, 5};
      options.threads = static_cast<int>(k);
      merge_summary(merged, evaluate_cube_summary(*model, 4, 3, options, &blocks));
    }
    CHECK(blocks == 256);  // (u, first key) for 16 tokens
    check_same_report(summary_to_report(merged), whole);
  }
}

TEST_CASE("parallel eval: profiles and families merge to the unsharded result") {
  const auto model = make_builtin_model("softmax", 40, {{"base", "2"}});
  EvalOptions options;
  options.max_failures = 4;
  const EvalReport whole = evaluate_profiles(*model->overlap_form(), 40, 3, options);
  REQUIRE_FALSE(whole.solves());
  for (int threads : {2, 3}) {
    options.threads = threads;
    check_same_report(evaluate_profiles(*model->overlap_form(), 40, 3, options), whole);
  }
  EvalSummary merged;
  merged.method = "profiles";
  merged.max_failures = 4;
  for (std::uint64_t k = 3; k >= 1; --k) {
    options.shard = Shard{k, 3};
    merge_summary(merged, evaluate_profiles_summary(*model->overlap_form(), 40, 3, options));
  }
  check_same_report(summary_to_report(merged), whole);

  // A family: blocks of 256 consecutive instances.
  const auto small = make_builtin_model("rank1-mean", 3, {{"n", "3"}});
  Family family;
  family.m = 3;
  family.n = 3;
  for (std::uint64_t i = 0; i < 600; ++i) {
    Instance instance;
    instance.query = static_cast<int>(i % 3);
    for (int j = 0; j < 3; ++j)
      instance.tokens.push_back(
          Token::from_index(3, (i * 7 + static_cast<std::uint64_t>(j) * 3) % 8));
    family.instances.push_back(instance);
  }
  EvalOptions fam;
  fam.max_failures = 5;
  const EvalReport fam_whole = evaluate_family(*small, family, fam);
  REQUIRE_FALSE(fam_whole.solves());
  EvalSummary fam_merged;
  fam_merged.method = "family";
  fam_merged.max_failures = 5;
  std::uint64_t blocks = 0;
  for (std::uint64_t k = 1; k <= 2; ++k) {
    fam.shard = Shard{k, 2};
    merge_summary(fam_merged, evaluate_family_summary(*small, family, fam, &blocks));
  }
  CHECK(blocks == 3);
  check_same_report(summary_to_report(fam_merged), fam_whole);
}

TEST_CASE("parallel eval: merge_eval_partials checks identity and shard coverage") {
  const auto model = make_builtin_model("softmax", 3, {{"base", "2"}});
  EvalOptions options;
  options.max_failures = 3;
  std::vector<EvalPartial> partials;
  for (std::uint64_t k = 1; k <= 3; ++k) {
    options.shard = Shard{k, 3};
    EvalPartial p;
    p.shard = options.shard;
    p.summary = evaluate_cube_summary(*model, 3, 3, options, &p.identity.blocks);
    p.identity.model_sha256 = "abc";
    p.identity.source = "cube";
    p.identity.m = 3;
    p.identity.n = 3;
    p.identity.mode = "first";
    p.identity.total_instances = "512";
    p.identity.task = "cube task T(3,3) (mode first)";
    p.blocks_evaluated = (p.identity.blocks - (k - 1) + 2) / 3;
    // Round trip through the file form.
    partials.push_back(parse_eval_partial("p" + std::to_string(k), eval_partial_to_text(p)));
  }
  options.shard = Shard{};
  const EvalReport whole = evaluate_cube(*model, 3, 3, options);
  check_same_report(summary_to_report(merge_eval_partials(partials).summary), whole);
  check_same_report(
      summary_to_report(merge_eval_partials({partials[2], partials[0], partials[1]}).summary),
      whole);

  CHECK_THROWS_WITH_AS(merge_eval_partials({partials[0], partials[1]}, {"a", "b"}),
                       doctest::Contains("shard 3/3 is missing"), UsageError);
  CHECK_THROWS_WITH_AS(
      merge_eval_partials({partials[0], partials[1], partials[1]}, {"a", "b", "c"}),
      doctest::Contains("given twice (b and c)"), UsageError);
  std::vector<EvalPartial> other = partials;
  other[1].identity.model_sha256 = "def";
  CHECK_THROWS_WITH_AS(merge_eval_partials(other, {"a", "b", "c"}),
                       doctest::Contains("b belongs to a different run"), UsageError);
  other = partials;
  other[2].shard = Shard{3, 4};
  CHECK_THROWS_WITH_AS(merge_eval_partials(other), doctest::Contains("same K"), UsageError);
  other = partials;
  other[0].summary.instances += 1;
  CHECK_THROWS_WITH_AS(merge_eval_partials(other), doctest::Contains("instances"), UsageError);

  // Tampered files are refused as malformed.
  nlohmann::json tampered = nlohmann::json::parse(eval_partial_to_text(partials[0]));
  tampered["summary"]["failing"] = (partials[0].summary.instances + 1).str();
  CHECK_THROWS_AS(parse_eval_partial("bad", tampered.dump()), InputError);
  tampered = nlohmann::json::parse(eval_partial_to_text(partials[0]));
  REQUIRE(tampered["summary"]["worst"].is_object());
  tampered["summary"]["worst"]["error"] = "1/7";
  CHECK_THROWS_AS(parse_eval_partial("bad", tampered.dump()), InputError);
  CHECK_THROWS_AS(parse_eval_partial("bad", "{\"format\": \"something else\"}"), InputError);
}
