// `kernelrank transition`: the seed paper's phase transition in one table
// (app/transition.hpp computes it; this file parses the options and renders the table).
#include "commands.hpp"
#include "family_output.hpp"
#include "report_output.hpp"

#include "kernelrank/app/transition.hpp"
#include "kernelrank/core/errors.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct TransitionArgs {
  int m = 24;
  std::string cert;
};

std::string transition_text(const TransitionResult& t) {
  const int m = t.m;
  std::string human =
      "Min-IP phase transition for m = " + std::to_string(m) + " (exact arithmetic)\n\n";
  for (std::size_t i = 0; i < t.rank1.size(); ++i) {
    const EvalReport& r = t.rank1[i];
    human += " n=" + std::to_string(i + 1) + ": r = 1 suffices  (rank1-mean, " + r.method +
             ", max error " + to_string(*r.max_error) + " over " + r.instances.str() +
             " instances)\n";
  }
  const SoftmaxBaseResult& softmax = t.softmax;
  const Integer two_to_m = Integer(1) << static_cast<unsigned>(m);
  const SourcedCandidate& lower = t.lower.best;
  human += " n=3: " + lower.certificate.bound().str() + " <= r <= " + t.upper.str() +
           (t.upper == two_to_m ? " = 2^" + std::to_string(m) : "") + "\n";
  human += "      lower: certified by the " + to_string(lower.source) + " source (" +
           lower.description + "), as bound --m " + std::to_string(m) + " gives it\n" +
           checker_status_line(lower.certificate, "      ");
  if (t.layered)
    human += "      upper: layered " + to_string(t.layered->head.model_class) +
             " head, r = " + t.layered->checked.r.str() + " (" +
             (t.layered->file.empty() ? std::string("found now") : t.layered->file) +
             "), exact max error " + to_decimal(t.layered->checked.max_error, 12) +
             ", verified now by the exact evaluator and kernelrank-check\n";
  human += "      2^" + std::to_string(m) + ": product PF realisation, " +
           std::string(t.product_brute_force ? "brute force" : "profiles of its kernel") +
           ", max error " + exact_with_decimal(*t.product.max_error) + "\n";
  human += "      rank 1 fails: " + outcome_to_text(t.rank1_at_3.failures.front()) + "\n";
  human += "      dense softmax: m-dimensional scores, smallest integer base " +
           (softmax.base ? std::to_string(*softmax.base) : std::string("none")) + ", max error " +
           (softmax.base ? exact_with_decimal(*softmax.report.max_error) : std::string("-")) + "\n";
  if (!t.certificate_message.empty()) human += "\nthe n=3 lower bound: " + t.certificate_message;
  if (!t.consistent) human += "\nWARNING: a step did not come out as theory.md predicts\n";
  return human;
}

int run_transition_command(const TransitionArgs& args, const GlobalOptions& global) {
  const TransitionResult t = run_transition(TransitionRequest{args.m, args.cert});
  emit(global, transition_json(t), transition_text(t));
  return t.consistent ? kExitOk : kExitNegative;
}

}  // namespace

void add_transition_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<TransitionArgs>();
  CLI::App* cmd = app.add_subcommand(
      "transition",
      "The phase transition: r = 1 at n = 1, 2; certified bounds and 2^m at n = 3; softmax");
  cmd->add_option("--m", args->m, "Token width")->capture_default_str();
  cmd->add_option("--cert", args->cert, "Write the certificate of the n = 3 lower bound here");
  run_when_selected(cmd, global, action, args, run_transition_command);
}

}  // namespace kernelrank::cli
