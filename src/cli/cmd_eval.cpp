// `kernelrank eval`: exact evaluation of a model on a family, a token set or T(m,n), on
// every core (--threads) and, with --shard k/K --partial FILE, split across processes;
// `kernelrank eval-merge PARTIAL...` combines the partials into the report eval prints.
#include "commands.hpp"
#include "eval_ball.hpp"
#include "family_output.hpp"
#include "model_options.hpp"
#include "mpi_runtime.hpp"
#include "multi_head_output.hpp"
#include "report_output.hpp"

#include "kernelrank/app/eval_partials.hpp"
#include "kernelrank/app/evaluation.hpp"
#include "kernelrank/app/multi_head_eval.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/models/head_layouts.hpp"

#include <memory>
#include <optional>

namespace kernelrank::cli {
namespace {

struct EvalArgs {
  ModelSource model;
  std::string family;
  std::string tokens;
  std::optional<int> m;
  int n = 3;
  std::string mode = "first";
  bool profiles = false;
  bool brute_force = false;
  bool cross_check = false;
  std::size_t failures = 10;
  std::uint64_t max_instances = 1ULL << 34;
  double max_profile_work = kDefaultMaxProfileWork;
  int threads = 0;
  std::string shard;
  std::string partial;
  bool mpi = false;
  std::string layout;  // safetensors heads: docs/model-format.md §12
  std::string feature_map;
  long precision = 64;  // ball arithmetic: first pass, bits
  long max_precision = 4096;
  bool precision_given = false;
};

struct MergeArgs {
  std::vector<std::string> partials;
};

// What eval prints around the report; a merge prints the same from the partials' identity.
int print_report(const GlobalOptions& global, const EvalIdentity& id, const EvalReport& report,
                 bool cross_agrees) {
  std::string human = "task:        " + id.task + "\nmodel:       " + id.model_description +
                      "\nclass:       " + id.model_class + " (" + id.class_detail + ")\n" +
                      report_to_text(report, id.model_class == to_string(ModelClass::Signed));
  if (cross_agrees) human += "cross-check: brute force and overlap profiles agree exactly\n";
  emit(global, exact_evaluation_json(id, report, cross_agrees), human);
  return report.solves() ? kExitOk : kExitNegative;
}

// The --model/--builtin options with --layout and --feature-map, for every kind of head.
HeadRequest eval_head_request(const EvalArgs& args) {
  HeadRequest request = head_request(args.model);
  if (!args.layout.empty()) request.layout = parse_head_layout(args.layout);
  if (!args.feature_map.empty()) request.feature_map = parse_feature_map(args.feature_map);
  request.ball_heads = true;
  request.multi_head = true;
  return request;
}

// The plan of app/evaluation.hpp.
EvalPlan eval_plan(const EvalArgs& args) {
  EvalPlan plan;
  plan.family = args.family;
  plan.tokens = args.tokens;
  plan.m = args.m;
  plan.n = args.n;
  plan.method = args.cross_check   ? EvalMethod::CrossCheck
                : args.profiles    ? EvalMethod::Profiles
                : args.brute_force ? EvalMethod::BruteForce
                                   : EvalMethod::Auto;
  plan.max_profile_work = args.max_profile_work;
  if (args.precision_given) {
    plan.precision = args.precision;
    plan.max_precision = args.max_precision;
  }
  EvalOptions& options = plan.options;
  options.mode = parse_query_mode(args.mode);
  options.max_failures = args.failures;
  options.instance_limit = args.max_instances;
  options.threads = resolve_threads(args.threads);
  return plan;
}

EvalSharding eval_sharding(const EvalArgs& args) {
  EvalSharding sharding;
  if (!args.shard.empty()) sharding.shard = parse_shard(args.shard);
  sharding.partial = args.partial;
  sharding.mpi = args.mpi;
  return sharding;
}

// A shard: write the partial result (or, over MPI, merge at rank 0), print what it holds.
int finish_shard(const EvalSharding& sharding, const Shard& shard, std::optional<MpiSession>& mpi,
                 const ExactEvaluation& run, const GlobalOptions& global) {
  const EvalPartial partial = shard_partial(run, shard);
  if (mpi) {
    // Every rank's partial goes to rank 0, which merges them and prints the unsharded report.
    const std::optional<EvalPartial> merged =
        merge_over_ranks(partial, [&](const std::string& text) {
          std::vector<std::string> texts = mpi->gather_at_root(text);
          return mpi->root() ? std::optional(std::move(texts)) : std::nullopt;
        });
    if (!merged) return kExitOk;
    return print_report(global, merged->identity, summary_to_report(merged->summary), false);
  }
  write_eval_partial(sharding.partial, partial);
  const EvalSummary& summary = partial.summary;
  const std::string human =
      "partial " + shard.str() + " of " + run.id.task + " written to " + sharding.partial + ": " +
      std::to_string(partial.blocks_evaluated) + " of " + std::to_string(run.id.blocks) +
      " blocks, " + summary.instances.str() + " instances, " + summary.failing.str() + " failing\n";
  emit(global, eval_partial_json(partial, sharding.partial), human);
  return kExitOk;
}

// A multi-head model file (docs/model-format.md §13): its own evaluator; the options that
// only single heads have are named and refused there.
MultiHeadEvalRequest multi_head_request(const EvalArgs& args) {
  MultiHeadEvalRequest request{
      args.family,   args.tokens,        args.m, args.n, parse_query_mode(args.mode),
      args.failures, args.max_instances, {}};
  const std::pair<bool, const char*> single_head[] = {{args.profiles, "profiles"},
                                                      {args.cross_check, "cross-check"},
                                                      {!args.shard.empty(), "shard"},
                                                      {!args.partial.empty(), "partial"},
                                                      {args.mpi, "mpi"},
                                                      {!args.layout.empty(), "layout"},
                                                      {!args.feature_map.empty(), "feature-map"},
                                                      {args.precision_given, "precision"},
                                                      {args.model.base_given, "base"}};
  for (const auto& [given, name] : single_head)
    if (given) request.single_head_options.emplace_back(name);
  return request;
}

int run_eval(const EvalArgs& args, const GlobalOptions& global) {
  HeadSource head = open_head(eval_head_request(args));
  if (head.kind() == HeadKind::MultiHead)
    return print_multi_head_evaluation(evaluate_multi_head(*head.file(), multi_head_request(args)),
                                       global);
  EvalPlan plan = eval_plan(args);
  const EvalSharding sharding = eval_sharding(args);
  check_eval_sharding(sharding, plan, head);
  std::optional<MpiSession> mpi;
  if (sharding.mpi) {
    mpi.emplace();
    plan.options.shard =
        Shard{static_cast<std::uint64_t>(mpi->rank()) + 1, static_cast<std::uint64_t>(mpi->size())};
  } else if (sharding.shard) {
    plan.options.shard = *sharding.shard;
  }
  const Evaluation result = evaluate_plan(head, plan);
  if (result.ball) return print_ball_report(head.ball_head(), *result.ball, global);
  const ExactEvaluation& run = *result.exact;
  if (sharding.sharded()) return finish_shard(sharding, plan.options.shard, mpi, run, global);
  return print_report(global, run.id, summary_to_report(run.summary), run.cross_checked);
}

int run_merge(const MergeArgs& args, const GlobalOptions& global) {
  const EvalPartial merged = merge_eval_partial_files(args.partials);
  return print_report(global, merged.identity, summary_to_report(merged.summary), false);
}
}  // namespace

void add_eval_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* cmd = app.add_subcommand(
      "eval", "Evaluate a model exactly on a family, a token set or the cube task T(m,n)");
  add_model_options(cmd, args->model);
  auto* family = cmd->add_option("--family", args->family, "Family file of instances");
  auto* tokens = cmd->add_option("--tokens", args->tokens,
                                 "Code file: evaluate all length-n sequences over its words");
  family->excludes(tokens);
  cmd->add_option("--m", args->m, "Token width of the cube task, 1..4096 (default: the model's)");
  cmd->add_option("--n", args->n, "Sequence length")->capture_default_str();
  cmd->add_option("--mode", args->mode, "Query mode: first, last or all")->capture_default_str();
  auto* profiles = cmd->add_flag("--profiles", args->profiles,
                                 "Use overlap profiles (overlap-only models, any m)");
  auto* brute = cmd->add_flag("--brute-force", args->brute_force, "Force brute force on T(m,n)");
  profiles->excludes(brute);
  cmd->add_flag("--cross-check", args->cross_check,
                "Run brute force and profiles and require exact agreement");
  cmd->add_option("--failures", args->failures, "Failing instances to list")->capture_default_str();
  cmd->add_option("--max-instances", args->max_instances,
                  "Refuse brute force above this many instances")
      ->capture_default_str();
  cmd->add_option("--max-profile-work", args->max_profile_work,
                  "Refuse overlap profiles above this many steps, C(m+n,n) * n")
      ->capture_default_str();
  cmd->add_option("--threads", args->threads,
                  "Worker threads (0: all hardware threads); the report is the same")
      ->capture_default_str();
  cmd->add_option("--shard", args->shard,
                  "Evaluate only shard k of K (blocks b with b % K = k - 1); needs --partial");
  cmd->add_option("--partial", args->partial,
                  "Write this run's exact partial result here (eval-merge combines them)");
  cmd->add_flag("--mpi", args->mpi,
                "Under mpirun: one shard per rank, the merged report at rank 0");
  cmd->add_option(
      "--layout", args->layout,
      "Tensor layout of a safetensors head: kernelrank, fast-transformers, performer or torch");
  cmd->add_option(
      "--feature-map", args->feature_map,
      "Feature map of a safetensors head: relu, square, identity, taylor2, elu1, exp or softmax");
  cmd->add_option("--precision", args->precision,
                  "Ball arithmetic: bits of the first pass (elu1, exp, softmax heads)")
      ->capture_default_str()
      ->each([args](const std::string&) { args->precision_given = true; });
  cmd->add_option("--max-precision", args->max_precision,
                  "Ball arithmetic: undecided instances are re-run at doubled precision up to this "
                  "many bits")
      ->capture_default_str()
      ->each([args](const std::string&) { args->precision_given = true; });
  run_when_selected(cmd, global, action, args, run_eval);

  auto merge = std::make_shared<MergeArgs>();
  CLI::App* merge_cmd = app.add_subcommand(
      "eval-merge", "Merge the partial results of eval --shard k/K into the report eval prints");
  merge_cmd->add_option("partials", merge->partials, "Partial result files, one per shard 1/K..K/K")
      ->required();
  run_when_selected(merge_cmd, global, action, merge, run_merge);
}

}  // namespace kernelrank::cli
