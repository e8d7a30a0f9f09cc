// `kernelrank open-min-rank`: the minimal total number of features on T(m,3) for a signed
// single head or for H NK heads (issue 15, docs/open-questions.md), with the label and
// time of every total tried.
#include "commands.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/search/open_min_rank.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

namespace kernelrank::cli {
namespace {

struct OpenMinRankArgs {
  int heads = 1;
  bool signed_kernel = false;
  int m_min = 1;
  int m_max = 4;
  double seconds = 60;
  double z3_seconds = 0;
  std::size_t memory_mb = 8192;
  int max_total = 0;
  std::uint64_t seed = 1;
  int restarts = 1000;
  int iterations = 20000;
  std::string pad_from;
  std::string models_dir;
  bool verbose = false;
};

// DIR/min-rank-m<m>-NK-r<r>.json for the smallest r present.
std::shared_ptr<const Model> nk_model(const std::string& dir, int m) {
  for (int r = 1; r <= 64; ++r) {
    const std::string path =
        dir + "/min-rank-m" + std::to_string(m) + "-NK-r" + std::to_string(r) + ".json";
    if (std::filesystem::exists(path)) return std::shared_ptr<const Model>(read_model(path));
  }
  return nullptr;
}

std::string row_range(const OpenRow& row) {
  if (row.upper && *row.upper == row.lower) return std::to_string(row.lower);
  if (row.upper) return std::to_string(row.lower) + ".." + std::to_string(*row.upper);
  return ">= " + std::to_string(row.lower);
}

// One total's line: its status, and what decided it or what was tried.
std::string cell_text(const OpenCell& cell, const std::string& seconds) {
  switch (cell.status) {
    case OpenCellStatus::Unknown:
      return "unknown after " + seconds + " s (" + cell.how + ")";
    case OpenCellStatus::RefutedZ3:
      return cell.label + " after " + seconds + " s (" + cell.how + ")";
    case OpenCellStatus::RefutedInherited:
      return "refuted, " + cell.label;
    case OpenCellStatus::Found:
    case OpenCellStatus::RefutedStructural:
      break;
  }
  return to_string(cell.status);
}

int run_open_min_rank(const OpenMinRankArgs& args, const GlobalOptions& global) {
  if (args.heads < 1 || args.heads > 8) throw UsageError("--heads must be in 1..8");
  if (args.m_min < 1 || args.m_max > 6 || args.m_min > args.m_max)
    throw UsageError("--m-min and --m-max must satisfy 1 <= m-min <= m-max <= 6");
  if (!(args.seconds >= 0)) throw UsageError("--seconds must be >= 0");
  if (!(args.z3_seconds >= 0)) throw UsageError("--z3-seconds must be >= 0");
  if (args.max_total < 0) throw UsageError("--max-total must be >= 0");
  if (args.z3_seconds > 0 && !(args.heads == 1 && args.signed_kernel))
    throw UsageError(
        "--z3-seconds needs --heads 1 --signed (multi-head models have no Z3 encoding)");
  for (const std::string* dir : {&args.pad_from, &args.models_dir})
    if (!dir->empty() && !std::filesystem::is_directory(*dir))
      throw UsageError("'" + *dir + "' is not a directory (" +
                       (dir == &args.pad_from ? "--pad-from" : "--models-dir") + ")");
  OpenMinRankOptions options;
  options.open_class = {args.heads, args.signed_kernel};
  options.widths.clear();
  for (int m = args.m_min; m <= args.m_max; ++m) options.widths.push_back(m);
  options.seconds_per_total = args.seconds;
  options.z3_seconds = args.z3_seconds;
  options.z3_memory_mb = args.memory_mb;
  options.max_total = args.max_total;
  options.proposal.seed = args.seed;
  options.proposal.restarts = args.restarts;
  options.proposal.iterations = args.iterations;
  if (!args.pad_from.empty())
    for (int m : options.widths) options.nk_models[m] = nk_model(args.pad_from, m);
  if (args.verbose || (!global.quiet && isatty(STDERR_FILENO)))
    options.log = [](const std::string& line) { std::cerr << "  " << line << std::endl; };
  const std::vector<OpenRow> rows = compute_open_min_rank(options);

  nlohmann::json json_rows = nlohmann::json::array();
  std::string human = "minimal total features on T(m,3), " + to_string(options.open_class) +
                      "\n  m  r       upper bound                       per total\n";
  for (const OpenRow& row : rows) {
    nlohmann::json cells = nlohmann::json::array();
    std::string per_total;
    for (const OpenCell& cell : row.cells) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%.1f", cell.seconds);
      cells.push_back({{"total", cell.total},
                       {"status", to_string(cell.status)},
                       {"how", cell.how},
                       {"label", cell.label},
                       {"seconds", seconds}});
      per_total += "\n       " + std::to_string(cell.total) + ": " + cell_text(cell, seconds);
    }
    std::string file;
    if (row.model && !args.models_dir.empty()) {
      file = args.models_dir + "/" + open_model_file_name(row);
      write_file_atomically(
          file,
          open_model_text(row, "T(" + std::to_string(row.m) + ",3), " + to_string(row.open_class) +
                                   ": " + row.upper_how + "; verified exactly on every instance"));
    }
    json_rows.push_back({{"m", row.m},
                         {"lower", row.lower},
                         {"upper", row.upper ? nlohmann::json(*row.upper) : nlohmann::json()},
                         {"upper_how", row.upper_how},
                         {"settled", row.upper && *row.upper == row.lower},
                         {"seconds", row.seconds},
                         {"model_file", file},
                         {"cells", cells}});
    char line[160];
    std::snprintf(line, sizeof line, "  %d  %-6s  %-32s", row.m, row_range(row).c_str(),
                  row.upper_how.c_str());
    human += line + per_total + "\n";
  }
  emit(global, {{"class", to_string(options.open_class)}, {"rows", json_rows}}, human);
  const bool settled = std::all_of(rows.begin(), rows.end(), [](const OpenRow& row) {
    return row.upper && *row.upper == row.lower;
  });
  return settled ? kExitOk : kExitUnknown;
}

}  // namespace

