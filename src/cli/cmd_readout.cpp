// `kernelrank readout`: keep the kernel of a tabular model and search a readout that solves
// a family, by exact linear arithmetic (docs/search.md).
#include "commands.hpp"
#include "report_output.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/search/rank_search.hpp"  // z3_version
#include "kernelrank/search/readout_feasibility.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct ReadoutArgs {
  std::string model;
  std::string family;
  int n = -1;
  std::string out;
  std::string format = "text";
  double timeout = 60;
};

int run_readout(const ReadoutArgs& args, const GlobalOptions& global) {
  if (args.format != "text" && args.format != "json")
    throw UsageError("--format must be text or json, not " + args.format);
  if (args.timeout <= 0) throw UsageError("--timeout must be > 0 seconds");
  const std::unique_ptr<Model> model = read_model(args.model);
  const auto* tabular = dynamic_cast<const TabularModel*>(model.get());
  if (!tabular)
    throw UsageError(args.model +
                     ": the readout search needs a tabular model (kind=tabular or the JSON form)");
  if (tabular->position_dependent())
    throw UsageError(args.model + ": position-dependent tables are not supported here");
  Family family;
  std::string what;
  if (!args.family.empty()) {
    if (args.n >= 0) throw UsageError("give either --family or --n, not both");
    family = read_family(args.family);
    what = "family " + args.family;
  } else {
    if (args.n < 1 || args.n > 4)
      throw UsageError(
          "--family FILE or --n (1..4: all sequences over the model's tokens) is required");
    const std::vector<Token>& tokens = tabular->tokens();
    count_instances(tokens.size(), args.n, QueryMode::First, 1ULL << 22);
    family.m = tabular->width();
    family.n = args.n;
    for_each_sequence(tokens.size(), args.n, QueryMode::First,
                      [&](const std::vector<std::uint32_t>& idx, int query) {
                        Instance inst;
                        inst.query = query;
                        for (std::uint32_t i : idx) inst.tokens.push_back(tokens[i]);
                        family.instances.push_back(std::move(inst));
                        return true;
                      });
    what = "all " + std::to_string(family.instances.size()) + " length-" + std::to_string(args.n) +
           " sequences over the model's tokens (query first)";
  }
  if (family.m != tabular->width())
    throw UsageError("the family has m = " + std::to_string(family.m) +
                     " but the model has m = " + std::to_string(tabular->width()));
  const ReadoutFeasibility result =
      find_readout(tabular->width(), tabular->tokens(), tabular->kernel_table(), family,
                   static_cast<unsigned>(args.timeout * 1000));
  nlohmann::json json = {{"model", args.model},
                         {"task", what},
                         {"status", to_string(result.status)},
                         {"detail", result.detail},
                         {"z3_version", z3_version()}};
  std::string human = "readout search for the kernel of " + args.model + " on " + what + ":\n  " +
                      to_string(result.status) + ": " + result.detail + "\n";
  if (result.model && !args.out.empty()) {
    write_file_atomically(args.out, args.format == "json" ? tabular_model_to_json(*result.model)
                                                          : tabular_model_to_text(*result.model));
    json["file"] = args.out;
    human += "  model (kernel kept, readout found) written to " + args.out + "\n";
  }
  emit(global, json, human);
  switch (result.status) {
    case FeasibilityStatus::Feasible:
      return kExitOk;
    case FeasibilityStatus::Infeasible:
      return kExitNegative;
    case FeasibilityStatus::Unknown:
      return kExitUnknown;
  }
  return kExitInternal;
}

}  // namespace

void add_readout_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto readout = std::make_shared<ReadoutArgs>();
  CLI::App* rcmd = app.add_subcommand("readout",
                                      "Keep the kernel of a tabular model and search a readout "
                                      "that solves a family (exact, linear)");
  rcmd->add_option("--model", readout->model, "Tabular model file (text or JSON)")->required();
  rcmd->add_option("--family", readout->family, "Family file");
  rcmd->add_option("--n", readout->n,
                   "Instead of a family: all length-n sequences over the model's tokens");
  rcmd->add_option("--out", readout->out, "Write the model with the readout found");
  rcmd->add_option("--format", readout->format, "Model file format: text or json")
      ->capture_default_str();
  rcmd->add_option("--timeout", readout->timeout, "Z3 timeout in seconds")->capture_default_str();
  run_when_selected(rcmd, global, action, readout, run_readout);
}

}  // namespace kernelrank::cli
