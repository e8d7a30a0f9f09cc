// Rigorous verdicts for trained softmax heads, with float/decided disagreements
// (trained_ball_verification.hpp).
#include "kernelrank/eval/trained_ball_verification.hpp"

#include "kernelrank/core/errors.hpp"

#include <cmath>

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
  BallOptions options;
  options.max_precision = max_precision;
  options.max_listed = 1;
  out.rigorous = evaluate_ball_family(head, family, options);
  for (std::size_t i = 0; i < family.instances.size(); ++i) {
    const Instance& instance = family.instances[i];
    const int target = min_ip_target(instance);
    const bool fails = !(std::fabs(float_outputs[i] - target) < 0.5);
    if (fails) ++out.float_failing;
    BallOutcome ball = evaluate_ball_instance(head, instance, options.precision);
    for (long bits = 2 * options.precision;
         ball.verdict == BallVerdict::Undecided && bits <= max_precision; bits *= 2)
      ball = evaluate_ball_instance(head, instance, bits);
    if (ball.verdict == BallVerdict::Undecided) continue;
    if ((ball.verdict == BallVerdict::Fails) == fails) continue;
    ++out.disagreement_count;
    if (out.disagreements.size() < max_listed)
      out.disagreements.push_back({instance, target, float_outputs[i], ball.output, fails});
  }
  return out;
}

}  // namespace kernelrank
