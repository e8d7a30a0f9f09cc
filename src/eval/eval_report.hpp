// Internal: accumulates an EvalReport from outcomes produced by any path.
#pragma once

#include "kernelrank/eval/evaluate.hpp"

namespace kernelrank::detail {

// The outcome of an instance from its summed numerator and denominator
// (a zero denominator leaves the output undefined).
InstanceOutcome outcome_from_sums(const Instance& instance, const Rational& numerator,
                                  const Rational& denominator);

class ReportBuilder {
 public:
  ReportBuilder(std::string method, std::size_t max_failures);

  // Records one instance (or `weight` identical ones, for profiles). The
  // outcome is kept as a failure example / the worst instance only if needed.
  void add(const InstanceOutcome& outcome, const Integer& weight = 1);
  // Counts without an outcome object (fast paths keep their own maximum).
  void add_counts(const Integer& instances, const Integer& failing, const Integer& undefined);
  // Offers a candidate for the maximum error found by a fast path.
  void offer_max(const InstanceOutcome& outcome);
  bool wants_failure() const { return report_.failures.size() < max_failures_; }
  void keep_failure(const InstanceOutcome& outcome);

  EvalReport finish() { return std::move(report_); }

 private:
  EvalReport report_;
  std::size_t max_failures_;
};

}  // namespace kernelrank::detail
