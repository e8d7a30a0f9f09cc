// `kernelrank softmax-base`: the smallest integer base that makes dense softmax
// solve T(m,n), certified by failing instances below it and an exact maximum
// error at it (theory.md L5).
#include "commands.hpp"
#include "report_output.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/eval/softmax_base.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct SoftmaxBaseArgs {
  int m = 8;
  int n = 3;
  int max_base = 1000;
};

int run_softmax_base(const SoftmaxBaseArgs& args, const GlobalOptions& global) {
  // Every base tried is one profile evaluation of T(m,n).
  if (args.m >= 1 && args.n >= 1)
    require_profile_work(args.m, args.n, kDefaultMaxProfileWork, "; lower --m or --n",
                         kProfileLengthHint);
  const SoftmaxBaseResult result = smallest_softmax_base(args.m, args.n, args.max_base);
  nlohmann::json refuted = nlohmann::json::array();
  std::string human = "dense softmax on T(" + std::to_string(args.m) + "," +
                      std::to_string(args.n) + "): alpha = B^-<q,z>, F_q(z) = <q,z>\n";
  for (const RefutedBase& r : result.refuted) {
    refuted.push_back({{"base", r.base}, {"failing_instance", outcome_to_json(r.failing)}});
    human += "  B=" + std::to_string(r.base) + "  fails: " + outcome_to_text(r.failing) + "\n";
  }
  nlohmann::json json = {{"m", args.m},
                         {"n", args.n},
                         {"refuted_bases", refuted},
                         {"brute_force_cross_check", result.brute_force_checked}};
  if (result.base) {
    json["smallest_base"] = *result.base;
    json["max_error"] = to_string(*result.report.max_error);
    json["instances"] = result.report.instances.str();
    json["worst"] = outcome_to_json(*result.report.worst);
    human += "  B=" + std::to_string(*result.base) + "  solves: max error " +
             exact_with_decimal(*result.report.max_error) + " over all " +
             result.report.instances.str() + " instances (overlap profiles)\n" +
             "        worst: " + outcome_to_text(*result.report.worst) + "\n";
    human += "smallest integer base: " + std::to_string(*result.base) + "\n";
  } else {
    json["smallest_base"] = nullptr;
    human += "no integer base up to " + std::to_string(args.max_base) + " works\n";
  }
  if (result.brute_force_checked)
    human += "cross-check: brute force agreed with the profiles at every base tried\n";
  emit(global, json, human);
  return result.base ? kExitOk : kExitNegative;
}

}  // namespace

void add_softmax_base_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<SoftmaxBaseArgs>();
  CLI::App* cmd = app.add_subcommand(
      "softmax-base", "Find and certify the smallest integer softmax base that solves T(m,n)");
  cmd->add_option("--m", args->m, "Token width")->capture_default_str();
  cmd->add_option("--n", args->n, "Sequence length")->capture_default_str();
  cmd->add_option("--max-base", args->max_base, "Largest base to try")->capture_default_str();
  run_when_selected(cmd, global, action, args, run_softmax_base);
}

}  // namespace kernelrank::cli
