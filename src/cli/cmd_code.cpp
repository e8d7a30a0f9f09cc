// `kernelrank code`: build or read a constant-weight code and report its exact
// statistics (size, weights, minimum distance, distance distribution).
//
// Exactly one construction is chosen per run; parameters that the chosen
// construction does not use are refused rather than silently ignored, so a
// typo cannot produce a different code than the one asked for.
#include "commands.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/resource_limits.hpp"

#include <cmath>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace kernelrank::cli {
namespace {

struct CodeOptions {
  bool johnson = false;
  bool lexicode = false;
  bool random = false;
  std::string golay;
  std::string file;
  int m = 0;
  int w = 0;
  int d = 0;
  std::uint64_t seed = 0;
  int max_failures = 2000;
  std::size_t max_words = 100'000;
  std::uint64_t limit = 0;
  std::string out;

  CLI::Option* m_option = nullptr;
  CLI::Option* w_option = nullptr;
  CLI::Option* d_option = nullptr;
  CLI::Option* seed_option = nullptr;
  CLI::Option* max_failures_option = nullptr;
  CLI::Option* max_words_option = nullptr;
  CLI::Option* limit_option = nullptr;
};

bool given(const CLI::Option* option) { return option->count() > 0; }

// Refuses options the chosen construction does not use and demands the ones it needs.
void check_parameters(const CodeOptions& o, const std::string& construction,
                      const std::vector<const CLI::Option*>& needed,
                      const std::vector<const CLI::Option*>& allowed) {
  for (const CLI::Option* option : needed)
    if (!given(option)) throw UsageError("code " + construction + " needs " + option->get_name());
  const std::vector<const CLI::Option*> all = {
      o.m_option,         o.w_option,    o.d_option, o.seed_option, o.max_failures_option,
      o.max_words_option, o.limit_option};
  for (const CLI::Option* option : all) {
    if (!given(option)) continue;
    bool used = false;
    for (const CLI::Option* n : needed) used = used || n == option;
    for (const CLI::Option* a : allowed) used = used || a == option;
    if (!used) throw UsageError(option->get_name() + " does not apply to code " + construction);
  }
}

Code build_code(const CodeOptions& o) {
  const int chosen = static_cast<int>(o.johnson) + static_cast<int>(o.lexicode) +
                     static_cast<int>(o.random) + static_cast<int>(!o.golay.empty()) +
                     static_cast<int>(!o.file.empty());
  if (chosen != 1)
    throw UsageError(
        "code: choose exactly one of --johnson, --lexicode, --random, --golay, "
        "--file (" +
        std::to_string(chosen) + " given)");
  if (o.johnson) {
    check_parameters(o, "--johnson", {o.m_option, o.w_option}, {o.limit_option});
    // The code is built in full before its statistics, so their cost is checked first.
    if (o.m >= 1 && o.w >= 0 && o.w <= o.m) {
      const double words = std::round(
          std::exp(std::lgamma(o.m + 1.0) - std::lgamma(o.w + 1.0) - std::lgamma(o.m - o.w + 1.0)));
      if (words <= double(given(o.limit_option) ? o.limit : 10'000'000))
        require_pair_work(static_cast<std::uint64_t>(words), o.m, "code --johnson",
                          "choose a smaller m or w, or --lexicode or --random");
    }
    return given(o.limit_option) ? johnson_code(o.m, o.w, o.limit) : johnson_code(o.m, o.w);
  }
  if (o.lexicode) {
    check_parameters(o, "--lexicode", {o.m_option, o.w_option, o.d_option}, {o.limit_option});
    return given(o.limit_option) ? lexicode(o.m, o.w, o.d, o.limit) : lexicode(o.m, o.w, o.d);
  }
  if (o.random) {
    check_parameters(o, "--random", {o.m_option, o.w_option, o.d_option, o.seed_option},
                     {o.max_failures_option, o.max_words_option});
    // Each draw is compared with every word kept so far, up to --max-words of them.
    require_pair_work(o.max_words, o.m, "code --random", "lower --max-words");
    return random_greedy_code(o.m, o.w, o.d, o.seed, o.max_failures, o.max_words);
  }
  if (!o.golay.empty()) {
    check_parameters(o, "--golay", {}, {});
    if (o.golay == "octads") return golay_octads();
    if (o.golay == "dodecads") return golay_dodecads();
    throw UsageError("--golay must be 'octads' or 'dodecads', got '" + o.golay + "'");
  }
  check_parameters(o, "--file", {}, {});
  return read_code(o.file);
}

int run_code(const CodeOptions& o, const GlobalOptions& global) {
  const Code code = build_code(o);
  require_pair_work(code.words.size(), code.m, "code statistics", "use a smaller code");
  const CodeStatistics stats = code_statistics(code);
  if (!o.out.empty()) write_file_atomically(o.out, code_to_text(code));

  nlohmann::json json;
  json["construction"] = code.construction;
  json["size"] = stats.size;
  json["m"] = stats.m;
  json["constant_weight"] = stats.constant_weight;
  json["min_weight"] = stats.min_weight;
  json["max_weight"] = stats.max_weight;
  json["min_distance"] = stats.min_distance;
  json["has_duplicates"] = stats.has_duplicates;
  json["distance_distribution"] = nlohmann::json::array();
  for (const auto& [distance_value, pairs] : stats.distance_distribution)
    json["distance_distribution"].push_back({{"distance", distance_value}, {"pairs", pairs}});
  if (!o.out.empty()) json["out"] = o.out;

  std::ostringstream human;
  human << "code: " << code.construction << "\n";
  human << "words: " << stats.size << "\n";
  human << "width: " << stats.m << "\n";
  if (stats.constant_weight)
    human << "weight: " << stats.min_weight << " (constant)\n";
  else
    human << "weights: " << stats.min_weight << ".." << stats.max_weight << " (not constant)\n";
  human << "minimum distance: " << stats.min_distance
        << (stats.size < 2 ? " (fewer than two words)" : "") << "\n";
  human << "duplicates: " << (stats.has_duplicates ? "yes" : "none") << "\n";
  human << "distance distribution (distance: unordered pairs):\n";
  for (const auto& [distance_value, pairs] : stats.distance_distribution)
    human << "  " << distance_value << ": " << pairs << "\n";
  if (!o.out.empty()) human << "wrote " << o.out << "\n";
  emit(global, json, human.str());
  return kExitOk;
}

}  // namespace

