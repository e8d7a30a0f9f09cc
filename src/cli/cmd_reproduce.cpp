// `kernelrank reproduce`: the default job (app/reproduce_job.hpp re-checks, with exact
// arithmetic, the facts of theory.md the engine can verify on shipped defaults; this file
// parses the options and renders the claims).
#include "commands.hpp"

#include "kernelrank/app/reproduce_job.hpp"
#include "kernelrank/core/errors.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

int run_reproduce_command(const ReproduceRequest& request, const GlobalOptions& global) {
  const ReproduceResult result = run_reproduce(request);
  std::string human = "kernelrank reproduce: exact checks of theory.md on shipped defaults\n";
  for (const ReproduceClaim& c : result.claims) {
    human += std::string(c.holds ? "[ok]     " : "[FAILED] ") + c.name + "\n         " +
             c.evidence + "\n";
    if (!c.checker_status.empty())
      human += "         checked in memory by kernelrank-check: " + c.checker_status + "\n";
  }
  human += result.certificate_message;
  human += result.all_hold ? "all claims verified\n" : "SOME CLAIMS FAILED\n";
  emit(global, reproduce_json(request, result), human);
  return result.all_hold ? kExitOk : kExitNegative;
}

}  // namespace

void add_reproduce_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<ReproduceRequest>();
  CLI::App* cmd = app.add_subcommand(
      "reproduce", "Default job: re-verify L1, L5, the Golay codes and the m = 24 bound exactly");
  cmd->add_option("--small-m", args->small_m, "Width for brute force")->capture_default_str();
  cmd->add_option("--large-m", args->large_m, "Width for overlap profiles")->capture_default_str();
  cmd->add_option("--cert", args->certificate,
                  "Write the certificate of the m = 24 bound (check it with kernelrank-check)");
  run_when_selected(cmd, global, action, args, run_reproduce_command);
}

}  // namespace kernelrank::cli