void add_open_min_rank_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<OpenMinRankArgs>();
  CLI::App* cmd = app.add_subcommand(
      "open-min-rank",
      "Minimal total features on T(m,3) for a signed head or several NK heads (proposal "
      "search, exact verification)");
  cmd->add_option("--heads", args->heads, "Number of heads H (1..8)")->capture_default_str();
  cmd->add_flag("--signed", args->signed_kernel, "Kernels of any sign (else NK heads)");
  cmd->add_option("--m-min", args->m_min, "Smallest token width")->capture_default_str();
  cmd->add_option("--m-max", args->m_max, "Largest token width (<= 6)")->capture_default_str();
  cmd->add_option("--seconds", args->seconds, "Proposal search budget per total")
      ->capture_default_str();
  cmd->add_option("--z3-seconds", args->z3_seconds,
                  "Signed single head: Z3's budget per total the proposal search missed (0: none)")
      ->capture_default_str();
  cmd->add_option("--max-total", args->max_total,
                  "Largest total searched (0: all below the upper bound)")
      ->capture_default_str();
  cmd->add_option("--memory-mb", args->memory_mb, "Address-space limit of each Z3 process")
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "First seed of the proposal search")->capture_default_str();
  cmd->add_option("--restarts", args->restarts, "Most restarts per split")->capture_default_str();
  cmd->add_option("--iterations", args->iterations, "Iterations per restart")
      ->capture_default_str();
  cmd->add_option("--pad-from", args->pad_from,
                  "Folder of NK min-rank models (min-rank-m<m>-NK-r<r>.json) for the padded "
                  "upper bound");
  cmd->add_option("--models-dir", args->models_dir, "Write each row's verified model here");
  cmd->add_flag("--verbose", args->verbose, "Progress lines on stderr even when not a terminal");
  run_when_selected(cmd, global, action, args, run_open_min_rank);
}

}  // namespace kernelrank::cli
