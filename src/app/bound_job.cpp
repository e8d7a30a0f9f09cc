// The bound pipeline (bound_job.hpp): the request checked once, the sources through the gate,
// the answer about r, the table, and the one JSON form.
#include "kernelrank/app/bound_job.hpp"

#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/progress.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>

namespace kernelrank {
namespace {

void check_bound_request(const BoundRequest& request) {
  if (request.effort < 0 || request.effort > kMaxBoundEffort)
    throw DomainError("{effort}: must be in 0.." + std::to_string(kMaxBoundEffort) + ", not " +
                      std::to_string(request.effort));
  if (request.r && *request.r < 0)
    throw DomainError("{r}: must be in 0.." + std::to_string(LLONG_MAX) + ", not " +
                      std::to_string(*request.r));
  if (request.model_class != "NK" && request.model_class != "PF")
    throw DomainError("{class} must be NK or PF, not " +
                      ParameterMessage::literal(request.model_class));
}

CertificateTask bound_task(const BoundRequest& request, int m) {
  CertificateTask task;
  task.m = m;
  task.n = request.n;
  task.mode = parse_query_mode(request.mode);
  task.positive_features = request.model_class == "PF";
  task.position_dependent = request.position_dependent;
  return task;
}

BoundSearchOptions bound_search_options(const BoundRequest& request, int m) {
  BoundSearchOptions options;
  options.m = m;
  options.n = request.n;
  options.code_file = request.code;
  options.seed = request.seed;
  options.effort = static_cast<int>(request.effort);
  options.subset_search = request.subset;
  return options;
}

// The rule of the winner's certificate: the code bound's own, else the source's argument.
std::string winner_rule(const SourcedBound& sourced) {
  if (sourced.code && sourced.best.source == BoundSource::Code)
    return to_string(sourced.code->bound.rule);
  switch (sourced.best.source) {
    case BoundSource::Product:
      return "trace-product";
    case BoundSource::OneRow:
      return "trace";
    case BoundSource::Order:
      return "order";
    case BoundSource::Dependence:
      return "dependence";
    default:
      return "inherit";
  }
}

// only_code: the code source's candidate as the winner, through the gate unless it won
// already; false when it gave no bound.
bool keep_code_source_only(SourcedBound& sourced) {
  for (const RefusedCandidate& r : sourced.refused)
    if (r.source == BoundSource::Code) throw InternalError(r.refusal);
  for (SourcedCandidate& c : sourced.candidates)
    if (c.source == BoundSource::Code) {
      certify_candidate(c);
      sourced.best = c;
      std::erase_if(sourced.candidates,
                    [](const SourcedCandidate& d) { return d.source != BoundSource::Code; });
      return true;
    }
  return false;
}

BoundRAnswer answer_bound_r(const BoundRequest& request, const Integer& bound) {
  BoundRAnswer a;
  a.r = *request.r;
  a.head_asked = !request.head.empty();
  if (Integer(a.r) < bound) {
    a.answer = BoundAnswer::RuledOut;
    return a;
  }
  // Layered heads solve the cube task T(m,3), query first, position-independent; a PF head
  // counts for NK too (best_known_head).
  a.head_search_applies = request.n == 3 && request.mode == "first";
  if (a.head_search_applies && request.code.empty())
    a.known =
        best_known_head(request.m, request.model_class == "PF" ? ModelClass::PositiveFeatures
                                                               : ModelClass::NonnegativeKernel);
  if (a.known) a.head_file = a.known->file;
  if (a.known && a.known->checked.r <= Integer(a.r)) {
    a.answer = BoundAnswer::Suffices;
    if (!request.head.empty()) {
      a.head_message = write_verified_head(request.head, a.known->checked.verified);
      a.head_file = request.head;
    }
    return a;
  }
  a.answer = BoundAnswer::Open;
  return a;
}

nlohmann::json bound_search_json(const BoundSearchResult& result, int m, int n) {
  const RankBoundResult& b = result.bound;
  nlohmann::json gaps = nlohmann::json::object();
  for (const auto& [gap, count] : b.gap_histogram) gaps[std::to_string(gap)] = count;
  nlohmann::json tried = nlohmann::json::array();
  for (const BoundSearchEntry& e : result.tried)
    tried.push_back({{"construction", e.construction},
                     {"pool", e.pool},
                     {"rows", e.rows},
                     {"bound", e.bound.applicable ? nlohmann::json(e.bound.bound.str())
                                                  : nlohmann::json(nullptr)}});
  nlohmann::json j = {{"m", m},
                      {"n", n},
                      {"bound", b.bound.str()},
                      {"rule", to_string(b.rule)},
                      {"construction", result.best.construction},
                      {"rows", b.rows},
                      {"gap_histogram", gaps},
                      {"tried", tried}};
  if (b.rule == BoundRule::Trace) {
    j["trace_value"] = to_string(b.trace_value());
    j["precision"] = b.precision;
  } else {
    j["max_row_sum"] = to_string(b.max_row_sum);
  }
  return j;
}

// The sources that gave a bound, and the fields of the winner.
nlohmann::json sourced_json(const BoundReport& report) {
  const SourcedBound& sourced = report.sourced;
  // The code bound's fields describe the winner only when the code wins.
  nlohmann::json json = report.code_wins() ? bound_search_json(*sourced.code, report.m, report.n)
                                           : nlohmann::json{{"m", report.m}, {"n", report.n}};
  if (sourced.code && !report.code_wins())
    json["code"] = bound_search_json(*sourced.code, report.m, report.n);
  json["rule"] = report.rule;
  json["bound"] = report.bound().str();  // the checker's number
  json["checker_status"] = sourced.best.certificate.checker_status();
  json["source"] = to_string(sourced.best.source);
  json["source_detail"] = sourced.best.description;
  if (!sourced.best.blocks.empty()) json["blocks"] = sourced.best.blocks;
  if (sourced.best.source == BoundSource::Product)
    json["hadamard_power"] = sourced.best.hadamard_power;
  nlohmann::json sources = nlohmann::json::array();
  for (const SourcedCandidate& c : sourced.candidates)
    sources.push_back({{"source", to_string(c.source)},
                       {"bound", c.bound.str()},
                       {"detail", c.description},
                       {"checked", candidate_checked(c)}});
  json["sources"] = sources;
  return json;
}

BoundReport sourced_report(const BoundRequest& request, int m,
                           const std::function<void(const std::string&)>& log) {
  BoundSearchOptions options = bound_search_options(request, m);
  options.log = log;
  BoundReport report;
  report.m = m;
  report.n = request.n;
  report.model_class = request.model_class;
  report.position_dependent = request.position_dependent;
  report.sourced = best_certified_bound(bound_task(request, m), options);
  report.rule = winner_rule(report.sourced);
  return report;
}

}  // namespace

std::string to_string(BoundAnswer answer) {
  switch (answer) {
    case BoundAnswer::RuledOut:
      return "ruled_out";
    case BoundAnswer::Suffices:
      return "suffices";
    default:
      return "open";
  }
}

bool candidate_checked(const SourcedCandidate& candidate) { return !candidate.certificate.empty(); }

BoundReport run_bound(const BoundRequest& request) {
  check_bound_request(request);
  BoundReport report = sourced_report(request, request.m, request.log);
  report.only_code = request.only_code;
  if (request.only_code && !keep_code_source_only(report.sourced)) {
    report.code_gave_none = true;
    return report;
  }
  report.rule = winner_rule(report.sourced);
  if (request.r) report.r = answer_bound_r(request, report.bound());
  if (!request.cert.empty()) {
    report.certificate_message =
        write_verified_certificate(request.cert, report.sourced.best.certificate);
    report.certificate_path = request.cert;
  }
  return report;
}

BoundTable run_bound_table(const BoundRequest& request) {
  check_bound_request(request);
  if (request.m_min < 1 || request.m_max < request.m_min || request.m_max > kMaxBoundTableWidth)
    throw DomainError("{m-min}/{m-max} must satisfy 1 <= m-min <= m-max <= " +
                      std::to_string(kMaxBoundTableWidth));
  BoundTable table;
  table.n = request.n;
  Progress progress("bound table", static_cast<std::uint64_t>(request.m_max - request.m_min + 1));
  for (int m = request.m_min; m <= request.m_max; ++m) {
    BoundReport row = sourced_report(request, m, {});
    if (!request.cert_dir.empty()) {
      const std::string path = request.cert_dir + "/bound-m" + std::to_string(m) + "-n" +
                               std::to_string(request.n) + ".cert";
      row.certificate_message = write_verified_certificate(path, row.sourced.best.certificate);
      row.certificate_path = path;
    }
    table.rows.push_back(std::move(row));
    progress.update(static_cast<std::uint64_t>(m - request.m_min + 1));
  }
  progress.finish();
  return table;
}

nlohmann::json bound_json(const BoundReport& report) {
  if (report.code_gave_none)
    return {{"m", report.m}, {"n", report.n}, {"bound", nullptr}, {"source", "code"}};
  nlohmann::json json = sourced_json(report);
  json["class"] = report.model_class;
  json["position_dependent"] = report.position_dependent;
  if (report.r) {
    const BoundRAnswer& a = *report.r;
    json["r"] = a.r;
    json["r_ruled_out"] = a.answer == BoundAnswer::RuledOut;
    json["answer"] = to_string(a.answer);
    if (a.known) json["head_r"] = a.known->checked.r.str();
    if (a.answer == BoundAnswer::Suffices) {
      json["head_max_error"] = to_string(a.known->checked.max_error);
      json["head"] = a.head_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.head_file);
    }
  }
  if (!report.certificate_path.empty()) json["certificate"] = report.certificate_path;
  return json;
}

nlohmann::json bound_table_json(const BoundTable& table) {
  nlohmann::json rows = nlohmann::json::array();
  for (const BoundReport& report : table.rows) {
    nlohmann::json row = sourced_json(report);
    row.erase("tried");
    if (!report.certificate_path.empty()) row["certificate"] = report.certificate_path;
    rows.push_back(row);
  }
  return {{"n", table.n}, {"table", rows}};
}

}  // namespace kernelrank
