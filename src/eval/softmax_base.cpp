// Search for the smallest softmax base that solves T(m,n) (theory.md L5).
#include "kernelrank/eval/softmax_base.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/builtin_models.hpp"

namespace kernelrank {
namespace {

void require_agreement(const EvalReport& profiles, const EvalReport& brute, int base) {
  if (profiles.instances != brute.instances || profiles.failing != brute.failing ||
      profiles.undefined != brute.undefined || profiles.max_error != brute.max_error)
    throw InternalError("softmax base " + std::to_string(base) +
                        ": overlap profiles and brute force disagree");
}

}  // namespace

SoftmaxBaseResult smallest_softmax_base(int m, int n, int max_base,
                                        std::uint64_t brute_force_limit) {
  if (m < 1) throw UsageError("m must be at least 1");
  if (n < 1) throw UsageError("n must be at least 1");
  if (max_base < 1) throw DomainError("{max-base} must be at least 1");
  SoftmaxBaseResult result;
  result.m = m;
  result.n = n;
  const bool brute_force = static_cast<long double>(m) * n <= 63 &&
                           static_cast<long double>(std::uint64_t{1} << (m * n)) <=
                               static_cast<long double>(brute_force_limit);
  result.brute_force_checked = brute_force;
  EvalOptions options;
  options.max_failures = 1;
  for (int base = 1; base <= max_base; ++base) {
    const auto model = make_softmax(m, Rational(base));
    EvalReport report = evaluate_profiles(*model->overlap_form(), m, n, options);
    if (brute_force) require_agreement(report, evaluate_cube(*model, m, n, options), base);
    if (report.solves()) {
      result.base = base;
      result.report = std::move(report);
      return result;
    }
    // The worst instance fails whenever any does (its error is the largest),
    // unless the failures are zero denominators, which softmax never has.
    RefutedBase refuted{base, report.worst ? *report.worst : report.failures.front()};
    if (!refuted.failing.fails())
      throw InternalError("softmax base search: the reported instance does not fail");
    result.refuted.push_back(std::move(refuted));
    result.report = std::move(report);
  }
  return result;
}

}  // namespace kernelrank
