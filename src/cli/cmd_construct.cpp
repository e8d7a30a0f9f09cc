// `kernelrank construct`: an exact head for a family by the graded complement-detector
// construction (bounds/family_construction.hpp), written as a model file only after the
// file's own text, read back, solves the family in the exact evaluator.
#include "commands.hpp"
#include "report_output.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/bounds/family_construction.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/parametric_writer.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct ConstructArgs {
  std::string family;
  std::string out;
  std::string slope;
  std::string diagonal;
};

std::optional<Rational> rational_option(const std::string& text, const std::string& flag) {
  if (text.empty()) return std::nullopt;
  try {
    return parse_rational(text);
  } catch (const std::exception& e) {
    throw UsageError(flag + ": expected an exact number such as 3/8, found '" + text +
                     "': " + e.what());
  }
}

int run_construct(const ConstructArgs& args, const GlobalOptions& global) {
  ComplementHeadOptions options;
  options.slope = rational_option(args.slope, "--slope");
  options.diagonal = rational_option(args.diagonal, "--diagonal");
  const Family family = read_family(args.family);
  const ComplementHead head = construct_complement_head(family, options);
  const std::string text = parametric_model_to_text(*head.model);

  nlohmann::json json = {{"family", args.family},
                         {"instances", family.instances.size()},
                         {"queries", head.queries.size()},
                         {"r", head.queries.size()},
                         {"activation", "relu"},
                         {"slope", to_string(head.slope)},
                         {"diagonal", to_string(head.diagonal)},
                         {"candidates", head.candidates}};
  std::string human =
      "family " + args.family + ": " + std::to_string(family.instances.size()) + " instances, " +
      std::to_string(head.queries.size()) + " distinct queries (linearly independent)\n" +
      "graded complement-detector relu head: r = " + std::to_string(head.queries.size()) +
      ", slope a = " + to_string(head.slope) + ", diagonal B = " + to_string(head.diagonal) + " (" +
      std::to_string(head.candidates) + " candidates evaluated)\n";
  // The verdict is the exact evaluation of the text that would be written, read back.
  const EvalReport report = evaluate_family(*parse_model(args.out, text), family, EvalOptions{});
  if (report.solves() != head.report.solves() || report.max_error != head.report.max_error)
    throw InternalError("construct: the written text evaluates differently from the model built");
  json["evaluation"] = report_to_json(report);
  human += report_to_text(report);
  if (report.solves()) {
    write_file_atomically(args.out, text);
    json["file"] = args.out;
    human += "solves the family exactly: written to " + args.out + "\n";
  } else {
    human += "does not solve the family: nothing written\n";
  }
  emit(global, json, human);
  return report.solves() ? kExitOk : kExitNegative;
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
  run_when_selected(cmd, global, action, args, run_construct);
}

}  // namespace kernelrank::cli
