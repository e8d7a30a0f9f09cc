// The solver side of one rank-search cell (see solver_side.hpp).
#include "kernelrank/search/solver_side.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/search/elapsed.hpp"
#include "search/z3/rank_encoding.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

namespace kernelrank::detail {

using Json = nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

// How long one counterexample-guided round may spend on the proposal search (cvc5 alone).
constexpr double kProposalRoundSeconds = 5;

// A proposal's features are rounded to these denominators in turn until one completes.
constexpr std::int64_t kProposalDenominators[] = {1000, 100000, 10000000};

// A proposal's feature table rounded to rationals with denominators <= max_den, negative
// entries (which the multiplicative updates never produce) clipped to 0.
RationalMatrix round_features(const std::vector<std::vector<double>>& table, std::int64_t max_den) {
  RationalMatrix out(table.size());
  for (std::size_t i = 0; i < table.size(); ++i)
    for (double x : table[i]) out[i].push_back(std::max(Rational(0), rational_near(x, max_den)));
  return out;
}

}  // namespace

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
  Json json = {{"encoding", a.encoding},
               {"answer", a.answer},
               {"reason", a.reason},
               {"iterations", a.iterations},
               {"working_instances", a.working_instances},
               {"working_rows", a.working_rows},
               {"seconds", a.seconds},
               {"smt2_files", a.smt2_files}};
  if (!a.solver.empty()) {
    json["solver"] = a.solver;
    json["answered_by"] = a.answered_by;
    if (!a.corroboration.empty()) json["corroboration"] = a.corroboration;
  }
  return json;
}

Json heuristic_to_json(const HeuristicSummary& heuristic) {
  const std::optional<double>& best = heuristic.best_max_error;
  return {{"restarts", heuristic.restarts_run},
          {"best_max_error_double", best ? Json(*best) : Json()},
          {"accepted", heuristic.accepted}};
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
  if (j.contains("solver")) {
    a.solver = j.at("solver").get<std::string>();
    a.answered_by = j.at("answered_by").get<std::string>();
    if (j.contains("corroboration")) a.corroboration = j.at("corroboration").get<std::string>();
  }
  return a;
}

namespace {

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
          for (std::int64_t max_den : kProposalDenominators) {
            const RationalMatrix V = round_features(p.key_features, max_den);
            const RationalMatrix U = round_features(p.query_features, max_den);
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
    out["heuristic"] = heuristic_to_json(summary);
  }

  // After a sat round: a model of the whole task (found_ is set), or new counterexamples
  // added to W (true), or nothing learned (false).
  bool learn_from(const detail::EncodingAnswer& answer, bool proposed) {
    for (const RationalMatrix& V : answer.key_features) {
      // Within the wall clock: a row that runs out of it ends the search as a resource limit.
      const Completion c = complete_from_key_features(task_, V, opt_.r, opt_.search_class, nullptr,
                                                      completion_timeout_ms());
      if (c.complete) {
        accept_model(
            c.model,
            (proposed ? "floating-point proposal on W, rounded; found in a round of the "
                        "counterexample-guided search"
                      : answer.answered_by + " " + to_string(EncodingKind::FeatureReadout)) +
                " on " + std::to_string(working_.size()) + " of " +
                std::to_string(task_.instances.size()) + " row instances, key features" +
                (answer.algebraic ? " (rational approximations of algebraic numbers)" : "") +
                " completed row by row by exact linear arithmetic");
        return false;
      }
      const std::size_t before = working_.size() + nk_pairs_.size();
      for (std::size_t i = 0; i < c.failed_rows.size(); ++i) {
        working_.insert(c.cores[i].begin(), c.cores[i].end());
        for (std::uint32_t z : c.nk_pairs[i]) nk_pairs_.insert({c.failed_rows[i], z});
      }
      if (working_.size() + nk_pairs_.size() > before) return true;
      // The cores are already in W: only the rounding of algebraic values can
      // explain it; try the next precision.
      if (proposed) return false;  // the solver answers this round instead
      if (!answer.algebraic)
        throw InternalError(
            "Z3's rational model of W does not extend to W's own rows under exact linear "
            "arithmetic (Z3 or encoding bug)");
    }
    return false;
  }

