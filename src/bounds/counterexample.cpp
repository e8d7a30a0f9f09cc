// Proof-guided and exhaustive search for failing instances.
#include "kernelrank/bounds/counterexample.hpp"

#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/bounds/family_bound.hpp"
#include "kernelrank/bounds/rank_bound.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"

#include <functional>
#include <optional>

namespace kernelrank {
namespace {

constexpr std::uint64_t kConstructionEnumerationLimit = 3'000'000;
constexpr std::size_t kMaxConstructionRows = 3000;

struct Link {
  int position = 0;
  Token q, a, b;
  int k = 1;
};

// The instances of one link; returns the first failing one (exactly evaluated).
std::optional<InstanceOutcome> failing_link_instance(const Model& model, const Link& link, int n) {
  const DominationStep step = domination_step(link.q, link.a, link.b, n, link.k);
  for (const Instance& base : {step.s1, step.s2, step.s3}) {
    Instance instance = base;
    if (link.position != 0) {  // move the query to its position, keys keep their order
      instance.tokens.erase(instance.tokens.begin());
      instance.tokens.insert(instance.tokens.begin() + link.position, link.q);
      instance.query = link.position;
    }
    InstanceOutcome outcome = evaluate_instance(model, instance);
    if (outcome.fails()) return outcome;
  }
  return std::nullopt;
}

std::string describe(const Rational& value) { return to_string(value); }

// Codes of increasing size for the proof-guided search on T(m,n), built lazily:
// a model far below the bound already fails on the first, tiny ones.
std::vector<std::function<Code()>> constructions(int m) {
  std::vector<std::function<Code()>> list;
  const int w = m / 2;
  long double binomial = 1;
  for (int i = 1; i <= w; ++i) binomial = binomial * (m - w + i) / i;
  for (int d = 2 * std::min(w, m - w); d >= 4; d -= 2) {
    if (binomial <= kConstructionEnumerationLimit) {
      list.push_back([=] { return lexicode(m, w, d); });
    } else {
      list.push_back([=] { return random_greedy_code(m, w, d, 1, 500, 4000); });
    }
  }
  if (m == 24) list.push_back([] { return golay_dodecads(); });
  return list;
}

Counterexample exhaustive(const Model& model, const std::function<EvalReport()>& evaluate,
                          std::string reason) {
  Counterexample result;
  result.fallback_reason = std::move(reason);
  const EvalReport report = evaluate();
  result.path = CounterexamplePath::Exhaustive;
  result.explanation =
      "exhaustive evaluation (" + report.method + ") of " + report.instances.str() + " instances";
  if (!report.failures.empty()) {
    result.failing = report.failures.front();
  } else {
    result.exhaustive_solves = true;
  }
  (void)model;
  return result;
}

Counterexample exhaustive_cube(const Model& model, const CounterexampleOptions& options,
                               std::string reason) {
  const int m = model.width(), n = options.n;
  EvalOptions eval;
  eval.max_failures = 1;
  eval.instance_limit = options.exhaustive_limit;
  const bool brute = m <= 24 && static_cast<long long>(m) * n <= 62 &&
                     (std::uint64_t{1} << (m * n)) <= options.exhaustive_limit;
  if (brute)
    return exhaustive(
        model, [&] { return evaluate_cube(model, m, n, eval); }, std::move(reason));
  if (model.overlap_form() && !model.position_dependent())
    return exhaustive(
        model, [&] { return evaluate_profiles(*model.overlap_form(), m, n, eval); },
        std::move(reason));
  Counterexample none;
  const std::string suffix = "; exhaustive search";  // said again below
  if (reason.size() >= suffix.size() &&
      reason.compare(reason.size() - suffix.size(), suffix.size(), suffix) == 0)
    reason.resize(reason.size() - suffix.size());
  none.fallback_reason = reason + "; exhaustive search over T(" + std::to_string(m) + "," +
                         std::to_string(n) + ") is out of reach (2^" + std::to_string(m * n) +
                         " instances)";
  return none;
}

// Why the proof-guided search is skipped for a signed model; `what` names the negative
// kernel value found (e.g. "alpha(110, 001) = -1 < 0").
std::string signed_reason(const std::string& what) {
  return "the model is signed (" + what +
         "): L2 needs a nonnegative kernel, so the proof-guided search does not apply; "
         "exhaustive search";
}

}  // namespace

std::string to_string(CounterexamplePath path) {
  switch (path) {
    case CounterexamplePath::ProofGuided:
      return "proof-guided";
    case CounterexamplePath::Exhaustive:
      return "exhaustive";
    case CounterexamplePath::None:
      return "none";
  }
  return "?";
}

namespace {

// Why the proof-guided path cannot read this model, or nothing when it can.
std::optional<std::string> proof_guided_refusal(const Model& model, int n) {
  const int m = model.width();
  if (n < 3) return "the proof needs n >= 3";
  if (model.position_dependent())
    return "the proof-guided path handles position-independent models only";
  if (model.token_universe() &&
      model.token_universe()->size() != (std::size_t{1} << std::min(m, 62)))
    return "the model is not defined on the whole cube";
  const Classification cls = model.classify();
  if (cls.model_class == ModelClass::Signed) return signed_reason(cls.detail);
  return std::nullopt;
}

// The first link of `chain` where L2's ratio fails, as a proof-guided counterexample whose
// explanation starts at the link; path None with `negative` set when a chain value is < 0.
Counterexample violated_link(const Model& model, int n, const Token& q,
                             const std::vector<Token>& chain, std::size_t& entries,
                             std::string& negative) {
  for (std::size_t s = 1; s < chain.size(); ++s) {
    const Rational a = model.kernel(q, chain[s - 1], 0, 1), b = model.kernel(q, chain[s], 0, 1);
    entries += 2;
    const int link_gap = inner(q, chain[s]) - inner(q, chain[s - 1]);
    const Rational f = gap_domination_factor(n, link_gap, 1);
    if (a < 0 || b < 0) {
      negative = signed_reason("a negative kernel value on a chain token");
      return Counterexample{};
    }
    if (a > f * b) continue;
    Counterexample result;
    result.path = CounterexamplePath::ProofGuided;
    result.failing = failing_link_instance(model, Link{0, q, chain[s - 1], chain[s], 1}, n);
    if (!result.failing)
      throw InternalError(
          "L2 contradicted: alpha(q,a) <= f alpha(q,b) but S1, S2, S3 all have error < 1/2");
    result.explanation = "chain link " + std::to_string(s) + " of " +
                         std::to_string(chain.size() - 1) + " (gap " + std::to_string(link_gap) +
                         "): alpha(q,a) = " + describe(a) + " <= " + describe(f) +
                         " * alpha(q,b) = " + describe(f * b) + ", so L2 fails on this link";
    return result;
  }
  throw InternalError("a violated chain ratio has no violated link");
}

}  // namespace

Counterexample find_counterexample(const Model& model, const CounterexampleOptions& options) {
  const int n = options.n, m = model.width();
  if (const std::optional<std::string> refusal = proof_guided_refusal(model, n))
    return exhaustive_cube(model, options, *refusal);
  const AmplificationTable table(n, m);
  std::size_t entries = 0;
  const auto codes = constructions(m);
  if (codes.empty())
    return exhaustive_cube(model, options,
                           "no bound construction exists at m=" + std::to_string(m));
  for (const auto& make_code : codes) {
    const Code code = make_code();
    if (code.words.size() < 2) continue;
    // N^2 kernel values per construction: stop before they become the cost.
    if (code.words.size() > kMaxConstructionRows) break;
    const std::string& name = code.construction;
    const std::vector<BoundRow> rows = complement_rows(code.words);
    const std::size_t N = rows.size();
    for (std::size_t i = 0; i < N; ++i) {
      const Token& q = rows[i].query;
      const Rational self = model.kernel(q, q, 0, 0);
      const Rational diagonal = model.kernel(q, rows[i].own, 0, 1);
      entries += 2;
      if (self < 0 || diagonal < 0)
        return exhaustive_cube(model, options,
                               signed_reason("a negative kernel value at query " + q.to_string()));
      for (std::size_t j = 0; j < N; ++j) {
        if (i == j) continue;
        const int gap = inner(q, rows[j].own) - inner(q, rows[i].own);
        if (gap < 2) continue;  // not a usable pair of this construction
        const Rational entry = model.kernel(q, rows[j].own, 0, 1);
        ++entries;
        if (entry < 0)
          return exhaustive_cube(
              model, options,
              signed_reason("alpha(" + q.to_string() + ", " + rows[j].own.to_string() +
                            ") = " + describe(entry) + " < 0"));
        const auto& amplification = *table.at(gap);
        if (diagonal > Rational(amplification.factor) * entry) continue;
        // Violated ratio: walk the chain to a violated link.
        std::string negative;
        Counterexample result =
            violated_link(model, n, q, cube_chain(q, rows[i].own, rows[j].own, amplification.parts),
                          entries, negative);
        if (!negative.empty()) return exhaustive_cube(model, options, negative);
        result.construction = name + " (" + std::to_string(N) + " rows)";
        result.explanation = "rows " + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                             " of " + name + ": M[i][i] = " + describe(diagonal) + " <= R_" +
                             std::to_string(n) + "(" + std::to_string(gap) +
                             ") * M[i][j] = " + amplification.factor.str() + " * " +
                             describe(entry) + "; " + result.explanation;
        return result;
      }
    }
  }
  Counterexample fallback = exhaustive_cube(model, options,
                                            "every ratio inequality of the constructions holds (" +
                                                std::to_string(entries) +
                                                " kernel values): the model may have rank "
                                                "above their bounds");
  fallback.kernel_entries = entries;
  return fallback;
}

Counterexample find_counterexample(const Model& model, const Family& family,
                                   const CounterexampleOptions&) {
  auto exhaustive_family = [&](std::string reason) {
    EvalOptions eval;
    eval.max_failures = 1;
    return exhaustive(
        model, [&] { return evaluate_family(model, family, eval); }, std::move(reason));
  };
  if (family.n < 3) return exhaustive_family("the proof needs n >= 3");
  if (model.position_dependent())
    return exhaustive_family("the proof-guided path handles position-independent models only");
  const FamilyBound bound = certify_family(family, false);
  if (!bound.found) return exhaustive_family("the family supports no certified bound");
  std::size_t entries = 0;
  const std::size_t N = bound.rows.size();
  for (const FamilyChain& chain : bound.chains) {
    const FamilyRow& row = bound.rows[chain.i];
    const Token& q = row.query;
    const Rational w = model.kernel(q, q, row.position, row.position);
    const Rational diagonal = model.kernel(q, row.own, row.position, (row.position + 1) % family.n);
    const Rational entry =
        model.kernel(q, bound.rows[chain.j].own, row.position, (row.position + 1) % family.n);
    entries += 3;
    if (w < 0 || diagonal < 0 || entry < 0)
      return exhaustive_family(signed_reason("a negative kernel value on the rows"));
    if (diagonal > chain.factor * entry) continue;
    for (std::size_t s : chain.steps) {
      const FamilyStep& step = bound.steps[s];
      const Rational a = model.kernel(q, step.a, step.position, (step.position + 1) % family.n);
      const Rational b = model.kernel(q, step.b, step.position, (step.position + 1) % family.n);
      entries += 2;
      if (a < 0 || b < 0)
        return exhaustive_family(signed_reason("a negative kernel value on a chain token"));
      if (a > step.factor * b) continue;
      Counterexample result;
      result.path = CounterexamplePath::ProofGuided;
      result.construction = "the family's own steps (" + std::to_string(N) + " rows, " +
                            std::to_string(bound.steps.size()) + " steps)";
      result.kernel_entries = entries;
      result.failing =
          failing_link_instance(model, Link{step.position, q, step.a, step.b, step.k}, family.n);
      if (!result.failing)
        throw InternalError("L2 contradicted on a family step: no instance of the step fails");
      result.explanation = "rows " + std::to_string(chain.i + 1) + ", " +
                           std::to_string(chain.j + 1) + ": M[i][i] = " + describe(diagonal) +
                           " <= " + describe(chain.factor) + " * " + describe(entry) +
                           "; step with gap " + std::to_string(step.gap) +
                           ", k = " + std::to_string(step.k) + ": alpha(q,a) = " + describe(a) +
                           " <= " + describe(step.factor) + " * alpha(q,b)";
      return result;
    }
    throw InternalError("a violated family chain has no violated step");
  }
  Counterexample fallback = exhaustive_family("every ratio inequality of the family's rows holds");
  fallback.kernel_entries = entries;
  return fallback;
}

}  // namespace kernelrank
