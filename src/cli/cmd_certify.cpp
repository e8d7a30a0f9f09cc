// `kernelrank certify`: the best bound an arbitrary family supports (the pipeline:
// app/certify_job.hpp).
#include "commands.hpp"
#include "family_output.hpp"

#include "kernelrank/app/certify_job.hpp"
#include "kernelrank/app/result_json.hpp"
#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <memory>
#include <vector>

namespace kernelrank::cli {
namespace {

struct CertifyArgs {
  std::string family;
  std::string cert;
  std::string baseline;
  bool position_dependent = false;
  std::size_t show_incomplete = 10;
};

std::string lost_steps_text(const CertifyArgs& args, const std::vector<IncompletePattern>& lost) {
  std::string human =
      "steps of " + args.baseline + " no longer supported: " + std::to_string(lost.size()) + "\n";
  for (std::size_t shown = 0; shown < std::min(lost.size(), args.show_incomplete); ++shown)
    human += "  " + incomplete_pattern_text(lost[shown], false) + "\n";
  if (lost.size() > args.show_incomplete)
    human +=
        "  ... " + std::to_string(lost.size() - args.show_incomplete) + " more (--incomplete N)\n";
  return human;
}

int run_certify_command(const CertifyArgs& args, const GlobalOptions& global) {
  CertifyRequest request;
  request.family = args.family;
  request.certificate = args.cert;
  request.baseline = args.baseline;
  request.position_dependent = args.position_dependent;
  const CertifyOutcome c = run_certify(request);
  std::string human = "family " + args.family + ": " + std::to_string(c.instances) +
                      " instances, m=" + std::to_string(c.m) + ", n=" + std::to_string(c.n) + "\n";
  human += family_bound_text(c.bound, c.certificate, args.show_incomplete);
  if (c.lost_steps) human += lost_steps_text(args, *c.lost_steps);
  human += c.certificate_message;
  emit(global, certify_json(request, c, args.show_incomplete), human);
  return c.bound.found ? kExitOk : kExitNegative;
}

}  // namespace

void add_certify_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<CertifyArgs>();
  CLI::App* cmd =
      app.add_subcommand("certify", "Certify the best rank bound an explicit family supports");
  cmd->add_option("--family", args->family, "Family file")->required();
  cmd->add_option("--cert", args->cert, "Write the certificate here");
  cmd->add_option("--baseline", args->baseline,
                  "An earlier certificate: list its steps that this family no longer supports");
  cmd->add_flag("--position-dependent", args->position_dependent,
                "Bound position-dependent models (every arrangement of S3 needed)");
  cmd->add_option("--incomplete", args->show_incomplete,
                  "Incomplete patterns and lost steps to list")
      ->capture_default_str();
  run_when_selected(cmd, global, action, args, run_certify_command);
}

}  // namespace kernelrank::cli
