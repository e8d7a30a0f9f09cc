// `kernelrank construct`: an exact head for a family by the graded complement-detector
// construction, written as a model file only after the file's own text, read back, solves
// the family in the exact evaluator (the pipeline: app/construct_job.hpp).
#include "commands.hpp"
#include "report_output.hpp"

#include "kernelrank/app/construct_job.hpp"
#include "kernelrank/app/result_json.hpp"
#include "kernelrank/core/errors.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct ConstructArgs {
  std::string family;
  std::string out;
  std::string slope;
  std::string diagonal;
};

int run_construct_command(const ConstructArgs& args, const GlobalOptions& global) {
  if (args.out.empty()) throw UsageError("construct needs --out MODEL");
  ConstructRequest request;
  request.family = args.family;
  request.out = args.out;
  if (!args.slope.empty()) request.slope = args.slope;
  if (!args.diagonal.empty()) request.diagonal = args.diagonal;
  const ConstructOutcome c = run_construct(request);
  const ComplementHead& head = c.head;
  std::string human =
      "family " + args.family + ": " + std::to_string(c.instances) + " instances, " +
      std::to_string(head.queries.size()) + " distinct queries (linearly independent)\n" +
      "graded complement-detector relu head: r = " + std::to_string(head.queries.size()) +
      ", slope a = " + to_string(head.slope) + ", diagonal B = " + to_string(head.diagonal) + " (" +
      std::to_string(head.candidates) + " candidates evaluated)\n";
  human += report_to_text(c.report);
  human += c.written ? "solves the family exactly: written to " + args.out + "\n"
                     : "does not solve the family: nothing written\n";
  emit(global, construct_json(request, c), human);
  return c.solves() ? kExitOk : kExitNegative;
}

}  // namespace

void add_construct_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<ConstructArgs>();
  CLI::App* cmd = app.add_subcommand(
      "construct", "Build an exact relu head for a family (graded complement detectors)");
  cmd->add_option("--family", args->family, "Family file")->required();
  cmd->add_option("--out", args->out, "Write the model here (only when it solves the family)")
      ->required();
  cmd->add_option("--slope", args->slope,
                  "Slope a of the key features, an exact number >= 0 (default: chosen)");
  cmd->add_option("--diagonal", args->diagonal,
                  "Query feature B on the query's own detector, an exact number > 0 "
                  "(default: chosen)");
  run_when_selected(cmd, global, action, args, run_construct_command);
}

}  // namespace kernelrank::cli