void add_code_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto options = std::make_shared<CodeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "code", "Build or read a constant-weight code and print its exact statistics");
  cmd->add_flag("--johnson", options->johnson, "All weight-w words of width m (needs --m --w)");
  cmd->add_flag("--lexicode", options->lexicode,
                "Greedy lexicode over the weight-w words (needs --m --w --d)");
  cmd->add_flag("--random", options->random,
                "Seeded random greedy code (needs --m --w --d --seed)");
  cmd->add_option("--golay", options->golay,
                  "Extended Golay code words: 'octads' (759) or 'dodecads' (2576)");
  cmd->add_option("--file", options->file, "Read a code file (one 0/1 word per line)");
  options->m_option = cmd->add_option("--m", options->m, "Word width");
  options->w_option = cmd->add_option("--w", options->w, "Word weight");
  options->d_option = cmd->add_option("--d", options->d, "Minimum distance");
  options->seed_option = cmd->add_option("--seed", options->seed, "Random seed (--random)");
  options->max_failures_option =
      cmd->add_option("--max-failures", options->max_failures,
                      "Stop after this many consecutive rejected draws (--random, default 2000)");
  options->max_words_option = cmd->add_option("--max-words", options->max_words,
                                              "Stop when this many words are kept (--random)");
  options->limit_option =
      cmd->add_option("--limit", options->limit,
                      "Largest C(m,w) to enumerate (--johnson default 1e7, --lexicode 5e7)");
  cmd->add_option("--out", options->out, "Write the code to this file (text format)");
  run_when_selected(cmd, global, action, options, run_code);
}

}  // namespace kernelrank::cli
