// `kernelrank eval`: exact evaluation of a model on a family, a token set or T(m,n), on
// every core (--threads) and, with --shard k/K --partial FILE, split across processes;
// `kernelrank eval-merge PARTIAL...` combines the partials into the report eval prints.
#include "commands.hpp"
#include "eval_ball.hpp"
#include "eval_multi_head.hpp"
#include "family_output.hpp"
#include "model_options.hpp"
#include "mpi_runtime.hpp"
#include "option_checks.hpp"
#include "report_output.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/app/evaluation.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/eval/eval_partial.hpp"
#include "kernelrank/models/head_layouts.hpp"
#include "kernelrank/models/model_io.hpp"

#include <memory>
#include <optional>

namespace kernelrank::cli {
namespace {

struct EvalArgs {
  ModelSource model;
  std::string family;
  std::string tokens;
  int m = 0;
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
int print_report(const GlobalOptions& global, const std::string& task,
                 const std::string& description, const std::string& model_class,
                 const std::string& class_detail, const EvalReport& report, bool cross_agrees) {
  nlohmann::json json = {
      {"task", task},
      {"model",
       {{"description", description}, {"class", model_class}, {"class_detail", class_detail}}},
      {"report", report_to_json(report)}};
  if (cross_agrees) json["cross_check"] = "brute force and profiles agree";
  std::string human = "task:        " + task + "\nmodel:       " + description +
                      "\nclass:       " + model_class + " (" + class_detail + ")\n" +
                      report_to_text(report, model_class == to_string(ModelClass::Signed));
  if (cross_agrees) human += "cross-check: brute force and overlap profiles agree exactly\n";
  emit(global, json, human);
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

// The plan of app/evaluation.hpp; --shard/--partial/--mpi checked here.
EvalPlan eval_plan(const EvalArgs& args, std::optional<MpiSession>& mpi) {
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
  if (!args.shard.empty()) {
    options.shard = parse_shard(args.shard);
    if (args.partial.empty())
      throw UsageError("--shard needs --partial FILE (where the shard's result goes)");
  }
  if (args.mpi) {
    if (!args.shard.empty() || !args.partial.empty())
      throw UsageError("--mpi shards by rank: drop --shard/--partial");
    mpi.emplace();
    options.shard =
        Shard{static_cast<std::uint64_t>(mpi->rank()) + 1, static_cast<std::uint64_t>(mpi->size())};
  }
  if ((!args.partial.empty() || args.mpi) && args.cross_check)
    throw UsageError(
        "--cross-check cannot be combined with --shard/--partial; cross-check the merged run "
        "instead");
  return plan;
}

// A shard: write the partial result (or, over MPI, merge at rank 0), print what it holds.
int finish_shard(const EvalArgs& args, const EvalOptions& options, std::optional<MpiSession>& mpi,
                 const ExactEvaluation& run, const GlobalOptions& global) {
  const EvalIdentity& id = run.id;
  const EvalSummary& summary = run.summary;
  EvalPartial partial;
  partial.identity = id;
  partial.shard = options.shard;
  partial.summary = summary;
  const std::uint64_t first = options.shard.index - 1;
  partial.blocks_evaluated =
      id.blocks > first ? (id.blocks - first + options.shard.count - 1) / options.shard.count : 0;
  if (mpi) {
    // Every rank's partial goes to rank 0, which merges them and prints the unsharded report.
    const std::vector<std::string> texts = mpi->gather_at_root(eval_partial_to_text(partial));
    if (!mpi->root()) return kExitOk;
    std::vector<EvalPartial> parts;
    std::vector<std::string> names;
    for (std::size_t r = 0; r < texts.size(); ++r) {
      names.push_back("<MPI rank " + std::to_string(r) + ">");
      parts.push_back(parse_eval_partial(names.back(), texts[r]));
    }
    const EvalPartial merged = merge_eval_partials(parts, names);
    return print_report(global, merged.identity.task, merged.identity.model_description,
                        merged.identity.model_class, merged.identity.class_detail,
                        summary_to_report(merged.summary), false);
  }
  write_file_atomically(args.partial, eval_partial_to_text(partial));
  const std::string human =
      "partial " + options.shard.str() + " of " + id.task + " written to " + args.partial + ": " +
      std::to_string(partial.blocks_evaluated) + " of " + std::to_string(id.blocks) + " blocks, " +
      summary.instances.str() + " instances, " + summary.failing.str() + " failing\n";
  emit(global,
       {{"partial", args.partial},
        {"shard", options.shard.str()},
        {"blocks_evaluated", partial.blocks_evaluated},
        {"blocks", id.blocks},
        {"instances", summary.instances.str()},
        {"failing", summary.failing.str()}},
       human);
  return kExitOk;
}

// A multi-head model file (docs/model-format.md §13): its own evaluator; the options that
// only single heads have are named and refused there.
MultiHeadEvalRequest multi_head_request(const EvalArgs& args) {
  MultiHeadEvalRequest request{args.model.file, args.family,   args.tokens,        args.m, args.n,
                               args.mode,       args.failures, args.max_instances, {}};
  const std::pair<bool, const char*> single_head[] = {{args.profiles, "--profiles"},
                                                      {args.cross_check, "--cross-check"},
                                                      {!args.shard.empty(), "--shard"},
                                                      {!args.partial.empty(), "--partial"},
                                                      {args.mpi, "--mpi"},
                                                      {!args.layout.empty(), "--layout"},
                                                      {!args.feature_map.empty(), "--feature-map"},
                                                      {args.precision_given, "--precision"},
                                                      {args.model.base_given, "--base"}};
  for (const auto& [given, name] : single_head)
    if (given) request.single_head_options.emplace_back(name);
  return request;
}

int run_eval(const EvalArgs& args, const GlobalOptions& global) {
  HeadSource head = open_head(eval_head_request(args));
  if (head.kind() == HeadKind::MultiHead)
    return run_multi_head_eval(multi_head_request(args), *head.file(), global);
  std::optional<MpiSession> mpi;
  const EvalPlan plan = eval_plan(args, mpi);
  const bool sharded = !args.partial.empty() || args.mpi;
  if (head.kind() == HeadKind::Ball && sharded)
    throw UsageError("a " + to_string(head.ball_head().map) +
                     " head is evaluated with ball arithmetic, in one process: drop "
                     "--shard/--partial/--mpi");
  const Evaluation result = evaluate_plan(head, plan);
  if (result.ball) return print_ball_report(head.ball_head(), *result.ball, global);
  const ExactEvaluation& run = *result.exact;
  if (sharded) return finish_shard(args, plan.options, mpi, run, global);
  return print_report(global, run.id.task, run.id.model_description, run.id.model_class,
                      run.id.class_detail, summary_to_report(run.summary), run.cross_checked);
}

int run_merge(const MergeArgs& args, const GlobalOptions& global) {
  std::vector<EvalPartial> partials;
  for (const std::string& path : args.partials) partials.push_back(read_eval_partial(path));
  const EvalPartial merged = merge_eval_partials(partials, args.partials);
  const EvalIdentity& id = merged.identity;
  return print_report(global, id.task, id.model_description, id.model_class, id.class_detail,
                      summary_to_report(merged.summary), false);
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
  cmd->add_option("--m", args->m, "Token width of the cube task (default: the model's)")
      ->check(in_range(1, kMaxModelWidth));
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
