// One cell of the rank search: exact arguments first, then the floating-point
// proposal search and the counterexample-guided Z3 search in a child process,
// then exact re-verification and an honest label (see rank_search.hpp and
// docs/search.md).
#include "kernelrank/search/rank_search.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/refutation_certificate.hpp"
#include "kernelrank/core/errors.hpp"
#include "search/child_process.hpp"
#include "search/z3/rank_encoding.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <set>

namespace kernelrank {

std::string to_string(EncodingKind encoding) {
  return encoding == EncodingKind::FeatureReadout
             ? "E1 feature-readout (U, V, F; degree 3; alpha(q,q) = 1)"
             : "E2 kernel-product (U, V, P = alpha.F; degree 2; other normalisation)";
}

std::string short_name(EncodingKind encoding) {
  return encoding == EncodingKind::FeatureReadout ? "E1" : "E2";
}

std::string to_string(SearchVerdict verdict) {
  switch (verdict) {
    case SearchVerdict::Found:
      return "found";
    case SearchVerdict::Refuted:
      return "refuted";
    case SearchVerdict::Unknown:
      return "unknown";
  }
  return "?";
}

namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

Json matrix_to_json(const RationalMatrix& matrix) {
  Json rows = Json::array();
  for (const RationalVector& row : matrix) {
    Json cells = Json::array();
    for (const Rational& x : row) cells.push_back(to_string(x));
    rows.push_back(std::move(cells));
  }
  return rows;
}

RationalMatrix matrix_from_json(const Json& rows) {
  RationalMatrix matrix;
  for (const Json& row : rows) {
    RationalVector cells;
    for (const Json& x : row) cells.push_back(parse_rational(x.get<std::string>()));
    matrix.push_back(std::move(cells));
  }
  return matrix;
}

Json attempt_to_json(const Z3Attempt& a) {
  return {{"encoding", a.encoding},
          {"answer", a.answer},
          {"reason", a.reason},
          {"iterations", a.iterations},
          {"working_instances", a.working_instances},
          {"working_rows", a.working_rows},
          {"seconds", a.seconds},
          {"smt2_files", a.smt2_files}};
}

Z3Attempt attempt_from_json(const Json& j) {
  Z3Attempt a;
  a.encoding = j.at("encoding").get<std::string>();
  a.answer = j.at("answer").get<std::string>();
  a.reason = j.at("reason").get<std::string>();
  a.iterations = j.at("iterations").get<int>();
  a.working_instances = j.at("working_instances").get<std::size_t>();
  a.working_rows = j.at("working_rows").get<std::size_t>();
  a.seconds = j.at("seconds").get<double>();
  a.smt2_files = j.at("smt2_files").get<std::vector<std::string>>();
  return a;
}

bool resource_reason(const std::string& reason) {
  for (const char* word : {"timeout", "resource", "canceled", "memory", "budget"})
    if (reason.find(word) != std::string::npos) return true;
  return false;
}

// The solver side of a cell: runs in the child process (or inline).
class SolverSide {
 public:
  SolverSide(const RankTask& task, const SearchOptions& options, bool heuristic, bool z3)
      : task_(task), opt_(options), run_heuristic_(heuristic), run_z3_(z3), start_(Clock::now()) {}

  Json run() {
    Json out = Json::object();
    if (run_heuristic_) run_heuristic(out);
    if (!found_ && run_z3_) run_cegar(out);
    Json attempts = Json::array();
    for (const Z3Attempt& a : attempts_) attempts.push_back(attempt_to_json(a));
    out["z3"] = attempts;
    if (found_) {
      out["model"] = {{"r", model_.r},
                      {"U", matrix_to_json(model_.query_features)},
                      {"V", matrix_to_json(model_.key_features)},
                      {"F", matrix_to_json(model_.readout)}};
      out["model_source"] = source_;
    }
    return out;
  }

 private:
  double remaining() const {
    if (opt_.timeout_seconds <= 0) return 1e9;
    return opt_.timeout_seconds - seconds_since(start_);
  }
  void log(const std::string& line) const {
    if (opt_.log) opt_.log(line);
  }

