// One cell of the rank search: exact arguments first, then the floating-point
// proposal search and the counterexample-guided Z3 search in a child process,
// then exact re-verification and an honest label (see rank_search.hpp and
// docs/search.md).
#include "kernelrank/search/rank_search.hpp"

#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/refutation_certificate.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/search/child_process.hpp"
#include "kernelrank/search/elapsed.hpp"
#include "kernelrank/search/solver_side.hpp"
#include "search/cvc5/cvc5_process.hpp"

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

std::string to_string(SmtSolver solver) {
  switch (solver) {
    case SmtSolver::Z3:
      return "z3";
    case SmtSolver::Cvc5:
      return "cvc5";
    case SmtSolver::Both:
      return "both";
  }
  return "?";
}

SmtSolver parse_smt_solver(const std::string& text) {
  if (text == "z3") return SmtSolver::Z3;
  if (text == "cvc5") return SmtSolver::Cvc5;
  if (text == "both") return SmtSolver::Both;
  throw DomainError("{solver} must be z3, cvc5 or both, not '" + ParameterMessage::literal(text) +
                    "'");
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

bool resource_reason(const std::string& reason) {
  for (const char* word : {"timeout", "resource", "canceled", "memory", "budget"})
    if (reason.find(word) != std::string::npos) return true;
  return false;
}

// Refutations found by exact arguments, checker-verified first.
struct ExactRefutations {
  std::vector<std::string> certified, exact_only;
  bool any() const { return !certified.empty() || !exact_only.empty(); }
};

// Puts a certificate claiming r >= claim through the gate (the one check) and keeps the
// first one as the cell's certificate; returns the checker's bound.
Integer keep_certificate(const RankTask& task, std::string text, const Integer& claim,
                         const std::string& rule, SearchResult& result) {
  const std::optional<FamilyInput> family =
      task.cube ? std::nullopt
                : std::optional<FamilyInput>(FamilyInput{task.family_file, task.family_file_bytes});
  VerifiedCertificate verified =
      verify_certificate(CertificateDraft{std::move(text), family, claim});
  Integer bound = verified.bound();
  if (!result.certificate_text) {
    result.certificate_text = std::move(verified);
    result.certificate_rule = rule;
  }
  return bound;
}

// 1. Exact arguments: the order argument (r <= 2) and a rank-bound certificate.
ExactRefutations run_exact_arguments(const RankTask& task, const SearchOptions& options,
                                     SearchResult& result) {
  ExactRefutations found;
  // The order argument and the rank bounds rest on L2, which needs alpha >= 0.
  if (options.search_class == SearchClass::Signed) return found;
  const CertificateTask cert_task = certificate_task_of(task, options.search_class);
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
        (void)keep_certificate(task, *text, Integer(options.r + 1), "order", result);
        found.certified.push_back("order argument, " + result.order->summary);
      } else {
        found.exact_only.push_back(
            "order argument, " + result.order->summary + " (no checker certificate: " +
            (why_not.empty() ? "the task has no family file" : why_not) + ")");
      }
    }
  }
  if (options.exact_arguments && options.certificate && task.cube && task.n == 3 && task.m >= 2) {
    BoundSearchOptions bound_options;
    bound_options.m = task.m;
    bound_options.n = 3;
    // nullopt: no construction gives a bound at this m (too few coordinates).
    const std::optional<BoundSearchResult> bound = find_rank_bound(bound_options);
    if (bound && bound->bound.applicable && bound->bound.bound > Integer(options.r)) {
      CertifiedBound c;
      c.bound = bound->bound.bound;
      c.construction = bound->best.construction;
      c.rows = bound->best.rows;
      c.result = bound->bound;
      // What search reports as "r >=" is the checker's number.
      c.bound =
          keep_certificate(task, cube_certificate(cert_task, c.construction, c.rows, c.result),
                           c.bound, to_string(c.result.rule), result);
      result.certificate = c;
      found.certified.push_back("rank-bound certificate r >= " + c.bound.str() + " (" +
                                c.construction + ")");
    }
  }
  return found;
}

struct SolverRun {
  Json answer = Json::object();
  bool resource_limited = false;
};

