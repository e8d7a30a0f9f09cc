// `kernelrank upper`: the cheapest layered head the exact layer-set search finds for T(m,3)
// (app/upper_job.hpp runs it; this file parses the options and renders the result).
#include "commands.hpp"
#include "option_checks.hpp"

#include "kernelrank/app/upper_job.hpp"
#include "kernelrank/bounds/layered_search.hpp"
#include "kernelrank/core/errors.hpp"

#include "kernelrank/core/progress.hpp"

#include <unistd.h>

#include <iostream>
#include <memory>

namespace kernelrank::cli {
namespace {

struct UpperArgs {
  int m = 24;
  std::string model_class = "PF";
  std::string out;
  int lp_budget = 2000;
};

std::string layers_text(const std::vector<int>& layers) {
  std::string text;
  for (const int j : layers) text += (text.empty() ? "" : ", ") + std::to_string(j);
  return "{" + text + "}";
}

std::string upper_text(const UpperResult& u) {
  const std::string task = "T(" + std::to_string(u.m) + ",3)";
  if (!u.head)
    return "no layered head of class " + to_string(u.model_class) + " for " + task + " within " +
           std::to_string(u.lps) + " LPs (" + std::to_string(u.refuted) +
           " layer sets refuted); raise --lp-budget\n";
  std::string text = "layered head for " + task + ", class " + to_string(u.model_class) +
                     ": r = " + u.r.str() + " features\n";
  text += "  layers J = " + layers_text(u.head->layers) + ", K(u) = sum_j c_j C(u, j)\n";
  text += "  exact max error " + to_decimal(u.max_error, 12) + " < 1/2 over all " +
          std::to_string((u.m + 1) * (u.m + 2) * (u.m + 3) / 6) + " profiles (exact evaluator)\n";
  text += "  LP margin t = " + to_scientific(u.margin, 3) +
          (u.model_class == ModelClass::PositiveFeatures ? " (normalised K(m) = 1)"
                                                         : " (normalised K(0) = 1)") +
          "\n";
  text += std::string(u.optimal ? "  the optimum among layered heads: every cheaper layer set was "
                                  "refuted by an exact LP"
                                : "  best found: the LP budget ran out before every cheaper "
                                  "layer set was refuted") +
          " (" + std::to_string(u.lps) + " LPs, " + std::to_string(u.refuted) + " refuted)\n";
  text += "  verified: kernelrank-check (in memory) gives r <= " + u.r.str() + "\n";
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", u.seconds);
  text += "  time " + std::string(seconds) + " s\n";
  text += u.message;
  return text;
}

int run_upper_command(const UpperArgs& args, const GlobalOptions& global) {
  const std::optional<ModelClass> model_class = parse_model_class(args.model_class);
  if (!model_class || *model_class == ModelClass::Signed)
    throw UsageError("--class must be PF or NK, not '" + args.model_class + "'");
  UpperRequest request;
  request.m = args.m;
  request.model_class = *model_class;
  request.out = args.out;
  request.lp_budget = static_cast<std::size_t>(args.lp_budget);
  const bool show = !global.quiet && Progress::allowed() && isatty(STDERR_FILENO) != 0;
  if (show)
    request.progress = [](const std::string& line) { std::cerr << "\r" << line << "\033[K"; };
  const UpperResult result = run_upper(request);
  if (show) std::cerr << "\r\033[K";
  emit(global, upper_json(result), upper_text(result));
  return result.head ? kExitOk : kExitNegative;
}

}  // namespace

void add_upper_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<UpperArgs>();
  CLI::App* cmd = app.add_subcommand(
      "upper", "The cheapest layered head for T(m,3) by exact LPs, verified by the checker");
  cmd->add_option("--m", args->m, "Token width (1.." + std::to_string(kMaxLayeredSearchWidth) + ")")
      ->capture_default_str();
  cmd->add_option("--class", args->model_class, "PF or NK")->capture_default_str();
  cmd->add_option("--out", args->out, "Write the head (a kind=layered model file) here");
  cmd->add_option("--lp-budget", args->lp_budget, "Exact LPs the layer-set search may solve")
      ->check(in_range(1, 1000000))
      ->capture_default_str();
  run_when_selected(cmd, global, action, args, run_upper_command);
}

}  // namespace kernelrank::cli
