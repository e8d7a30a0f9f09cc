// Rigorous verdicts for trained softmax heads, with float/decided disagreements
// (trained_ball_verification.hpp).
#include "kernelrank/eval/trained_ball_verification.hpp"

#include "kernelrank/core/errors.hpp"

#include <cmath>
#include <iterator>
#include <map>

namespace kernelrank {

BallSplitVerification verify_split_ball(const RealHead& head, const Family& family,
                                        const std::vector<double>& float_outputs,
                                        std::size_t max_listed, long max_precision) {
  if (float_outputs.size() != family.instances.size())
    throw InternalError("verify_split_ball: " + std::to_string(float_outputs.size()) +
                        " float outputs for " + std::to_string(family.instances.size()) +
                        " instances");
  BallSplitVerification out;
  out.instances = family.instances.size();
  const auto float_fails = [&](std::size_t i) {
    return !(std::fabs(float_outputs[i] - min_ip_target(family.instances[i])) < 0.5);
  };
  for (std::size_t i = 0; i < family.instances.size(); ++i)
    if (float_fails(i)) ++out.float_failing;
  BallOptions options;
  options.max_precision = max_precision;
  options.max_listed = 1;
  // One ball evaluation per instance: the report and the comparison with float both read it.
  // Outcomes arrive out of order (undecided ones come back from later passes), so the
  // disagreements with the lowest indices are kept.
  std::map<std::size_t, BallDisagreement> first;
  out.rigorous =
      evaluate_ball_family(head, family, options, [&](std::size_t i, const BallOutcome& ball) {
        if (ball.verdict == BallVerdict::Undecided) return;
        const bool fails = float_fails(i);
        if ((ball.verdict == BallVerdict::Fails) == fails) return;
        ++out.disagreement_count;
        if (first.size() == max_listed && (max_listed == 0 || i > first.rbegin()->first)) return;
        first.emplace(
            i, BallDisagreement{ball.instance, ball.target, float_outputs[i], ball.output, fails});
        if (first.size() > max_listed) first.erase(std::prev(first.end()));
      });
  for (auto& [index, disagreement] : first) out.disagreements.push_back(std::move(disagreement));
  return out;
}

}  // namespace kernelrank
