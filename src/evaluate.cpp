// Exact evaluation of single instances and of explicit families.
#include "kernelrank/evaluate.hpp"

#include "eval_report.hpp"
#include "kernelrank/errors.hpp"

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

EvalReport evaluate_family(const Model& model, const Family& family, const EvalOptions& options) {
  if (family.m != model.width())
    throw UsageError("the family has width m=" + std::to_string(family.m) +
                     " but the model expects m=" + std::to_string(model.width()));
  detail::ReportBuilder builder("family", options.max_failures);
  for (const Instance& instance : family.instances) builder.add(evaluate_instance(model, instance));
  return builder.finish();
}

}  // namespace kernelrank
