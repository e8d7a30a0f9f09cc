// `kernelrank generate`: seeded, disjoint train/test instance pools for
// machine-learning experiments, with targets.
#include "commands.hpp"

#include "kernelrank/core/errors.hpp"

#include "kernelrank/app/generate_job.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

namespace kernelrank::cli {
namespace {

// The options fill the app's request directly; only the mode is parsed.
struct GenerateArgs {
  GenerateRequest request;
  std::string mode = "first";
};

int run_generate(const GenerateArgs& args, const GlobalOptions& global) {
  GenerateRequest request = args.request;
  request.mode = parse_query_mode(args.mode);
  const GenerateOutcome out = kernelrank::run_generate(request);
  std::string human = "generated " + std::to_string(out.sets.train.instances.size()) +
                      " training and " + std::to_string(out.sets.test.instances.size()) +
                      " test instances (disjoint) of length " + std::to_string(out.n) + " over " +
                      out.source + ", seed " + std::to_string(out.seed) + "\n";
  for (const std::string& path : out.files) human += "  " + path + "\n";
  emit(global, generate_json(out), human);
  return kExitOk;
}

}  // namespace

void add_generate_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<GenerateArgs>();
  CLI::App* cmd =
      app.add_subcommand("generate", "Seeded disjoint train/test instance sets with targets");
  cmd->add_option("--m", args->request.m, "Token width (random tokens)")->capture_default_str();
  cmd->add_option("--n", args->request.n, "Sequence length")->capture_default_str();
  cmd->add_option("--mode", args->mode, "Query position: first, last or all (random)")
      ->capture_default_str();
  auto* code = cmd->add_option("--code", args->request.code, "Draw tokens from this code file");
  auto* golay = cmd->add_option("--golay", args->request.golay,
                                "Draw tokens from the Golay octads or dodecads");
  code->excludes(golay);
  cmd->add_option("--weight", args->request.weight,
                  "Random tokens of this weight only (uniform over the weight-W words, 0..m)")
      ->excludes(code)
      ->excludes(golay);
  cmd->add_option("--seed", args->request.seed, "Random seed")->capture_default_str();
  cmd->add_option("--train", args->request.train, "Training instances")->capture_default_str();
  cmd->add_option("--test", args->request.test, "Test instances")->capture_default_str();
  cmd->add_option("--out-prefix", args->request.prefix, "Output prefix: PREFIX-train.family, ...")
      ->required();
  cmd->add_option("--format", args->request.format, "family, csv, jsonl or all")
      ->capture_default_str();
  run_when_selected(cmd, global, action, args, run_generate);
}

}  // namespace kernelrank::cli
