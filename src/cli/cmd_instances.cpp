// `kernelrank instances`: list or write the instances of T(m,n) or of all
// sequences over a token set, with their Min-IP targets.
#include "commands.hpp"

#include "kernelrank/atomic_write.hpp"
#include "kernelrank/code.hpp"
#include "kernelrank/errors.hpp"
#include "kernelrank/instance.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

constexpr std::uint64_t kMaxWrittenInstances = 10'000'000;

struct InstancesArgs {
  int m = 0;
  int n = 3;
  std::string mode = "first";
  std::string tokens;
  std::string out;
  std::uint64_t limit = 20;
};

int run_instances(const InstancesArgs& args, const GlobalOptions& global) {
  std::vector<Token> universe;
  if (!args.tokens.empty()) {
    universe = read_code(args.tokens).words;
  } else {
    if (args.m < 1 || args.m > 24) throw UsageError("--m must be in 1..24 to enumerate the cube");
    for (std::uint64_t i = 0; i < (std::uint64_t{1} << args.m); ++i)
      universe.push_back(Token::from_index(args.m, i));
  }
  const QueryMode mode = parse_query_mode(args.mode);
  const std::uint64_t total =
      count_instances(universe.size(), args.n, mode, args.out.empty() ? ~0ULL : kMaxWrittenInstances);
  Family family;
  family.m = universe.front().width();
  family.n = args.n;
  const std::uint64_t shown = args.out.empty() ? std::min(total, args.limit) : total;
  nlohmann::json listed = nlohmann::json::array();
  std::string human;
  std::uint64_t count = 0;
  for_each_sequence(universe.size(), args.n, mode, [&](const std::vector<std::uint32_t>& seq, int query) {
    if (count >= shown) return false;
    Instance instance;
    instance.query = query;
    for (std::uint32_t i : seq) instance.tokens.push_back(universe[i]);
    if (args.out.empty()) {
      const int target = min_ip_target(instance);
      human += to_string(instance) + "  target " + std::to_string(target) + "\n";
      nlohmann::json tokens = nlohmann::json::array();
      for (const Token& x : instance.tokens) tokens.push_back(x.to_string());
      listed.push_back({{"query", query + 1}, {"tokens", tokens}, {"target", target}});
    } else {
      family.instances.push_back(std::move(instance));
    }
    ++count;
    return true;
  });
  if (!args.out.empty()) {
    write_file_atomically(args.out, family_to_text(family));
    human = "wrote " + std::to_string(count) + " instances to " + args.out + "\n";
  } else if (count < total) {
    human += "... " + std::to_string(total - count) + " more (" + std::to_string(total) +
             " in all; --limit or --out FILE for more)\n";
  }
  emit(global, {{"total", total}, {"listed", listed}, {"written", args.out.empty() ? 0 : count}},
       human);
  return kExitOk;
}

}  // namespace

void add_instances_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<InstancesArgs>();
  CLI::App* cmd = app.add_subcommand(
      "instances", "List the instances of T(m,n) or of all sequences over a token set");
  cmd->add_option("--m", args->m, "Token width of the cube");
  cmd->add_option("--n", args->n, "Sequence length")->capture_default_str();
  cmd->add_option("--mode", args->mode, "Query mode: first, last or all")->capture_default_str();
  cmd->add_option("--tokens", args->tokens, "Code file whose words form the token set");
  cmd->add_option("--limit", args->limit, "Instances to print")->capture_default_str();
  cmd->add_option("--out", args->out, "Write all instances as a family file");
  cmd->callback([args, &global, &action] {
    action = [args, &global] { return run_instances(*args, global); };
  });
}

}  // namespace kernelrank::cli
