// `kernelrank min-rank`: the table of minimal feature ranks for T(m,3),
// m = 1..M, NK and PF, with every cell's status and time (docs/min-rank.md).
// The per-cell list doubles as the search benchmark: each (m, class, r) cell
// reports the wall-clock time it took to settle.
#include "commands.hpp"
#include "search_budget_options.hpp"

#include "kernelrank/app/search_job.hpp"
#include "kernelrank/core/errors.hpp"

#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>

namespace kernelrank::cli {

namespace {

struct MinRankArgs {
  int m_max = 4;
  std::string model_class = "both";
  // The options search and min-rank share, bound straight into the request's budget.
  SearchBudget budget = [] {
    SearchBudget b;
    b.timeout = 120;  // per cell: a table has many
    return b;
  }();
  std::string models_dir;
  int r_max = 8;
  bool verbose = false;
  int threads = 0;
};

int run_min_rank(const MinRankArgs& args, const GlobalOptions& global) {
  MinRankRequest request;
  request.m_max = args.m_max;
  request.model_class = args.model_class;
  request.budget = args.budget;
  request.r_max = args.r_max;
  request.models_dir = args.models_dir;
  request.threads = args.threads;
  if (!global.quiet && (args.verbose || isatty(STDERR_FILENO) == 1))
    request.log = search_log_to_stderr("");
  const MinRankJob job = run_min_rank_job(request);
  const MinRankTable& table = job.table;

  std::string human =
      "minimal feature rank r for T(m,3), query first (Z3 " + table.z3_version + ")\n";
  human += "  m | class | min r | cells (r: status, seconds)\n";
  for (const MinRankRow& row : table.rows) {
    std::string cells;
    std::map<std::string, std::string> checked;  // checker status: the cells' r it was given for
    for (const MinRankCell& cell : row.cells) {
      char text[160];
      std::snprintf(
          text, sizeof text, "%sr=%d: %s%s, %.2f s", cells.empty() ? "" : "; ", cell.r,
          to_string(cell.status).c_str(),
          cell.inherited_from ? (" (" + to_string(*cell.inherited_from) + ")").c_str() : "",
          cell.seconds);
      cells += text;
      if (!cell.checker_status.empty()) {
        std::string& rs = checked[cell.checker_status];
        rs += (rs.empty() ? "" : ", ") + std::to_string(cell.r);
      }
    }
    char line[96];
    std::snprintf(line, sizeof line, " %2d | %-5s | %-5s | ", row.m,
                  to_string(row.search_class).c_str(), min_rank_range_text(row).c_str());
    human += line + cells + "\n";
    for (const auto& [status, rs] : checked)
      human += "    refuted-certified r = " + rs +
               ": each certificate checked in memory by kernelrank-check: " + status + "\n";
  }
  emit(global, min_rank_json(job), human);
  if (job.all_settled) return kExitOk;
  return job.unknown_resource_only ? kExitResource : kExitUnknown;
}

}  // namespace

void add_min_rank_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<MinRankArgs>();
  CLI::App* cmd = app.add_subcommand(
      "min-rank", "Table of minimal feature ranks for T(m,3), m = 1..M (docs/min-rank.md)");
  cmd->add_option("--m-max", args->m_max, "Largest m")->capture_default_str();
  cmd->add_option("--class", args->model_class, "NK, PF or both")->capture_default_str();
  add_search_budget_options(*cmd, args->budget, BudgetScope::PerCell);
  cmd->add_option("--models-dir", args->models_dir, "Write the minimal models found here");
  cmd->add_option("--r-max", args->r_max, "Largest r tried per row")->capture_default_str();
  cmd->add_flag("--verbose", args->verbose,
                "Progress lines on stderr even when it is not a terminal");
  cmd->add_option("--threads", args->threads,
                  "Cells searched at once (0: all hardware threads); the table is the same")
      ->capture_default_str();
  run_when_selected(cmd, global, action, args, run_min_rank);
}

}  // namespace kernelrank::cli