  bool accept_model(const RankModel& model, const std::string& source) {
    const ModelCheck check = verify_rank_model(task_, model, opt_.search_class);
    if (!check.passes())
      throw InternalError(
          "a model completed by exact linear arithmetic fails exact re-verification (" + source +
          "): solves=" + std::to_string(check.solves) +
          " rank=" + std::to_string(check.kernel_rank) + " class=" + check.class_detail);
    found_ = true;
    model_ = model;
    source_ = source;
    return true;
  }

  void run_heuristic(Json& out) {
    HeuristicOptions h = opt_.heuristic_options;
    h.r = opt_.r;
    // Leave at least half of the budget to Z3 when Z3 runs after it.
    const double share = run_z3_ ? opt_.heuristic_share : 0.95;
    const double budget = opt_.timeout_seconds > 0 ? opt_.timeout_seconds * share : 1e9;
    h.should_stop = [this, budget] { return seconds_since(start_) > budget; };
    std::string accepted_detail;
    const HeuristicSummary summary =
        heuristic_rank_search(task_, h, [&](const HeuristicProposal& p) {
          log("heuristic: seed " + std::to_string(p.seed) + " reached max error " +
              std::to_string(p.max_error) + " in double precision; completing exactly");
          for (std::int64_t max_den : {1000LL, 100000LL, 10000000LL}) {
            RationalMatrix V(p.key_features.size(),
                             RationalVector(static_cast<std::size_t>(opt_.r)));
            for (std::size_t i = 0; i < V.size(); ++i)
              for (std::size_t k = 0; k < V[i].size(); ++k) {
                V[i][k] = rational_near(p.key_features[i][k], max_den);
                if (V[i][k] < 0) V[i][k] = 0;
              }
            RationalMatrix U(p.query_features.size(),
                             RationalVector(static_cast<std::size_t>(opt_.r)));
            for (std::size_t i = 0; i < U.size(); ++i)
              for (std::size_t k = 0; k < U[i].size(); ++k)
                U[i][k] = std::max(Rational(0), rational_near(p.query_features[i][k], max_den));
            const Completion c = complete_from_key_features(task_, V, opt_.r, opt_.search_class,
                                                            nullptr, 60'000, &U);
            if (c.complete)
              return accept_model(
                  c.model,
                  "floating-point proposal (seed " + std::to_string(p.seed) +
                      "), key features rounded to denominators <= " + std::to_string(max_den) +
                      ", rows completed by exact linear arithmetic");
            log("heuristic: " + std::to_string(c.failed_rows.size()) +
                " rows do not complete at denominators <= " + std::to_string(max_den));
          }
          return false;
        });
    out["heuristic"] = {
        {"restarts", summary.restarts_run},
        {"best_max_error_double", summary.best_max_error ? Json(*summary.best_max_error) : Json()},
        {"accepted", summary.accepted}};
  }

  void save_smt2(Z3Attempt& attempt, const std::string& smt2, const std::string& tag) {
    if (opt_.save_smt2_dir.empty() || smt2.empty()) return;
    const std::string path = opt_.save_smt2_dir + "/" + opt_.smt2_prefix + "-" + tag + ".smt2";
    write_file_atomically(path, "; kernelrank search, Z3 " + z3_version() + ", " +
                                    task_.description + ", r=" + std::to_string(opt_.r) +
                                    ", class " + to_string(opt_.search_class) + ", " + tag + "\n" +
                                    smt2);
    attempt.smt2_files.push_back(path);
  }

  detail::EncodingRequest request(EncodingKind kind) const {
    detail::EncodingRequest req;
    req.task = &task_;
    req.working.assign(working_.begin(), working_.end());
    req.nk_pairs = nk_pairs_;
    req.r = opt_.r;
    req.search_class = opt_.search_class;
    req.kind = kind;
    req.lemmas = opt_.lemmas;
    req.facts = &facts_;
    req.symmetry = opt_.symmetry;
    req.plant_contradiction = opt_.plant_disagreement && kind == EncodingKind::FeatureReadout;
    req.rlimit = opt_.rlimit;
    const double left = remaining();
    req.timeout_ms =
        opt_.timeout_seconds > 0 ? static_cast<unsigned>(std::max(1.0, left * 1000)) : 0;
    req.want_smt2 = !opt_.save_smt2_dir.empty();
    return req;
  }

  std::size_t working_rows() const {
    std::set<std::uint32_t> rows;
    for (std::size_t id : working_) rows.insert(task_.instances[id].query);
    return rows.size();
  }

  void run_cegar(Json& out) {
    if (opt_.lemmas) facts_ = domination_facts(task_);
    if (opt_.plain)
      for (std::size_t id = 0; id < task_.instances.size(); ++id) working_.insert(id);
    Z3Attempt primary;
    primary.encoding = "E1";
    const auto started = Clock::now();
    std::string last_smt2;
    for (int iteration = 1; iteration <= opt_.max_iterations; ++iteration) {
      primary.iterations = iteration;
      if (remaining() <= 0) {
        primary.answer = "unknown";
        primary.reason = "wall-clock budget exhausted";
        break;
      }
      const detail::EncodingAnswer answer =
          detail::solve_encoding(request(EncodingKind::FeatureReadout));
      last_smt2 = answer.smt2;
      log("E1 round " + std::to_string(iteration) + ": |W| = " + std::to_string(working_.size()) +
          " instances, " + std::to_string(answer.variables) + " variables: " + answer.answer +
          " (" + std::to_string(answer.seconds) + " s)");
      if (answer.answer != "sat") {
        primary.answer = answer.answer;
        primary.reason = answer.reason;
        break;
      }
      bool progress = false;
      for (const RationalMatrix& V : answer.key_features) {
        const Completion c = complete_from_key_features(task_, V, opt_.r, opt_.search_class);
        if (c.complete) {
          accept_model(
              c.model,
              std::string("Z3 ") + to_string(EncodingKind::FeatureReadout) + " on " +
                  std::to_string(working_.size()) + " of " +
                  std::to_string(task_.instances.size()) + " row instances, key features" +
                  (answer.algebraic ? " (rational approximations of algebraic numbers)" : "") +
                  " completed row by row by exact linear arithmetic");
          primary.answer = "sat";
          break;
        }
        const std::size_t before = working_.size() + nk_pairs_.size();
        for (std::size_t i = 0; i < c.failed_rows.size(); ++i) {
          working_.insert(c.cores[i].begin(), c.cores[i].end());
          for (std::uint32_t z : c.nk_pairs[i]) nk_pairs_.insert({c.failed_rows[i], z});
        }
        if (working_.size() + nk_pairs_.size() > before) {
          progress = true;
          break;
        }
        // The cores are already in W: only the rounding of algebraic values can
        // explain it; try the next precision.
        if (!answer.algebraic)
          throw InternalError(
              "Z3's rational model of W does not extend to W's own rows under exact linear "
              "arithmetic "
              "(Z3 or encoding bug)");
      }
      if (found_) break;
      if (!progress) {
        primary.answer = "unknown";
        primary.reason =
            "Z3's model has irrational algebraic values and no rational approximation (up to 64 "
            "digits) "
            "completed the rows";
        break;
      }
      if (iteration == opt_.max_iterations) {
        primary.answer = "unknown";
        primary.reason =
            "counterexample-guided rounds exhausted (" + std::to_string(opt_.max_iterations) + ")";
      }
    }
    primary.working_instances = working_.size();
    primary.working_rows = working_rows();
    primary.seconds = seconds_since(started);
    if (primary.answer != "sat") save_smt2(primary, last_smt2, "E1");
    attempts_.push_back(primary);
    if (primary.answer == "unsat") corroborate();
    (void)out;
  }

  // E2 on the same W: an independent formulation of the same claim.
  void corroborate() {
    Z3Attempt second;
    second.encoding = "E2";
    second.iterations = 1;
    second.working_instances = working_.size();
    second.working_rows = working_rows();
    const auto started = Clock::now();
    if (remaining() <= 0) {
      second.answer = "unknown";
      second.reason = "wall-clock budget exhausted";
      attempts_.push_back(second);
      return;
    }
    const detail::EncodingAnswer answer =
        detail::solve_encoding(request(EncodingKind::KernelProduct));
    second.seconds = seconds_since(started);
    second.answer = answer.answer;
    second.reason = answer.reason;
    save_smt2(second, answer.smt2, "E2");
    log("E2 on the same W: " + answer.answer);
    if (answer.answer == "sat") {
      // A sat answer wins only after exact verification on W.
      const std::vector<std::size_t> ids(working_.begin(), working_.end());
      for (const RationalMatrix& V : answer.key_features) {
        const Completion c = complete_from_key_features(task_, V, opt_.r, opt_.search_class, &ids);
        if (!c.complete) continue;
        const ModelCheck check = verify_rank_model_on(task_, ids, c.model, opt_.search_class);
        if (check.passes())
          throw InternalError(
              "the encodings disagree: E1 says the " + std::to_string(ids.size()) +
              " row instances of W are unsatisfiable at r = " + std::to_string(opt_.r) +
              ", but E2 found a model of W that passes exact verification (max error " +
              to_string(*check.report.max_error) + "). This is a Z3 or encoding bug; Z3 " +
              z3_version() +
              (opt_.save_smt2_dir.empty() ? std::string("")
                                          : ", queries saved in " + opt_.save_smt2_dir));
      }
      second.answer = "sat (not exactly verifiable)";
      second.reason = "E2's model of W could not be rounded to an exactly verified one";
    }
    attempts_.push_back(second);
  }

  const RankTask& task_;
  const SearchOptions& opt_;
  bool run_heuristic_, run_z3_;
  Clock::time_point start_;
  bool found_ = false;
  RankModel model_;
  std::string source_;
  std::vector<Z3Attempt> attempts_;
  std::set<std::size_t> working_;
  std::set<std::pair<std::uint32_t, std::uint32_t>> nk_pairs_;
  std::vector<DominationFact> facts_;
};

}  // namespace

SearchResult search_rank(const RankTask& task, const SearchOptions& options) {
  const auto start = Clock::now();
  if (options.r < 0) throw UsageError("--r must be >= 0");
  if (options.r > 64) throw UsageError("--r must be at most 64 for the rank search");
  if (task.instances.empty()) throw UsageError("the task has no instances");
  // Models are |T| x |T| tables (the tabular file format allows 4096 tokens).
  if (task.tokens.size() > 4096)
    throw ResourceError(
        "the task has " + std::to_string(task.tokens.size()) +
        " distinct tokens; the rank search builds |T| x |T| tables and handles at most 4096");
  SearchResult result;
  result.z3_version = z3_version();
  auto finish = [&]() -> SearchResult {
    result.seconds = seconds_since(start);
    return result;
  };
  // Exact arguments count as certified only with a certificate the checker's library
  // verifies; the rest are exact but not checker-verified.
  std::vector<std::string> certified, exact_only;
  const CertificateTask cert_task = certificate_task_of(task, options.search_class);
  auto keep_certificate = [&](const std::string& text, const std::string& rule) {
    const std::optional<FamilyInput> family =
        task.cube
            ? std::nullopt
            : std::optional<FamilyInput>(FamilyInput{task.family_file, task.family_file_bytes});
    require_checker_verified(text, family);
    if (!result.certificate_text) {
      result.certificate_text = text;
      result.certificate_rule = rule;
    }
  };
  if (options.r == 0) {
    // No features: alpha = 0, every denominator is 0, every output undefined.
    result.zero_kernel = true;
    result.verdict = SearchVerdict::Refuted;
    result.detail =
        "with no features the kernel is identically 0, so every instance has a zero denominator";
    if (task.cube && task.n >= 3) {
      keep_certificate(one_row_certificate(cert_task), "one row");
      result.label = "refuted (certified)";
    } else {
      result.label = "refuted (exact, not checker-verified)";
    }
    return finish();
  }
  // 1. Exact arguments.
  if (options.exact_arguments && options.r <= 2) {
    result.order = order_argument(task, options.r, options.search_class);
    if (result.order->refuted) {
      std::string why_not;
      const std::string sha = task.cube ? std::string() : family_digest_hex(task.family_file_bytes);
      const std::optional<std::string> text =
          task.cube || !task.family_file.empty()
              ? order_certificate(task, options.search_class, *result.order, options.r, sha,
                                  why_not)
              : std::nullopt;
      if (text) {
        keep_certificate(*text, "order");
        certified.push_back("order argument, " + result.order->summary);
      } else {
        exact_only.push_back("order argument, " + result.order->summary +
                             " (no checker certificate: " +
                             (why_not.empty() ? "the task has no family file" : why_not) + ")");
      }
    }
  }
  if (options.exact_arguments && options.certificate && task.cube && task.n == 3 && task.m >= 2) {
    BoundSearchOptions bound_options;
    bound_options.m = task.m;
    bound_options.n = 3;
    std::optional<BoundSearchResult> found;
    try {
      found = search_rank_bound(bound_options);
    } catch (const UsageError&) {
      // No construction gives a bound at this m (too few coordinates).
    }
    if (found && found->bound.applicable && found->bound.bound > Integer(options.r)) {
      const BoundSearchResult& bound = *found;
      CertifiedBound c;
      c.bound = bound.bound.bound;
      c.construction = bound.best.construction;
      c.rows = bound.best.rows;
      c.result = bound.bound;
      result.certificate = c;
      keep_certificate(cube_certificate(cert_task, c.construction, c.rows, c.result),
                       to_string(c.result.rule));
      certified.push_back("rank-bound certificate r >= " + c.bound.str() + " (" + c.construction +
                          ")");
    }
  }
  const bool exact_refutation = !certified.empty() || !exact_only.empty();
  certified.insert(certified.end(), exact_only.begin(),
                   exact_only.end());  // every refutation, for the detail
  // 2./3. Heuristic and Z3, in a child process.
  // The proposal search keeps dense |T| x |T| double tables: small token sets only.
  const bool run_heuristic = options.heuristic && !exact_refutation && task.tokens.size() <= 1024;
  const bool run_z3 = options.z3 && (!exact_refutation || options.cross_check);
  Json solver_json = Json::object();
  bool resource_limited = false;
  if (run_heuristic || run_z3) {
    // A cross-check of an exactly refuted cell gets its own, smaller budget.
    SearchOptions solver_options = options;
    if (exact_refutation && options.timeout_seconds > 0)
      solver_options.timeout_seconds =
          std::min(options.timeout_seconds, options.cross_check_seconds);
    else if (exact_refutation)
      solver_options.timeout_seconds = options.cross_check_seconds;
    auto work = [&]() {
      return SolverSide(task, solver_options, run_heuristic, run_z3).run().dump();
    };
    if (options.isolate) {
      ChildLimits limits;
      limits.wall_seconds =
          solver_options.timeout_seconds > 0 ? solver_options.timeout_seconds + 30 : 0;
      limits.address_space_mb = options.memory_mb;
      try {
        const ChildOutcome outcome = run_in_child(work, limits);
        if (outcome.status == ChildStatus::Completed) {
          solver_json = Json::parse(outcome.output);
          result.solver_status = "completed";
        } else {
          result.solver_status = outcome.detail;
          resource_limited = true;
        }
      } catch (const ResourceError& e) {
        result.solver_status = std::string("resource limit in the search process: ") + e.what();
        resource_limited = true;
      }
    } else {
      try {
        solver_json = Json::parse(work());
        result.solver_status = "completed (in process)";
      } catch (const ResourceError& e) {
        result.solver_status = std::string("resource limit: ") + e.what();
        resource_limited = true;
      }
    }
  } else {
    result.solver_status = "not run";
  }
  if (solver_json.contains("heuristic")) {
    result.heuristic_ran = true;
    result.heuristic.restarts_run = solver_json["heuristic"]["restarts"].get<int>();
    const Json& best = solver_json["heuristic"]["best_max_error_double"];
    if (!best.is_null()) result.heuristic.best_max_error = best.get<double>();
    result.heuristic.accepted = solver_json["heuristic"]["accepted"].get<bool>();
  }
  if (solver_json.contains("z3"))
    for (const Json& a : solver_json["z3"]) result.z3.push_back(attempt_from_json(a));
  if (solver_json.contains("model")) {
    RankModel model;
    model.r = solver_json["model"]["r"].get<int>();
    model.query_features = matrix_from_json(solver_json["model"]["U"]);
    model.key_features = matrix_from_json(solver_json["model"]["V"]);
    model.readout = matrix_from_json(solver_json["model"]["F"]);
    // Re-verify in this process, independently of the search process.
    const ModelCheck check = verify_rank_model(task, model, options.search_class);
    if (!check.passes())
      throw InternalError(
          "the model returned by the search fails exact re-verification: " +
          (check.solves ? std::string("") : check.report.failing.str() + " failing instances; ") +
          "kernel rank " + std::to_string(check.kernel_rank) + "; " + check.class_detail);
    if (exact_refutation)
      throw InternalError(
          "a model that passes exact verification contradicts the exact refutation (" +
          certified.front() + "): a bug in the refutation or in the verifier");
    result.model = std::move(model);
    result.check = check;
    result.model_source = solver_json["model_source"].get<std::string>();
  }
  // Verdict.
  const Z3Attempt* e1 = nullptr;
  const Z3Attempt* e2 = nullptr;
  for (const Z3Attempt& a : result.z3) (a.encoding == "E1" ? e1 : e2) = &a;
  std::string z3_note;
  if (e1) {
    z3_note = "Z3 E1: " + e1->answer + (e1->reason.empty() ? "" : " (" + e1->reason + ")");
    if (e2)
      z3_note +=
          "; E2 on the same " + std::to_string(e2->working_instances) + " instances: " + e2->answer;
  }
  if (result.model) {
    result.verdict = SearchVerdict::Found;
    result.label = "found and verified";
    result.detail = result.model_source;
  } else if (exact_refutation) {
    result.verdict = SearchVerdict::Refuted;
    result.label =
        result.certificate_text ? "refuted (certified)" : "refuted (exact, not checker-verified)";
    result.detail = certified.front();
    for (std::size_t i = 1; i < certified.size(); ++i) result.detail += "; " + certified[i];
    if (!z3_note.empty())
      result.detail += "; cross-check " + z3_note;
    else if (run_z3)
      result.detail += "; Z3 cross-check did not finish: " + result.solver_status;
  } else if (e1 && e1->answer == "unsat") {
    result.verdict = SearchVerdict::Refuted;
    const bool corroborated = e2 && e2->answer == "unsat";
    result.label = corroborated ? "refuted (corroborated: E1 and E2 unsat)" : "refuted (Z3 only)";
    result.detail =
        "E1 is unsat on " + std::to_string(e1->working_instances) + " of the " +
        std::to_string(task.instances.size()) +
        " row instances (a subset, so the whole task is unsat too); " +
        (corroborated
             ? "E2, a different formulation, is unsat on the same subset"
             : "no independent confirmation: E2 " + (e2 ? e2->answer : std::string("not run")) +
                   ". Z3's nonlinear solver has known wrong-unsat bugs; treat this as unproven");
  } else {
    result.verdict = SearchVerdict::Unknown;
    result.label = "unknown";
    std::string why = z3_note.empty() ? "" : z3_note;
    if (result.heuristic_ran)
      why += std::string(why.empty() ? "" : "; ") +
             (result.heuristic.best_max_error
                  ? "heuristic best max error " + std::to_string(*result.heuristic.best_max_error) +
                        " (double precision) after " +
                        std::to_string(result.heuristic.restarts_run) + " restarts"
                  : "heuristic: no finite max error after " +
                        std::to_string(result.heuristic.restarts_run) + " restarts");
    if (resource_limited) why += std::string(why.empty() ? "" : "; ") + result.solver_status;
    result.detail = why;
  }
  result.resource_limited = result.verdict == SearchVerdict::Unknown &&
                            (resource_limited || (e1 && resource_reason(e1->reason)));
  return finish();
}

}  // namespace kernelrank
