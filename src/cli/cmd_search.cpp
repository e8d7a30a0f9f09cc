// `kernelrank search`: find or refute a rank-r NK / PF model of the cube task
// T(m,n) or of a family (docs/search.md).
#include "commands.hpp"
#include "family_output.hpp"
#include "option_checks.hpp"
#include "report_output.hpp"
#include "search_budget_options.hpp"

#include "kernelrank/app/search_job.hpp"
#include "kernelrank/core/errors.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>

namespace kernelrank::cli {
namespace {

struct SearchArgs {
  int m = -1;
  int n = 3;
  int r = -1;
  std::string model_class = "NK";
  std::string family;
  std::string mode = "first";
  // The options search and min-rank share, bound straight into the request's budget.
  SearchBudget budget;
  std::string out;
  std::string format = "text";
  std::string features;
  std::string cert;
  std::string solver = "z3";
  int max_rounds = 400;
  bool plain = false;
  bool no_exact = false;
  bool no_heuristic = false, no_z3 = false, no_lemmas = false, no_symmetry = false,
       no_isolate = false, no_certificate = false, verbose = false;
};

// The request of app/search_job.hpp, as the options give it.
SearchRequest search_request(const SearchArgs& args, const GlobalOptions& global) {
  SearchRequest request;
  if (args.m >= 0) request.m = args.m;
  request.family = args.family;
  request.n = args.n;
  request.r = args.r;
  request.model_class = args.model_class;
  request.mode = args.mode;
  request.budget = args.budget;
  request.solver = args.solver;
  request.max_rounds = args.max_rounds;
  request.plain = args.plain;
  request.exact = !args.no_exact;
  request.heuristic = !args.no_heuristic;
  request.z3 = !args.no_z3;
  request.lemmas = !args.no_lemmas;
  request.symmetry = !args.no_symmetry;
  request.isolate = !args.no_isolate;
  request.certificate = !args.no_certificate;
  request.out = args.out;
  request.format = args.format;
  request.features = args.features;
  request.certificate_path = args.cert;
  if (!global.quiet && (args.verbose || isatty(STDERR_FILENO) == 1))
    request.log = search_log_to_stderr("  ");
  return request;
}

}  // namespace

namespace {

std::string order_text(const OrderArgument& order, const RankTask& task) {
  std::string text = "  order argument: " +
                     (order.applicable ? order.summary : "not applicable (" + order.reason + ")") +
                     "\n";
  if (!order.refuted) return text;
  std::size_t shown = 0;
  for (const PairSeparation& p : order.core) {
    if (++shown > 12) {
      text += "    ... (" + std::to_string(order.core.size() - 12) + " more pairs in --json)\n";
      break;
    }
    auto list = [&](const std::vector<std::uint32_t>& qs) {
      std::string s;
      for (std::size_t i = 0; i < qs.size() && i < 6; ++i)
        s += (i ? " " : "") + task.tokens[qs[i]].to_string();
      if (qs.size() > 6) s += " ...";
      return s;
    };
    text += "    keys " + task.tokens[p.a].to_string() + " vs " + task.tokens[p.b].to_string() +
            ": queries {" + list(p.prefer_a) + "} need alpha(q,a) > alpha(q,b), queries {" +
            list(p.prefer_b) + "} the reverse\n";
  }
  return text;
}

// The Z3 attempts and the proposal search, as text.
std::string solvers_text(const SearchResult& result) {
  std::string human;
  for (const Z3Attempt& a : result.z3) {
    char line[512];
    const std::string who = a.solver.empty() ? "Z3" : a.answered_by;
    std::snprintf(line, sizeof line,
                  "  %s %s: %s%s%s after %d round(s), |W| = %zu instances over %zu rows, %.2f s\n",
                  who.c_str(), a.encoding.c_str(), a.answer.c_str(), a.reason.empty() ? "" : " - ",
                  a.reason.c_str(), a.iterations, a.working_instances, a.working_rows, a.seconds);
    human += line;
    if (!a.corroboration.empty())
      human += "    other solver on the same query: " + a.corroboration + "\n";
    for (const std::string& f : a.smt2_files) human += "    query saved to " + f + "\n";
  }
  if (result.heuristic_ran) {
    const std::optional<double>& best = result.heuristic.best_max_error;
    char error[32];
    if (best) std::snprintf(error, sizeof error, "%.4f", *best);
    human += "  heuristic: " + std::to_string(result.heuristic.restarts_run) + " restart(s), " +
             (best ? "best max error " + std::string(error) + " in double precision"
                   : "no finite max error") +
             (result.heuristic.accepted ? " (proposal completed exactly)" : "") + "\n";
  }
  return human;
}

// The verified model, and the files it was written to, as text.
std::string model_text(const SearchArgs& args, const SearchJob& job) {
  const SearchResult& result = job.result;
  std::string human;
  if (result.model) {
    const ModelCheck& check = *result.check;
    human += "  exact re-verification: " + check.report.method + " over " +
             check.report.instances.str() + " instances, " + check.report.failing.str() +
             " failing, max error " + exact_with_decimal(*check.report.max_error) + "\n";
    human += "  kernel table: exact rank " + std::to_string(check.kernel_rank) +
             " (r = " + std::to_string(job.r) + ")\n";
    human += "  class: " + check.class_detail + "\n";
    if (job.model_written)
      human += "  model written to " + args.out + " (tabular, " + args.format + ")\n";
    if (job.features_written) human += "  feature form written to " + args.features + "\n";
  } else if (!args.out.empty()) {
    human += "  no model written (none found)\n";
  }
  return human;
}

int run_search(const SearchArgs& args, const GlobalOptions& global) {
  const SearchRequest request = search_request(args, global);
  const SearchJob job = run_search_job(request);
  const RankTask& task = job.task;
  const SearchResult& result = job.result;
  const SearchClass search_class = job.search_class;

  std::string human = "kernelrank search: " + task.description + ", r = " + std::to_string(args.r) +
                      ", class " + to_string(search_class) + " (" +
                      std::to_string(task.instances.size()) + " row instances)\n";
  human += "result: " + result.label + "\n";
  // "refuted (certified)" only beside the checker's status line on the certificate.
  if (result.certificate_text) human += checker_status_line(*result.certificate_text, "  ");
  if (!result.detail.empty()) human += "  " + result.detail + "\n";
  if (result.order) human += order_text(*result.order, task);
  if (result.certificate)
    human += "  rank-bound certificate: r >= " + result.certificate->bound.str() + " from " +
             result.certificate->construction + "\n";
  if (job.certificate_written) {
    human += "  " + job.certificate_message;
  } else if (!args.cert.empty()) {
    human += "  no certificate written: no checker-verified certificate refutes r = " +
             std::to_string(args.r) + "\n";
  }
  human += solvers_text(result);
  human += model_text(args, job);
  char line[192];
  std::snprintf(line, sizeof line, "Z3 %s%s%s; %.2f s\n", result.z3_version.c_str(),
                result.cvc5_version.empty() ? "" : "; ", result.cvc5_version.c_str(),
                result.seconds);
  human += line;
  emit(global, search_json(request, job), human);
  switch (result.verdict) {
    case SearchVerdict::Found:
      return kExitOk;
    case SearchVerdict::Refuted:
      return kExitNegative;
    case SearchVerdict::Unknown:
      return result.resource_limited ? kExitResource : kExitUnknown;
  }
  return kExitInternal;
}

}  // namespace

void add_search_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<SearchArgs>();
  CLI::App* cmd = app.add_subcommand("search",
                                     "Find (exactly verified) or refute a rank-r NK/PF model of "
                                     "T(m,n) or a family (docs/search.md)");
  cmd->add_option("--m", args->m, "Token width of the cube task T(m,n)")->check(in_range(1, 8));
  cmd->add_option("--n", args->n, "Sequence length of the cube task")->capture_default_str();
  cmd->add_option("--r", args->r, "Number of features")->required();
  cmd->add_option("--class", args->model_class, "Model class: NK or PF")->capture_default_str();
  cmd->add_option("--family", args->family, "Search a model of this family instead of the cube");
  cmd->add_option("--mode", args->mode,
                  "Query mode of the cube task (the deduplicated task is the same)")
      ->capture_default_str();
  add_search_budget_options(*cmd, args->budget, BudgetScope::OneSearch);
  cmd->add_option("--out", args->out, "Write the model found (tabular form)");
  cmd->add_option("--format", args->format, "Model file format: text or json")
      ->capture_default_str();
  cmd->add_option("--features", args->features,
                  "Also write the model in feature form (kind=features)");
  cmd->add_option("--cert", args->cert, "Write the rank-bound certificate when one refutes r");
  cmd->add_option("--solver", args->solver,
                  "SMT backend: z3, cvc5 (the cvc5 executable) or both (first answer wins, the "
                  "other corroborates an unsat)")
      ->capture_default_str();
  cmd->add_option("--max-rounds", args->max_rounds, "Counterexample-guided Z3 rounds")
      ->capture_default_str();
  cmd->add_flag("--plain", args->plain,
                "Naive encoding: one E1 call on all row instances (for comparison)");
  cmd->add_flag("--no-exact", args->no_exact,
                "Skip the exact arguments (order argument, certificate): Z3 alone");
  cmd->add_flag("--no-heuristic", args->no_heuristic, "Skip the floating-point proposal search");
  cmd->add_flag("--no-z3", args->no_z3, "Skip Z3");
  cmd->add_flag("--no-lemmas", args->no_lemmas, "Do not seed E1 with the L2 inequalities");
  cmd->add_flag("--no-symmetry", args->no_symmetry, "No symmetry breaking");
  cmd->add_flag("--no-isolate", args->no_isolate,
                "Run in this process (no memory cap, no hard wall-clock stop)");
  cmd->add_flag("--no-certificate", args->no_certificate, "Do not try the rank-bound certificate");
  cmd->add_flag("--verbose", args->verbose,
                "Progress lines on stderr even when it is not a terminal");
  run_when_selected(cmd, global, action, args, run_search);
}

}  // namespace kernelrank::cli
