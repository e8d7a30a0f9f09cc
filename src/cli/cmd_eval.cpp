// `kernelrank eval`: exact evaluation of a model on a family, a token set or T(m,n).
#include "commands.hpp"
#include "limits.hpp"
#include "model_options.hpp"
#include "report_output.hpp"

#include "kernelrank/code.hpp"
#include "kernelrank/errors.hpp"
#include "kernelrank/evaluate.hpp"

#include <memory>

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
};

bool same_result(const EvalReport& a, const EvalReport& b) {
  return a.instances == b.instances && a.failing == b.failing && a.undefined == b.undefined &&
         a.max_error == b.max_error;
}

int run_eval(const EvalArgs& args, const GlobalOptions& global) {
  EvalOptions options;
  options.mode = parse_query_mode(args.mode);
  options.max_failures = args.failures;
  options.instance_limit = args.max_instances;
  if (args.n < 1) throw UsageError("--n must be at least 1");

  std::unique_ptr<Model> model;
  EvalReport report;
  std::string task;
  std::optional<bool> cross_agrees;
  if (!args.family.empty()) {
    const Family family = read_family(args.family);
    model = load_model(args.model, family.m, family.n);
    report = evaluate_family(*model, family, options);
    task = "family " + args.family + " (" + std::to_string(family.instances.size()) +
           " instances, m=" + std::to_string(family.m) + ", n=" + std::to_string(family.n) + ")";
  } else if (!args.tokens.empty()) {
    const Code code = read_code(args.tokens);
    model = load_model(args.model, code.m, args.n);
    report = evaluate_token_set(*model, code.words, args.n, options);
    task = "all length-" + std::to_string(args.n) + " sequences over the " +
           std::to_string(code.words.size()) + " tokens of " + args.tokens + " (mode " + args.mode + ")";
  } else {
    model = load_model(args.model, args.m, args.n);
    const int m = model->width();
    task = "cube task T(" + std::to_string(m) + "," + std::to_string(args.n) + ") (mode " + args.mode + ")";
    const OverlapForm* form = model->overlap_form();
    const bool profiles_possible = form != nullptr && !model->position_dependent();
    const bool brute_possible =
        m <= 24 && static_cast<long double>(m) * args.n <= 62 &&
        static_cast<long double>(std::uint64_t{1} << (m * args.n)) *
                (options.mode == QueryMode::All ? args.n : 1) <=
            static_cast<long double>(args.max_instances);
    if ((args.profiles || args.cross_check) && !profiles_possible)
      throw UsageError("--profiles needs a model that depends only on overlaps (a built-in)");
    const bool use_profiles =
        args.cross_check || args.profiles || (!args.brute_force && !brute_possible && profiles_possible);
    if (use_profiles)
      require_profile_work(m, args.n, args.max_profile_work,
                           "; lower --m or --n, or raise --max-profile-work to wait for it");
    if (args.cross_check) {
      EvalReport brute = evaluate_cube(*model, m, args.n, options);
      report = evaluate_profiles(*form, m, args.n, options);
      cross_agrees = same_result(brute, report);
      if (!*cross_agrees)
        throw InternalError("brute force and overlap profiles disagree on " + task);
    } else if (use_profiles) {
      report = evaluate_profiles(*form, m, args.n, options);
    } else {
      report = evaluate_cube(*model, m, args.n, options);
    }
  }
  const Classification cls = model->classify();
  nlohmann::json json = {{"task", task},
                         {"model", {{"description", model->description()},
                                    {"class", to_string(cls.model_class)},
                                    {"class_detail", cls.detail}}},
                         {"report", report_to_json(report)}};
  if (cross_agrees) json["cross_check"] = "brute force and profiles agree";
  std::string human = "task:        " + task + "\nmodel:       " + model->description() +
                      "\nclass:       " + to_string(cls.model_class) + " (" + cls.detail + ")\n" +
                      report_to_text(report);
  if (cross_agrees) human += "cross-check: brute force and overlap profiles agree exactly\n";
  emit(global, json, human);
  return report.solves() ? kExitOk : kExitNegative;
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
  cmd->add_option("--m", args->m, "Token width of the cube task (default: the model's)");
  cmd->add_option("--n", args->n, "Sequence length")->capture_default_str();
  cmd->add_option("--mode", args->mode, "Query mode: first, last or all")->capture_default_str();
  auto* profiles = cmd->add_flag("--profiles", args->profiles,
                                 "Use overlap profiles (overlap-only models, any m)");
  auto* brute = cmd->add_flag("--brute-force", args->brute_force, "Force brute force on T(m,n)");
  profiles->excludes(brute);
  cmd->add_flag("--cross-check", args->cross_check,
                "Run brute force and profiles and require exact agreement");
  cmd->add_option("--failures", args->failures, "Failing instances to list")->capture_default_str();
  cmd->add_option("--max-instances", args->max_instances, "Refuse brute force above this many instances")
      ->capture_default_str();
  cmd->add_option("--max-profile-work", args->max_profile_work,
                  "Refuse overlap profiles above this many steps, C(m+n,n) * n")
      ->capture_default_str();
  cmd->callback([args, &global, &action] { action = [args, &global] { return run_eval(*args, global); }; });
}

}  // namespace kernelrank::cli
