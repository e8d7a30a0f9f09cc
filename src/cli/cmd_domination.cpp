// `kernelrank domination`: test the gap-domination inequalities (theory.md L2)
// on a model, over the cube or over the triples a family contains.
#include "commands.hpp"
#include "model_options.hpp"
#include "option_checks.hpp"
#include "report_output.hpp"

#include "kernelrank/bounds/domination_check.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/model_io.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct DominationArgs {
  ModelSource model;
  int m = 0;
  int n = 3;
  std::string family;
  std::size_t max_reported = 10;
};

int run_domination(const DominationArgs& args, const GlobalOptions& global) {
  std::unique_ptr<Model> model;
  DominationReport report;
  std::string scope;
  int n = args.n;
  if (!args.family.empty()) {
    const Family family = read_family(args.family);
    model = load_model(args.model, family.m, family.n);
    report = check_domination_family(*model, family, args.max_reported);
    n = family.n;
    scope = "triples present in " + args.family;
  } else {
    model = load_model(args.model, args.m, args.n);
    report = check_domination_cube(*model, model->width(), args.n, args.max_reported);
    scope = "every triple of the cube {0,1}^" + std::to_string(model->width());
  }
  nlohmann::json violations = nlohmann::json::array();
  std::string human = "gap domination (L2) on " + scope + ", n = " + std::to_string(n) + "\n";
  human += "model: " + model->description() + "\n";
  human += "class: " + to_string(report.classification.model_class) + " (" +
           report.classification.detail + ")\n";
  human += "inequalities tested: " + std::to_string(report.checked) +
           ", violated: " + std::to_string(report.violated) + "\n";
  for (const DominationViolation& v : report.violations) {
    violations.push_back({{"q", v.q.to_string()},
                          {"a", v.a.to_string()},
                          {"b", v.b.to_string()},
                          {"k", v.k},
                          {"gap", v.gap},
                          {"factor", to_string(v.factor)},
                          {"lhs", to_string(v.lhs)},
                          {"rhs", to_string(v.rhs)},
                          {"s1", outcome_to_json(v.s1)},
                          {"s2", outcome_to_json(v.s2)},
                          {"s3", outcome_to_json(v.s3)},
                          {"all_solved", v.all_solved}});
    human += "  violated: q=" + v.q.to_string() + " a=" + v.a.to_string() +
             " b=" + v.b.to_string() + " (gap " + std::to_string(v.gap) +
             ", k=" + std::to_string(v.k) + "): W+(n-1)A = " + exact_with_decimal(v.lhs) +
             " <= " + to_string(v.factor) + " (W+(n-1)B) = " + exact_with_decimal(v.rhs) + "\n";
    human += "    S1 " + outcome_to_text(v.s1) + (v.s1.fails() ? "  FAILS" : "") + "\n";
    human += "    S2 " + outcome_to_text(v.s2) + (v.s2.fails() ? "  FAILS" : "") + "\n";
    human += "    S3 " + outcome_to_text(v.s3) + (v.s3.fails() ? "  FAILS" : "") + "\n";
    if (v.all_solved)
      human +=
          "    S1, S2 and S3 all solved: possible only for a signed kernel (L2 needs alpha >= 0)\n";
  }
  emit(global,
       {{"class", to_string(report.classification.model_class)},
        {"checked", report.checked},
        {"violated", report.violated},
        {"violations", violations}},
       human);
  return report.violated == 0 ? kExitOk : kExitNegative;
}

}  // namespace

void add_domination_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<DominationArgs>();
  CLI::App* cmd =
      app.add_subcommand("domination", "Test the L2 gap-domination inequalities on a model");
  add_model_options(cmd, args->model);
  cmd->add_option("--m", args->m, "Token width (cube check; default: the model's)")
      ->check(in_range(1, kMaxModelWidth));
  cmd->add_option("--n", args->n, "Sequence length (>= 3)")->capture_default_str();
  cmd->add_option("--family", args->family,
                  "Only the triples whose S1, S2, S3 this family contains");
  cmd->add_option("--max", args->max_reported, "Violations to list")->capture_default_str();
  run_when_selected(cmd, global, action, args, run_domination);
}

}  // namespace kernelrank::cli
