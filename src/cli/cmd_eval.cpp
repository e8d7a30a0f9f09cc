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
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/eval/eval_partial.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/declared_class.hpp"
#include "kernelrank/models/head_layouts.hpp"
#include "kernelrank/models/head_opener.hpp"
#include "kernelrank/models/model_io.hpp"

#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>

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

bool same_result(const EvalReport& a, const EvalReport& b) {
  return a.instances == b.instances && a.failing == b.failing && a.undefined == b.undefined &&
         a.max_error == b.max_error;
}

// The bytes of a file as they are (model files may be binary safetensors).
std::string file_bytes(const std::string& path) {
  if (const auto why = irregular_file(path)) throw InputError(path, 0, *why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open the file");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

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

Integer power_of(std::uint64_t base, int exponent) {
  Integer result = 1;
  for (int i = 0; i < exponent; ++i) result *= base;
  return result;
}

// The --model file opened once (models/head_opener.hpp), with --layout and --feature-map;
// nullopt for a built-in.
std::optional<OpenedModel> open_model_file(const EvalArgs& args, const ModelFile* file) {
  const bool options_given = !args.layout.empty() || !args.feature_map.empty();
  if (file == nullptr || file->kind != ModelFileKind::Safetensors) {
    if (options_given)
      throw UsageError(
          "--layout and --feature-map apply to safetensors heads (--model FILE.safetensors)");
    if (file == nullptr) return std::nullopt;
  }
  OpenOptions open;
  if (!args.layout.empty()) open.read.layout = parse_head_layout(args.layout);
  if (!args.feature_map.empty()) open.read.feature_map = parse_feature_map(args.feature_map);
  open.ball_heads = true;
  open.multi_head = false;
  return open_model(*file, open);
}

// Options shared by every path; --shard/--partial/--mpi checked here.
EvalOptions eval_options(const EvalArgs& args, std::optional<MpiSession>& mpi) {
  EvalOptions options;
  options.mode = parse_query_mode(args.mode);
  options.max_failures = args.failures;
  options.instance_limit = args.max_instances;
  options.threads = resolve_threads(args.threads);
  if (args.n < 1) throw UsageError("--n must be at least 1");
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
  return options;
}

// An exact evaluation: the model, what it did and on which task.
struct ExactRun {
  std::unique_ptr<Model> model;
  EvalSummary summary;
  EvalIdentity id;
  std::optional<bool> cross_agrees;
};

using ModelLoader = std::function<std::unique_ptr<Model>(int m, int n)>;

// The cube T(m,n): brute force, overlap profiles, or both (--cross-check).
ExactRun evaluate_cube_task(const EvalArgs& args, const EvalOptions& options,
                            const ModelLoader& load) {
  ExactRun run;
  run.model = load(args.m, args.n);
  const Model& model = *run.model;
  EvalIdentity& id = run.id;
  const int m = model.width();
  id.task = "cube task T(" + std::to_string(m) + "," + std::to_string(args.n) + ") (mode " +
            args.mode + ")";
  const OverlapForm* form = model.overlap_form();
  const bool profiles_possible = form != nullptr && !model.position_dependent();
  const bool brute_possible = m <= 24 && static_cast<long double>(m) * args.n <= 62 &&
                              static_cast<long double>(std::uint64_t{1} << (m * args.n)) *
                                      (options.mode == QueryMode::All ? args.n : 1) <=
                                  static_cast<long double>(args.max_instances);
  if ((args.profiles || args.cross_check) && !profiles_possible)
    throw UsageError("--profiles needs a model that depends only on overlaps (a built-in)");
  const bool use_profiles = args.cross_check || args.profiles ||
                            (!args.brute_force && !brute_possible && profiles_possible);
  if (use_profiles)
    require_profile_work(m, args.n, args.max_profile_work,
                         "; lower --m or --n, or raise --max-profile-work to wait for it",
                         kProfileLengthHint);
  if (args.cross_check) {
    const EvalReport brute = evaluate_cube(model, m, args.n, options);
    run.summary = evaluate_profiles_summary(*form, m, args.n, options, &id.blocks);
    run.cross_agrees = same_result(brute, summary_to_report(run.summary));
    if (!*run.cross_agrees)
      throw InternalError("brute force and overlap profiles disagree on " + id.task);
  } else if (use_profiles) {
    run.summary = evaluate_profiles_summary(*form, m, args.n, options, &id.blocks);
  } else {
    run.summary = evaluate_cube_summary(model, m, args.n, options, &id.blocks);
  }
  id.source = use_profiles ? "profiles" : "cube";
  id.m = m;
  id.n = args.n;
  id.mode = args.mode;
  Integer total = 1;
  total <<= static_cast<unsigned>(m) * static_cast<unsigned>(args.n);
  const std::uint64_t per_sequence =
      options.mode == QueryMode::All ? static_cast<std::uint64_t>(args.n) : 1;
  id.total_instances = (total * per_sequence).str();
  return run;
}

// --family, --tokens or the cube.
ExactRun evaluate_exact(const EvalArgs& args, const EvalOptions& options, const ModelLoader& load) {
  if (args.family.empty() && args.tokens.empty()) return evaluate_cube_task(args, options, load);
  ExactRun run;
  EvalIdentity& id = run.id;
  if (!args.family.empty()) {
    const Family family = read_family(args.family);
    run.model = load(family.m, family.n);
    run.summary = evaluate_family_summary(*run.model, family, options, &id.blocks);
    id.task = "family " + args.family + " (" + std::to_string(family.instances.size()) +
              " instances, m=" + std::to_string(family.m) + ", n=" + std::to_string(family.n) + ")";
    id.source = "family";
    id.source_sha256 = sha256_hex(file_bytes(args.family));
    id.m = family.m;
    id.n = family.n;
    id.mode = "family";
    id.total_instances = std::to_string(family.instances.size());
    return run;
  }
  const Code code = read_code(args.tokens);
  run.model = load(code.m, args.n);
  run.summary = evaluate_token_set_summary(*run.model, code.words, args.n, options, &id.blocks);
  id.task = "all length-" + std::to_string(args.n) + " sequences over the " +
            std::to_string(code.words.size()) + " tokens of " + args.tokens + " (mode " +
            args.mode + ")";
  id.source = "tokens";
  id.source_sha256 = sha256_hex(file_bytes(args.tokens));
  id.m = code.m;
  id.n = args.n;
  id.mode = args.mode;
  const std::uint64_t per_sequence =
      options.mode == QueryMode::All ? static_cast<std::uint64_t>(args.n) : 1;
  id.total_instances = (power_of(code.words.size(), args.n) * per_sequence).str();
  return run;
}

// A shard: write the partial result (or, over MPI, merge at rank 0), print what it holds.
int finish_shard(const EvalArgs& args, const std::string& model_bytes, const EvalOptions& options,
                 std::optional<MpiSession>& mpi, ExactRun& run, const GlobalOptions& global) {
  EvalIdentity& id = run.id;
  const EvalSummary& summary = run.summary;
  if (!args.model.file.empty()) {
    id.model_source = "file " + args.model.file;
    id.model_sha256 = sha256_hex(model_bytes);
  } else {
    std::string spec = "builtin " + args.model.builtin + " m=" + std::to_string(id.m);
    if (args.model.builtin == "rank1-mean")
      spec += " n=" + std::to_string(id.n);
    else
      spec += " base=" + to_string(parse_rational(args.model.base));
    id.model_source = spec;
    id.model_sha256 = sha256_hex(spec);
  }
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
  std::optional<ModelFile> file;
  if (!args.model.file.empty()) file = read_model_file(args.model.file);
  if (file && file->kind == ModelFileKind::MultiHead)
    return run_multi_head_eval(multi_head_request(args), *file, global);
  std::optional<MpiSession> mpi;
  const EvalOptions options = eval_options(args, mpi);
  const bool sharded = !args.partial.empty() || args.mpi;
  std::optional<OpenedModel> opened = open_model_file(args, file ? &*file : nullptr);
  if (opened && opened->ball) {
    const RealHead& head = *opened->ball;
    if (sharded || args.cross_check || args.profiles || !args.tokens.empty())
      throw UsageError(
          "a " + to_string(head.map) +
          " head is evaluated with ball arithmetic, on a --family or the cube only: drop "
          "--shard/--partial/--mpi/--cross-check/--profiles/--tokens");
    BallOptions ball;
    ball.precision = args.precision;
    ball.max_precision = args.max_precision;
    ball.mode = options.mode;
    ball.max_listed = args.failures;
    ball.instance_limit = args.max_instances;
    ball.threads = options.threads;
    return run_ball_eval(head, BallTask{args.family, args.m, args.n}, ball, global);
  }
  if (args.precision_given)
    throw UsageError(
        "--precision and --max-precision apply to heads with transcendental features (elu1, exp, "
        "softmax)");
  // Every model below is exact; a head with a rational feature map is one of them.
  const ModelLoader load = [&](int m, int n) -> std::unique_ptr<Model> {
    if (!opened) return load_model(args.model, m, n);
    return take_exact_model(args.model, *opened, m);
  };
  ExactRun run = evaluate_exact(args, options, load);
  const Classification cls = reported_class(*run.model);  // the declared class, if any
  run.id.model_description = run.model->description();
  run.id.model_class = to_string(cls.model_class);
  run.id.class_detail = cls.detail;
  if (sharded) return finish_shard(args, file ? file->bytes : "", options, mpi, run, global);
  return print_report(global, run.id.task, run.id.model_description, run.id.model_class,
                      run.id.class_detail, summary_to_report(run.summary),
                      run.cross_agrees.value_or(false));
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
