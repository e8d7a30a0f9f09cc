// The rank-search pipelines both front ends run: one cell (`kernelrank search`,
// kernelrank.search) and the table of minimal ranks (`kernelrank min-rank`,
// kernelrank.min_rank). They check the request, build the task, run search/'s solver side
// and write the files asked for; the front ends render what comes back. These sources call
// Z3, so they form a library of their own (kernelrank_app_search), which tools that must
// load no Z3 do not link. Messages name parameters as {m}, {family}, {r}, {format},
// {timeout}, {memory}, {restarts}, {iterations}, {heuristic-share}, {solver}, {class}
// (core/errors.hpp).
#pragma once

#include "kernelrank/bounds/order_argument.hpp"
#include "kernelrank/bounds/rank_task.hpp"
#include "kernelrank/search/min_rank.hpp"
#include "kernelrank/search/rank_search.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace kernelrank {

// The budget options search and min-rank share, checked with the same messages.
struct SearchBudget {
  unsigned long long rlimit = 0;  // Z3 resource limit per check (0: none)
  double timeout = 60;            // seconds, per cell (0: none)
  std::size_t memory_mb = 8192;   // address-space limit of a search process (0: none)
  std::uint64_t seed = 1;
  int restarts = 4;
  int iterations = 20000;
  bool cross_check = true;
  double cross_check_seconds = 60;
  double heuristic_share = 0.5;
  std::string save_smt2;  // directory for the deciding SMT2 queries ("": none)
};

// Progress lines on stderr with `indent` before each, written whole and never while a search
// process is forked (cells run on threads that fork).
std::function<void(const std::string&)> search_log_to_stderr(const std::string& indent);

struct SearchRequest {
  std::optional<int> m;  // the cube task T(m,n); or
  std::string family;    // a family file
  int n = 3;
  std::optional<int> r;  // required
  std::string model_class = "NK";
  std::string mode = "first";
  SearchBudget budget;
  std::string solver = "z3";
  int max_rounds = 400;
  bool plain = false, exact = true, heuristic = true, z3 = true, lemmas = true, symmetry = true,
       isolate = true, certificate = true;
  std::string out;               // the model found, tabular ("": not written)
  std::string format = "text";   // of `out` and model_text: text or json
  std::string features;          // the model found in feature form ("": not written)
  std::string certificate_path;  // the checker-verified certificate refuting r ("": none)
  bool model_texts = false;      // fill model_text and features_text even without files
  std::function<void(const std::string&)> log;
};

struct SearchJob {
  RankTask task;
  int r = 0;
  SearchClass search_class = SearchClass::NK;
  SmtSolver solver = SmtSolver::Z3;
  SearchResult result;
  CellStatus status = CellStatus::Unknown;  // the result as a min-rank cell would be labelled
  std::string model_text;                   // when a model was found and written or asked for
  std::string features_text;
  bool model_written = false, features_written = false, certificate_written = false;
  std::string certificate_message;  // write_verified_certificate's sentence
};

// Checks the request (DomainError naming the parameter), searches, writes the files.
SearchJob run_search_job(const SearchRequest& request);

struct MinRankRequest {
  int m_max = 4;
  std::string model_class = "both";  // NK, PF or both
  SearchBudget budget = [] {
    SearchBudget per_cell;
    per_cell.timeout = 120;
    return per_cell;
  }();
  int r_max = 8;
  std::string models_dir;                       // write the minimal models found here ("": none)
  int threads = 0;                              // 0: all hardware threads
  std::function<void(const std::string&)> log;  // called from several threads
};

struct MinRankJob {
  MinRankTable table;
  bool all_settled = true;
  // Every open cell ran out of a budget (time, memory, rlimit), none gave up otherwise.
  bool unknown_resource_only = true;
};

MinRankJob run_min_rank_job(const MinRankRequest& request);

// The one JSON form of each job (the CLI prints it for --json). search_json: the task, r,
// class, verdict, label, the certificate and its checker status, the order argument, the SMT
// attempts, the proposal search, the model found (null when none) and the files written
// (the request's paths). min_rank_json: n, z3_version and the rows with their cells.
nlohmann::json search_json(const SearchRequest& request, const SearchJob& job);
nlohmann::json min_rank_json(const MinRankJob& job);

// The order argument as the CLI's --json shows it; Python converts the same JSON, so both
// front ends render it once.
nlohmann::json order_argument_json(const OrderArgument& order, const RankTask& task);

// A row's "min r" as the table prints it: "3", "2..4" or ">= 2".
std::string min_rank_range_text(const MinRankRow& row);

}  // namespace kernelrank
