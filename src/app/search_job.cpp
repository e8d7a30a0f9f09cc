// See search_job.hpp.
#include "kernelrank/app/search_job.hpp"

#include "kernelrank/app/report_json.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/search/child_process.hpp"
#include "kernelrank/search/solver_side.hpp"

#include <nlohmann/json.hpp>

#include <iostream>
#include <mutex>

namespace kernelrank {
namespace {

// The checks of the budget, in the order the CLI has always made them; the heuristic share
// is checked later by the caller (after --solver in search).
SearchOptions budget_options(const SearchBudget& budget, int r, SearchClass search_class) {
  if (budget.timeout < 0) throw DomainError("{timeout} must be >= 0 seconds (0: no limit)");
  if (budget.memory_mb != 0 && budget.memory_mb < 256)
    throw DomainError("{memory} must be at least 256 MiB (or 0: no limit)");
  if (budget.restarts < 0 || budget.iterations < 0)
    throw DomainError("{restarts} and {iterations} must be >= 0");
  SearchOptions options;
  options.r = r;
  options.search_class = search_class;
  options.rlimit = budget.rlimit;
  options.timeout_seconds = budget.timeout;
  options.memory_mb = budget.memory_mb;
  options.heuristic_options.seed = budget.seed;
  options.heuristic_options.restarts = budget.restarts;
  options.heuristic_options.iterations = budget.iterations;
  options.cross_check = budget.cross_check;
  options.cross_check_seconds = budget.cross_check_seconds;
  options.save_smt2_dir = budget.save_smt2;
  return options;
}

void check_heuristic_share(const SearchBudget& budget, SearchOptions& options) {
  if (budget.heuristic_share < 0 || budget.heuristic_share > 1)
    throw DomainError("{heuristic-share} must be in 0..1");
  options.heuristic_share = budget.heuristic_share;
}

RankTask search_task(const SearchRequest& request) {
  RankTask task;
  if (!request.family.empty()) {
    if (request.m) throw DomainError("give either {m} (cube task) or {family}, not both");
    const std::string bytes = read_file_checked(request.family);
    task = family_rank_task(parse_family(request.family, bytes), request.family);
    task.family_file = request.family;
    task.family_file_bytes = bytes;
  } else {
    if (!request.m) throw DomainError("{m} (cube task T(m,n)) or {family} FILE is required");
    task = cube_rank_task(*request.m, request.n);
    task.mode = parse_query_mode(request.mode);
  }
  return task;
}

SearchOptions search_options(const SearchRequest& request, const SearchJob& job) {
  SearchOptions options = budget_options(request.budget, job.r, job.search_class);
  options.solver = parse_smt_solver(request.solver);
  check_heuristic_share(request.budget, options);
  options.heuristic = request.heuristic;
  options.z3 = request.z3;
  options.lemmas = request.lemmas;
  options.symmetry = request.symmetry;
  options.isolate = request.isolate;
  options.certificate = request.certificate;
  options.max_iterations = request.max_rounds;
  options.plain = request.plain;
  options.exact_arguments = request.exact;
  const RankTask& task = job.task;
  options.smt2_prefix = "search-" +
                        (task.cube ? "m" + std::to_string(task.m) : std::string("family")) + "-" +
                        to_string(job.search_class) + "-r" + std::to_string(job.r);
  options.log = request.log;
  return options;
}

// The certificate first, then the model files, as the CLI has always written them.
void write_files(const SearchRequest& request, SearchJob& job) {
  const SearchResult& result = job.result;
  if (!request.certificate_path.empty() && result.certificate_text) {
    // Verified by search_rank, with the task's family file: not checked again.
    job.certificate_message =
        write_verified_certificate(request.certificate_path, *result.certificate_text);
    job.certificate_written = true;
  }
  if (!result.model) return;
  if (!request.out.empty() || request.model_texts) {
    const TabularModel tabular = to_tabular_model(job.task, *result.model);
    job.model_text =
        request.format == "json" ? tabular_model_to_json(tabular) : tabular_model_to_text(tabular);
  }
  if (!request.out.empty()) {
    write_file_atomically(request.out, job.model_text);
    job.model_written = true;
  }
  if (!request.features.empty() || request.model_texts)
    job.features_text = features_model_text(job.task, *result.model,
                                            "kernelrank search: " + job.task.description +
                                                ", r = " + std::to_string(job.r) + ", class " +
                                                to_string(job.search_class));
  if (!request.features.empty()) {
    write_file_atomically(request.features, job.features_text);
    job.features_written = true;
  }
}

// The verified model, and the files it was written to; null when none was found.
nlohmann::json model_json(const SearchRequest& request, const SearchJob& job) {
  const SearchResult& result = job.result;
  if (!result.model) return nullptr;
  const ModelCheck& check = *result.check;
  nlohmann::json json = {{"source", result.model_source},
                         {"evaluation", report_to_json(check.report)},
                         {"kernel_rank", check.kernel_rank},
                         {"class_check", check.class_detail}};
  if (job.model_written) json["file"] = request.out;
  if (job.features_written) json["features_file"] = request.features;
  return json;
}

}  // namespace

std::function<void(const std::string&)> search_log_to_stderr(const std::string& indent) {
  return [indent](const std::string& line) {
    const std::lock_guard<std::mutex> lock(fork_mutex());
    std::cerr << indent << line << "\n";
  };
}

SearchJob run_search_job(const SearchRequest& request) {
  if (!request.r || *request.r < 0) throw DomainError("{r} is required and must be >= 0");
  if (request.format != "text" && request.format != "json")
    throw DomainError("{format} must be text or json, not " +
                      ParameterMessage::literal(request.format));
  SearchJob job;
  job.r = *request.r;
  job.search_class = parse_search_class(request.model_class);
  job.task = search_task(request);
  const SearchOptions options = search_options(request, job);
  job.solver = options.solver;
  job.result = search_rank(job.task, options);
  job.status = cell_status(job.result);
  write_files(request, job);
  return job;
}

MinRankJob run_min_rank_job(const MinRankRequest& request) {
  MinRankOptions options;
  options.m_max = request.m_max;
  if (request.model_class == "both")
    options.classes = {SearchClass::NK, SearchClass::PF};
  else
    options.classes = {parse_search_class(request.model_class)};
  options.search = budget_options(request.budget, 1, SearchClass::NK);
  check_heuristic_share(request.budget, options.search);
  options.r_max = request.r_max;
  options.models_dir = request.models_dir;
  options.threads = resolve_threads(request.threads);
  options.log = request.log;
  MinRankJob job;
  job.table = compute_min_rank(options);
  for (const MinRankRow& row : job.table.rows) {
    if (!row.settled()) job.all_settled = false;
    for (const MinRankCell& cell : row.cells)
      if (cell.status == CellStatus::Unknown && cell.detail.find("limit") == std::string::npos &&
          cell.detail.find("timeout") == std::string::npos &&
          cell.detail.find("budget") == std::string::npos)
        job.unknown_resource_only = false;
  }
  return job;
}

nlohmann::json search_json(const SearchRequest& request, const SearchJob& job) {
  const RankTask& task = job.task;
  const SearchResult& result = job.result;
  nlohmann::json json = {{"task", task.description},
                         {"m", task.m},
                         {"n", task.n},
                         {"r", job.r},
                         {"class", to_string(job.search_class)},
                         {"row_instances", task.instances.size()},
                         {"verdict", to_string(result.verdict)},
                         {"label", result.label},
                         {"detail", result.detail},
                         {"z3_version", result.z3_version},
                         {"seconds", result.seconds},
                         {"solver_status", result.solver_status},
                         {"resource_limited", result.resource_limited}};
  if (result.certificate_text) {
    json["checker_status"] = result.certificate_text->checker_status();
    json["certificate_rule"] = result.certificate_rule;
  }
  if (result.order) json["order_argument"] = order_argument_json(*result.order, task);
  if (result.certificate)
    json["certificate"] = {{"bound", result.certificate->bound.str()},
                           {"construction", result.certificate->construction},
                           {"rows", result.certificate->rows.size()}};
  if (job.certificate_written) json["certificate_file"] = request.certificate_path;
  nlohmann::json attempts = nlohmann::json::array();
  for (const Z3Attempt& a : result.z3) attempts.push_back(detail::attempt_to_json(a));
  json["z3"] = attempts;
  if (result.heuristic_ran) json["heuristic"] = detail::heuristic_to_json(result.heuristic);
  const nlohmann::json model = model_json(request, job);
  if (!model.is_null()) json["model"] = model;
  if (job.solver != SmtSolver::Z3) {
    json["solver"] = to_string(job.solver);
    json["cvc5_version"] = result.cvc5_version;
  }
  return json;
}

nlohmann::json min_rank_json(const MinRankJob& job) {
  nlohmann::json rows = nlohmann::json::array();
  for (const MinRankRow& row : job.table.rows) {
    nlohmann::json cells = nlohmann::json::array();
    for (const MinRankCell& cell : row.cells) {
      nlohmann::json jc = {
          {"r", cell.r},           {"status", to_string(cell.status)}, {"label", cell.label},
          {"detail", cell.detail}, {"seconds", cell.seconds},          {"files", cell.files}};
      if (cell.inherited_from) jc["inherited_from"] = to_string(*cell.inherited_from);
      if (!cell.checker_status.empty()) jc["checker_status"] = cell.checker_status;
      cells.push_back(std::move(jc));
    }
    rows.push_back({{"m", row.m},
                    {"class", to_string(row.search_class)},
                    {"lower", row.lower},
                    {"upper", row.upper ? nlohmann::json(*row.upper) : nlohmann::json(nullptr)},
                    {"settled", row.settled()},
                    {"seconds", row.seconds},
                    {"cells", cells}});
  }
  return {{"n", 3}, {"z3_version", job.table.z3_version}, {"rows", rows}};
}

std::string min_rank_range_text(const MinRankRow& row) {
  if (row.settled()) return std::to_string(row.lower);
  if (row.upper) return std::to_string(row.lower) + ".." + std::to_string(*row.upper);
  return ">= " + std::to_string(row.lower);
}

nlohmann::json order_argument_json(const OrderArgument& order, const RankTask& task) {
  nlohmann::json core = nlohmann::json::array();
  for (const PairSeparation& p : order.core) {
    nlohmann::json qa = nlohmann::json::array(), qb = nlohmann::json::array();
    for (std::uint32_t q : p.prefer_a) qa.push_back(task.tokens[q].to_string());
    for (std::uint32_t q : p.prefer_b) qb.push_back(task.tokens[q].to_string());
    core.push_back({{"a", task.tokens[p.a].to_string()},
                    {"b", task.tokens[p.b].to_string()},
                    {"queries_preferring_a", qa},
                    {"queries_preferring_b", qb}});
  }
  return {{"applicable", order.applicable}, {"reason", order.reason},
          {"refuted", order.refuted},       {"summary", order.summary},
          {"search_nodes", order.nodes},    {"core", core}};
}

}  // namespace kernelrank