// 2./3. Heuristic and Z3, in a child process unless options.isolate is off.
SolverRun run_solver(const RankTask& task, const SearchOptions& options, bool run_heuristic,
                     bool run_z3, bool exact_refutation, SearchResult& result) {
  SolverRun run;
  if (!run_heuristic && !run_z3) {
    result.solver_status = "not run";
    return run;
  }
  // A cross-check of an exactly refuted cell gets its own, smaller budget.
  SearchOptions solver_options = options;
  if (exact_refutation && options.timeout_seconds > 0)
    solver_options.timeout_seconds = std::min(options.timeout_seconds, options.cross_check_seconds);
  else if (exact_refutation)
    solver_options.timeout_seconds = options.cross_check_seconds;
  auto work = [&]() {
    return detail::run_solver_side(task, solver_options, run_heuristic, run_z3).dump();
  };
  try {
    if (!options.isolate) {
      run.answer = Json::parse(work());
      result.solver_status = "completed (in process)";
      return run;
    }
    ChildLimits limits;
    limits.wall_seconds =
        solver_options.timeout_seconds > 0 ? solver_options.timeout_seconds + 30 : 0;
    limits.address_space_mb = options.memory_mb;
    const ChildOutcome outcome = run_in_child(work, limits);
    if (outcome.status == ChildStatus::Completed) {
      run.answer = Json::parse(outcome.output);
      result.solver_status = "completed";
    } else {
      result.solver_status = outcome.detail;
      run.resource_limited = true;
    }
  } catch (const ResourceError& e) {
    result.solver_status = std::string(options.isolate ? "resource limit in the search process: "
                                                       : "resource limit: ") +
                           e.what();
    run.resource_limited = true;
  }
  return run;
}

// Reads the solver's answer; a model is re-verified in this process.
void read_solver_answer(const RankTask& task, const SearchOptions& options, const Json& answer,
                        const ExactRefutations& exact, SearchResult& result) {
  if (answer.contains("heuristic")) {
    result.heuristic_ran = true;
    result.heuristic.restarts_run = answer["heuristic"]["restarts"].get<int>();
    const Json& best = answer["heuristic"]["best_max_error_double"];
    if (!best.is_null()) result.heuristic.best_max_error = best.get<double>();
    result.heuristic.accepted = answer["heuristic"]["accepted"].get<bool>();
  }
  if (answer.contains("z3"))
    for (const Json& a : answer["z3"]) result.z3.push_back(detail::attempt_from_json(a));
  if (!answer.contains("model")) return;
  RankModel model;
  model.r = answer["model"]["r"].get<int>();
  model.query_features = detail::matrix_from_json(answer["model"]["U"]);
  model.key_features = detail::matrix_from_json(answer["model"]["V"]);
  model.readout = detail::matrix_from_json(answer["model"]["F"]);
  // Re-verify in this process, independently of the search process.
  const ModelCheck check = verify_rank_model(task, model, options.search_class);
  if (!check.passes())
    throw InternalError(
        "the model returned by the search fails exact re-verification: " +
        (check.solves ? std::string("") : check.report.failing.str() + " failing instances; ") +
        "kernel rank " + std::to_string(check.kernel_rank) + "; " + check.class_detail);
  if (exact.any())
    throw InternalError(
        "a model that passes exact verification contradicts the exact refutation (" +
        (exact.certified.empty() ? exact.exact_only : exact.certified).front() +
        "): a bug in the refutation or in the verifier");
  result.model = std::move(model);
  result.check = check;
  result.model_source = answer["model_source"].get<std::string>();
}

// "Z3", "cvc5", or for --solver both the solver that answered first.
std::string solver_name(const Z3Attempt& attempt) {
  return attempt.solver.empty() ? "Z3" : attempt.answered_by;
}

