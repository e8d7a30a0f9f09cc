// `kernelrank instances`: list or write the instances of T(m,n) or of all
// sequences over a token set, with their Min-IP targets.
#include "commands.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/resource_limits.hpp"

#include <limits>
#include <memory>

namespace kernelrank::cli {
namespace {

constexpr std::uint64_t kMaxWrittenInstances = 10'000'000;
constexpr int kMaxListedLength = 1'000'000;  // the family format's longest sequence

struct InstancesArgs {
  int m = 0;
  int n = 3;
  std::string mode = "first";
  std::string tokens;
  std::string out;
  std::uint64_t limit = 20;
};

int run_instances(const InstancesArgs& args, const GlobalOptions& global) {
  // The cube's tokens are made from their index when visited: listing 2^24 tokens up
  // front took 700 MB before the count could be checked.
  std::vector<Token> universe;
  std::uint64_t universe_size = 0;
  int m = args.m;
  if (!args.tokens.empty()) {
    universe = read_code(args.tokens).words;
    universe_size = universe.size();
    m = universe.front().width();
  } else {
    if (args.m < 1 || args.m > 24) throw UsageError("--m must be in 1..24 to enumerate the cube");
    universe_size = std::uint64_t{1} << args.m;
  }
  const QueryMode mode = parse_query_mode(args.mode);
  if (args.n < 1) throw UsageError("--n must be at least 1");
  if (args.n > kMaxListedLength)
    throw ResourceError("--n " + std::to_string(args.n) + " is above " +
                        std::to_string(kMaxListedLength) +
                        ", the longest sequence a family file holds; lower --n");
  // Exact total (it may exceed 64 bits when only the first --limit are listed).
  Integer total = boost::multiprecision::pow(Integer(universe_size), static_cast<unsigned>(args.n));
  if (mode == QueryMode::All) total *= args.n;
  if (!args.out.empty()) {
    if (total > kMaxWrittenInstances)
      throw ResourceError("the task has " + total.str() +
                          " instances; instances --out writes at most " +
                          std::to_string(kMaxWrittenInstances) +
                          " (lower --m or --n, or use --tokens with fewer tokens)");
    require_family_file_size(static_cast<std::uint64_t>(total), args.n, m, "instances --out");
    require_instance_memory(static_cast<std::uint64_t>(total), args.n, m, 1, "instances --out");
  }
  const auto token_at = [&](std::uint32_t i) {
    return args.tokens.empty() ? Token::from_index(m, i) : universe[i];
  };
  Family family;
  family.m = m;
  family.n = args.n;
  const std::uint64_t shown =
      args.out.empty() && total > args.limit ? args.limit : static_cast<std::uint64_t>(total);
  nlohmann::json listed = nlohmann::json::array();
  std::string human;
  std::uint64_t count = 0;
  for_each_sequence(
      universe_size, args.n, mode, [&](const std::vector<std::uint32_t>& seq, int query) {
        if (count >= shown) return false;
        Instance instance;
        instance.query = query;
        for (std::uint32_t i : seq) instance.tokens.push_back(token_at(i));
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
  } else if (total > count) {
    human += "... " + Integer(total - count).str() + " more (" + total.str() +
             " in all; --limit or --out FILE for more)\n";
  }
  // JSON numbers hold 64 bits; a larger total is given as a decimal string.
  const nlohmann::json total_json = total <= std::numeric_limits<std::uint64_t>::max()
                                        ? nlohmann::json(static_cast<std::uint64_t>(total))
                                        : nlohmann::json(total.str());
  emit(global,
       {{"total", total_json}, {"listed", listed}, {"written", args.out.empty() ? 0 : count}},
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
  run_when_selected(cmd, global, action, args, run_instances);
}

}  // namespace kernelrank::cli