  // The proposal search on W alone, for a few seconds: key features whose exact completion
  // covers every row instance of W, as a sat answer; nullopt when none was found.
  std::optional<detail::EncodingAnswer> propose_for_working() {
    RankTask sub = task_;
    sub.instances.clear();
    for (std::size_t id : working_) sub.instances.push_back(task_.instances[id]);
    if (sub.instances.empty()) return std::nullopt;
    const std::vector<std::size_t> ids(working_.begin(), working_.end());
    HeuristicOptions h = opt_.heuristic_options;
    h.r = opt_.r;
    const auto started = Clock::now();
    const double budget = std::min(kProposalRoundSeconds, std::max(0.0, remaining() / 4));
    h.should_stop = [&] { return seconds_since(started) > budget; };
    std::optional<RationalMatrix> found;
    heuristic_rank_search(sub, h, [&](const HeuristicProposal& p) {
      for (std::int64_t max_den : kProposalDenominators) {
        RationalMatrix V = round_features(p.key_features, max_den);
        if (complete_from_key_features(task_, V, opt_.r, opt_.search_class, &ids).complete) {
          found = std::move(V);
          return true;
        }
      }
      return false;
    });
    if (!found) {
      log("proposal search on W (" + std::to_string(ids.size()) + " instances): nothing in " +
          std::to_string(seconds_since(started)) + " s; the solver decides the round");
      return std::nullopt;
    }
    detail::EncodingAnswer answer;
    answer.answer = "sat";
    answer.answered_by = "proposal";
    answer.key_features.push_back(std::move(*found));
    answer.seconds = seconds_since(started);
    return answer;
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
    req.solver = opt_.solver;
    return req;
  }

  // Which backend answered, recorded only when it is not Z3 alone.
  void note_solver(Z3Attempt& attempt, const detail::EncodingAnswer& answer) const {
    if (opt_.solver == SmtSolver::Z3) return;
    attempt.solver = to_string(opt_.solver);
    attempt.answered_by = answer.answered_by;
    attempt.corroboration = answer.corroboration;
  }

  unsigned completion_timeout_ms() const {
    constexpr double kRowLimitMs = 60'000;
    if (opt_.timeout_seconds <= 0) return static_cast<unsigned>(kRowLimitMs);
    return static_cast<unsigned>(std::clamp(remaining() * 1000, 1.0, kRowLimitMs));
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
    int proposal_rounds = 0;
    bool solver_next_round = false;
    for (int iteration = 1; iteration <= opt_.max_iterations; ++iteration) {
      primary.iterations = iteration;
      if (remaining() <= 0) {
        primary.answer = "unknown";
        primary.reason = "wall-clock budget exhausted";
        primary.corroboration.clear();  // it was about an earlier round's query
        break;
      }
      // cvc5 without libpoly stalls on satisfiable rounds (docs/search.md), so with cvc5
      // alone a round first tries the proposal search on W: a proposal counts only when its
      // rounded key features complete every row of W exactly, which is what a solver's sat
      // answer must do too. cvc5 decides every round the proposal cannot answer, the
      // deciding unsat included.
      std::optional<detail::EncodingAnswer> proposed;
      if (opt_.solver == SmtSolver::Cvc5 && !solver_next_round) proposed = propose_for_working();
      solver_next_round = false;
      const detail::EncodingAnswer answer =
          proposed ? *proposed : detail::solve_encoding(request(EncodingKind::FeatureReadout));
      if (proposed) ++proposal_rounds;
      last_smt2 = answer.smt2;
      log("E1 round " + std::to_string(iteration) + ": |W| = " + std::to_string(working_.size()) +
          " instances, " +
          (proposed ? std::string("an exactly completed proposal")
                    : std::to_string(answer.variables) + " variables") +
          ": " + answer.answer + " (" + std::to_string(answer.seconds) + " s)");
      if (!proposed) note_solver(primary, answer);  // the attempt stays the solver's
      if (answer.answer != "sat") {
        primary.answer = answer.answer;
        primary.reason = answer.reason;
        break;
      }
      const bool progress = learn_from(answer, proposed.has_value());
      if (found_) {
        if (proposed) note_solver(primary, answer);  // the model is the proposal's
        primary.answer = "sat";
        break;
      }
      if (!progress && proposed) {
        solver_next_round = true;
        continue;
      }
      if (!progress) {
        primary.answer = "unknown";
        primary.reason =
            "Z3's model has irrational algebraic values and no rational approximation (up to 64 "
            "digits) completed the rows";
        break;
      }
      if (iteration == opt_.max_iterations) {
        primary.answer = "unknown";
        primary.reason =
            "counterexample-guided rounds exhausted (" + std::to_string(opt_.max_iterations) + ")";
      }
    }
    if (proposal_rounds > 0)
      primary.reason += std::string(primary.reason.empty() ? "" : "; ") +
                        std::to_string(proposal_rounds) +
                        " satisfiable round(s) answered by exactly completed proposals";
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
    note_solver(second, answer);
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

Json run_solver_side(const RankTask& task, const SearchOptions& options, bool heuristic, bool z3) {
  return SolverSide(task, options, heuristic, z3).run();
}

}  // namespace kernelrank::detail