// The verdict and its honest label.
void set_verdict(const RankTask& task, const ExactRefutations& exact, bool run_z3,
                 bool resource_limited, SearchResult& result) {
  const Z3Attempt* e1 = nullptr;
  const Z3Attempt* e2 = nullptr;
  for (const Z3Attempt& a : result.z3) (a.encoding == "E1" ? e1 : e2) = &a;
  std::string z3_note;
  if (e1) {
    z3_note = solver_name(*e1) + " E1: " + e1->answer +
              (e1->reason.empty() ? "" : " (" + e1->reason + ")");
    if (!e1->corroboration.empty()) z3_note += "; on the same query " + e1->corroboration;
    if (e2)
      z3_note +=
          "; E2 on the same " + std::to_string(e2->working_instances) + " instances: " + e2->answer;
  }
  if (result.model) {
    result.verdict = SearchVerdict::Found;
    result.label = "found and verified";
    result.detail = result.model_source;
  } else if (exact.any()) {
    result.verdict = SearchVerdict::Refuted;
    result.label =
        result.certificate_text ? "refuted (certified)" : "refuted (exact, not checker-verified)";
    std::vector<std::string> all = exact.certified;  // every refutation, for the detail
    all.insert(all.end(), exact.exact_only.begin(), exact.exact_only.end());
    result.detail = all.front();
    for (std::size_t i = 1; i < all.size(); ++i) result.detail += "; " + all[i];
    if (!z3_note.empty())
      result.detail += "; cross-check " + z3_note;
    else if (run_z3)
      result.detail += "; Z3 cross-check did not finish: " + result.solver_status;
  } else if (e1 && e1->answer == "unsat") {
    result.verdict = SearchVerdict::Refuted;
    const bool corroborated = e2 && e2->answer == "unsat";
    // Both solvers unsat on the very same E1 query (--solver both).
    const bool agree = e1->corroboration.find(": unsat") != std::string::npos;
    const std::string who = solver_name(*e1);
    result.label = agree          ? "refuted (Z3 and cvc5 agree)"
                   : corroborated ? "refuted (corroborated: E1 and E2 unsat" +
                                        (e1->solver.empty() ? "" : ", " + who) + ")"
                                  : "refuted (" + who + " only)";
    result.detail =
        "E1 is unsat on " + std::to_string(e1->working_instances) + " of the " +
        std::to_string(task.instances.size()) +
        " row instances (a subset, so the whole task is unsat too)" +
        (e1->solver.empty() ? "" : ", answered by " + e1->answered_by) + "; " +
        (agree ? "the other solver is unsat on the same query (" + e1->corroboration + "); E2 " +
                     (e2 ? e2->answer : std::string("not run"))
         : corroborated
             ? "E2, a different formulation, is unsat on the same subset" +
                   (e1->corroboration.empty() ? "" : "; the other solver: " + e1->corroboration)
             : "no independent confirmation: E2 " + (e2 ? e2->answer : std::string("not run")) +
                   (e1->corroboration.empty() ? "" : "; " + e1->corroboration) + ". " + who +
                   (who == "Z3" ? "'s nonlinear solver has known wrong-unsat bugs"
                                : "'s unsat is not checked by anything else") +
                   "; treat this as unproven");
  } else {
    result.verdict = SearchVerdict::Unknown;
    result.label = "unknown";
    std::string why = z3_note;
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
}

}  // namespace

SearchResult search_rank(const RankTask& task, const SearchOptions& options) {
  const auto start = Clock::now();
  if (options.r < 0) throw DomainError("{r} must be >= 0");
  if (options.r > 64) throw DomainError("{r} must be at most 64 for the rank search");
  if (task.instances.empty()) throw UsageError("the task has no instances");
  // Models are |T| x |T| tables (the tabular file format allows 4096 tokens).
  if (task.tokens.size() > 4096)
    throw ResourceError(
        "the task has " + std::to_string(task.tokens.size()) +
        " distinct tokens; the rank search builds |T| x |T| tables and handles at most 4096");
  SearchResult result;
  result.z3_version = z3_version();
  // A missing cvc5 is a clear error here, before any child process starts.
  if (options.z3 && options.solver != SmtSolver::Z3) {
    (void)detail::require_cvc5();
    result.cvc5_version = detail::cvc5_version();
  }
  if (options.r == 0) {
    // No features: alpha = 0, every denominator is 0, every output undefined.
    result.zero_kernel = true;
    result.verdict = SearchVerdict::Refuted;
    result.detail =
        "with no features the kernel is identically 0, so every instance has a zero denominator";
    if (task.cube && task.n >= 3) {
      (void)keep_certificate(task,
                             one_row_certificate(certificate_task_of(task, options.search_class)),
                             Integer(1), "one row", result);
      result.label = "refuted (certified)";
    } else {
      result.label = "refuted (exact, not checker-verified)";
    }
  } else {
    // Exact arguments count as certified only with a certificate the checker's library
    // verifies; the rest are exact but not checker-verified.
    const ExactRefutations exact = run_exact_arguments(task, options, result);
    // The proposal search keeps dense |T| x |T| double tables: small token sets only.
    const bool run_heuristic = options.heuristic && !exact.any() && task.tokens.size() <= 1024;
    const bool run_z3 = options.z3 && (!exact.any() || options.cross_check);
    const SolverRun run = run_solver(task, options, run_heuristic, run_z3, exact.any(), result);
    read_solver_answer(task, options, run.answer, exact, result);
    set_verdict(task, exact, run_z3, run.resource_limited, result);
  }
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace kernelrank
