// Exact evaluation of single instances and of explicit families.
#include "kernelrank/eval/evaluate.hpp"

#include "eval/eval_report.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/eval_partial.hpp"

#include <algorithm>

namespace kernelrank {

bool InstanceOutcome::fails() const { return !error || *error * 2 >= 1; }

Rational EvalReport::error_rate() const {
  if (instances == 0) return 0;
  return make_rational(failing, instances);
}

InstanceOutcome evaluate_instance(const Model& model, const Instance& instance) {
  if (instance.tokens.empty()) throw UsageError("an instance needs at least one token");
  const Token& q = instance.tokens.at(static_cast<std::size_t>(instance.query));
  Rational denominator = 0;
  Rational numerator = 0;
  for (std::size_t j = 0; j < instance.tokens.size(); ++j) {
    const Token& z = instance.tokens[j];
    const Rational alpha = model.kernel(q, z, instance.query, static_cast<int>(j));
    denominator += alpha;
    if (alpha != 0) numerator += alpha * model.readout(q, z, instance.query, static_cast<int>(j));
  }
  return detail::outcome_from_sums(instance, numerator, denominator);
}

namespace detail {

InstanceOutcome outcome_from_sums(const Instance& instance, const Rational& numerator,
                                  const Rational& denominator) {
  InstanceOutcome outcome;
  outcome.instance = instance;
  outcome.target = min_ip_target(instance);
  outcome.negative_denominator = denominator < 0;
  outcome.denominator = denominator;
  if (denominator != 0) {
    outcome.output = numerator / denominator;
    outcome.error = abs_of(*outcome.output - outcome.target);
  }
  return outcome;
}

ReportBuilder::ReportBuilder(std::string method, std::size_t max_failures)
    : max_failures_(max_failures) {
  report_.method = std::move(method);
}

void ReportBuilder::add(const InstanceOutcome& outcome, const Integer& weight) {
  report_.instances += weight;
  if (outcome.fails()) {
    report_.failing += weight;
    if (!outcome.error) report_.undefined += weight;
    keep_failure(outcome);
  } else if (outcome.negative_denominator) {
    report_.negative_solved += weight;
    if (!report_.negative_example) report_.negative_example = outcome;
  }
  offer_max(outcome);
}

void ReportBuilder::add_counts(const Integer& instances, const Integer& failing,
                               const Integer& undefined) {
  report_.instances += instances;
  report_.failing += failing;
  report_.undefined += undefined;
}

void ReportBuilder::offer_max(const InstanceOutcome& outcome) {
  if (!outcome.error) return;
  if (!report_.max_error || *outcome.error > *report_.max_error) {
    report_.max_error = *outcome.error;
    report_.worst = outcome;
  }
}

void ReportBuilder::keep_failure(const InstanceOutcome& outcome) {
  if (wants_failure()) report_.failures.push_back(outcome);
}

}  // namespace detail

namespace {

// Families are split into blocks of this many consecutive instances (threads do not apply:
// model objects may cache; shards do).
constexpr std::uint64_t kFamilyBlock = 256;

bool better_worst(const IndexedOutcome& a, const IndexedOutcome& b) {
  return *a.outcome.error > *b.outcome.error ||
         (*a.outcome.error == *b.outcome.error && a.index < b.index);
}

}  // namespace

void merge_summary(EvalSummary& into, const EvalSummary& from) {
  if (into.method != from.method || into.max_failures != from.max_failures)
    throw InternalError("merging evaluation summaries of different methods or failure limits");
  into.instances += from.instances;
  into.failing += from.failing;
  into.undefined += from.undefined;
  into.negative_solved += from.negative_solved;
  if (from.negative_example &&
      (!into.negative_example || from.negative_example->index < into.negative_example->index))
    into.negative_example = from.negative_example;
  if (from.worst && (!into.worst || better_worst(*from.worst, *into.worst))) {
    into.worst = from.worst;
    into.max_error = from.max_error;
  }
  std::vector<IndexedOutcome> failures;
  failures.reserve(into.failures.size() + from.failures.size());
  std::merge(into.failures.begin(), into.failures.end(), from.failures.begin(), from.failures.end(),
             std::back_inserter(failures),
             [](const IndexedOutcome& a, const IndexedOutcome& b) { return a.index < b.index; });
  failures.erase(std::unique(failures.begin(), failures.end(),
                             [](const IndexedOutcome& a, const IndexedOutcome& b) {
                               return a.index == b.index;
                             }),
                 failures.end());
  if (failures.size() > into.max_failures) failures.resize(into.max_failures);
  into.failures = std::move(failures);
}

EvalReport summary_to_report(const EvalSummary& summary) {
  EvalReport report;
  report.method = summary.method;
  report.instances = summary.instances;
  report.failing = summary.failing;
  report.undefined = summary.undefined;
  report.negative_solved = summary.negative_solved;
  if (summary.negative_example) report.negative_example = summary.negative_example->outcome;
  report.max_error = summary.max_error;
  if (summary.worst) report.worst = summary.worst->outcome;
  for (const IndexedOutcome& f : summary.failures) report.failures.push_back(f.outcome);
  return report;
}

namespace {

EvalSummary observed_family_summary(const Model& model, const Family& family,
                                    const EvalOptions& options, std::uint64_t* blocks,
                                    const OutcomeObserver& observe) {
  if (family.m != model.width())
    throw UsageError("the family has width m=" + std::to_string(family.m) +
                     " but the model expects m=" + std::to_string(model.width()));
  const std::uint64_t count = family.instances.size();
  const std::uint64_t block_count = (count + kFamilyBlock - 1) / kFamilyBlock;
  if (blocks) *blocks = block_count;
  EvalSummary summary;
  summary.method = "family";
  summary.max_failures = options.max_failures;
  for (std::uint64_t b = 0; b < block_count; ++b) {
    if (!options.shard.owns(b)) continue;
    for (std::uint64_t i = b * kFamilyBlock; i < std::min(count, (b + 1) * kFamilyBlock); ++i) {
      InstanceOutcome outcome = evaluate_instance(model, family.instances[i]);
      if (observe) observe(i, outcome);
      summary.instances += 1;
      if (outcome.fails()) {
        summary.failing += 1;
        if (!outcome.error) summary.undefined += 1;
        if (summary.failures.size() < options.max_failures)
          summary.failures.push_back({i, outcome});
      } else if (outcome.negative_denominator) {
        // Blocks and instances run in increasing order: the first one kept is the smallest.
        summary.negative_solved += 1;
        if (!summary.negative_example) summary.negative_example = IndexedOutcome{i, outcome};
      }
      // Strictly greater: the first instance attaining the maximum is kept.
      if (outcome.error && (!summary.max_error || *outcome.error > *summary.max_error)) {
        summary.max_error = *outcome.error;
        summary.worst = IndexedOutcome{i, std::move(outcome)};
      }
    }
  }
  return summary;
}

}  // namespace

EvalSummary evaluate_family_summary(const Model& model, const Family& family,
                                    const EvalOptions& options, std::uint64_t* blocks) {
  return observed_family_summary(model, family, options, blocks, {});
}

EvalReport evaluate_family(const Model& model, const Family& family, const EvalOptions& options) {
  return evaluate_family(model, family, options, {});
}

EvalReport evaluate_family(const Model& model, const Family& family, const EvalOptions& options,
                           const OutcomeObserver& observe) {
  EvalOptions whole = options;
  whole.shard = Shard{};
  return summary_to_report(observed_family_summary(model, family, whole, nullptr, observe));
}

void check_token_set(int model_width, const std::vector<Token>& universe, int n) {
  if (n < 1) throw UsageError("length n must be at least 1");
  if (universe.empty()) throw UsageError("the token set is empty");
  for (const Token& token : universe)
    if (token.width() != model_width)
      throw UsageError("token " + token.to_string() + " has width " +
                       std::to_string(token.width()) +
                       " but the model expects m=" + std::to_string(model_width));
}

void check_cube_walk(int model_width, int m, int n, const EvalOptions& options,
                     const std::string& otherwise) {
  if (m < 1) throw UsageError("m must be at least 1");
  if (m != model_width)
    throw UsageError("the model expects m=" + std::to_string(model_width) +
                     ", not m=" + std::to_string(m));
  if (m > 24)
    throw ResourceError("brute force over T(" + std::to_string(m) + "," + std::to_string(n) +
                        ") is out of reach; " + otherwise);
  count_instances(std::uint64_t{1} << m, n, options.mode, options.instance_limit);
}

}  // namespace kernelrank
