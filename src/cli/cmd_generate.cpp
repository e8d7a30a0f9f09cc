// `kernelrank generate`: seeded, disjoint train/test instance pools for
// machine-learning experiments, with targets.
#include "commands.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/generate.hpp"
#include "kernelrank/core/resource_limits.hpp"

#include <memory>
#include <optional>

namespace kernelrank::cli {
namespace {

constexpr std::size_t kMaxGenerated = 10'000'000;

struct GenerateArgs {
  int m = 24;
  int n = 3;
  std::string mode = "first";
  std::string code;
  std::string golay;
  std::optional<int> weight;
  std::uint64_t seed = 1;
  std::size_t train = 1000;
  std::size_t test = 1000;
  std::string prefix;
  std::string format = "all";
};

int run_generate(const GenerateArgs& args, const GlobalOptions& global) {
  if (args.format != "family" && args.format != "csv" && args.format != "jsonl" &&
      args.format != "all")
    throw UsageError("--format must be family, csv, jsonl or all");
  GenerateOptions options;
  options.m = args.m;
  options.n = args.n;
  options.mode = parse_query_mode(args.mode);
  options.seed = args.seed;
  options.train = args.train;
  options.test = args.test;
  options.weight = args.weight;
  std::string source = args.weight
                           ? "uniformly random tokens of weight " + std::to_string(*args.weight) +
                                 " and width " + std::to_string(args.m)
                           : "uniformly random tokens";
  if (!args.code.empty()) {
    const Code code = read_code(args.code);
    options.tokens = code.words;
    options.m = code.m;
    source = "the words of " + args.code;
  } else if (!args.golay.empty()) {
    if (args.golay != "octads" && args.golay != "dodecads")
      throw UsageError("--golay must be octads or dodecads");
    options.tokens = (args.golay == "octads" ? golay_octads() : golay_dodecads()).words;
    options.m = 24;
    source = "the Golay " + args.golay;
  }
  // Checked here one by one: their sum can wrap around in generate_instances.
  for (const std::size_t count : {args.train, args.test})
    if (count > kMaxGenerated)
      throw ResourceError("--train and --test take at most " + std::to_string(kMaxGenerated) +
                          " instances each, not " + std::to_string(count));
  if (options.n >= 1 && options.m >= 1) {
    require_family_file_size(args.train > args.test ? args.train : args.test, options.n, options.m,
                             "generate");
    // Every instance is kept twice while drawing (the list and the set of seen ones).
    require_instance_memory(args.train + args.test, options.n, options.m, 2, "generate");
  }
  const GeneratedSets sets = generate_instances(options);
  std::vector<std::string> written;
  auto write = [&](const std::string& split, const Family& family) {
    if (args.format == "family" || args.format == "all") {
      write_file_atomically(args.prefix + "-" + split + ".family", family_to_text(family));
      written.push_back(args.prefix + "-" + split + ".family");
    }
    if (args.format == "csv" || args.format == "all") {
      write_file_atomically(args.prefix + "-" + split + ".csv", family_to_csv(family));
      written.push_back(args.prefix + "-" + split + ".csv");
    }
    if (args.format == "jsonl" || args.format == "all") {
      write_file_atomically(args.prefix + "-" + split + ".jsonl", family_to_jsonl(family));
      written.push_back(args.prefix + "-" + split + ".jsonl");
    }
  };
  write("train", sets.train);
  write("test", sets.test);
  std::string human = "generated " + std::to_string(sets.train.instances.size()) +
                      " training and " + std::to_string(sets.test.instances.size()) +
                      " test instances (disjoint) of length " + std::to_string(options.n) +
                      " over " + source + ", seed " + std::to_string(args.seed) + "\n";
  for (const std::string& path : written) human += "  " + path + "\n";
  emit(global,
       {{"train", sets.train.instances.size()},
        {"test", sets.test.instances.size()},
        {"files", written}},
       human);
  return kExitOk;
}

}  // namespace

void add_generate_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<GenerateArgs>();
  CLI::App* cmd =
      app.add_subcommand("generate", "Seeded disjoint train/test instance sets with targets");
  cmd->add_option("--m", args->m, "Token width (random tokens)")->capture_default_str();
  cmd->add_option("--n", args->n, "Sequence length")->capture_default_str();
  cmd->add_option("--mode", args->mode, "Query position: first, last or all (random)")
      ->capture_default_str();
  auto* code = cmd->add_option("--code", args->code, "Draw tokens from this code file");
  auto* golay =
      cmd->add_option("--golay", args->golay, "Draw tokens from the Golay octads or dodecads");
  code->excludes(golay);
  cmd->add_option("--weight", args->weight,
                  "Random tokens of this weight only (uniform over the weight-W words, 0..m)")
      ->excludes(code)
      ->excludes(golay);
  cmd->add_option("--seed", args->seed, "Random seed")->capture_default_str();
  cmd->add_option("--train", args->train, "Training instances")->capture_default_str();
  cmd->add_option("--test", args->test, "Test instances")->capture_default_str();
  cmd->add_option("--out-prefix", args->prefix, "Output prefix: PREFIX-train.family, ...")
      ->required();
  cmd->add_option("--format", args->format, "family, csv, jsonl or all")->capture_default_str();
  run_when_selected(cmd, global, action, args, run_generate);
}

}  // namespace kernelrank::cli
