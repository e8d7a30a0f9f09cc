// Search and refutation of rank-r NK / PF realisations (issue 5, docs/search.md).
//
// One cell (task, r, class) is settled by, in order:
//   1. exact arguments that need no solver: r = 0 (zero kernel), the order
//      argument for r <= 2 (order_argument.hpp), and for the cube T(m,3) a certified
//      rank bound from the bounds code (kernelrank-check can re-check it);
//   2. a floating-point proposal search whose key features are rounded to
//      rationals and completed exactly, one linear problem per query row;
//   3. Z3 on a lazily grown subset W of the row instances (counterexample-guided:
//      solve W with nonlinear arithmetic, fix the key features, complete every
//      row by exact linear arithmetic, add the unsat cores of the rows that
//      fail). Encoding E1 ("feature-readout": U, V, F, degree 3, alpha(q,q) = 1)
//      is primary; an unsat W is re-checked by E2 ("kernel-product": U, V and
//      P = A.F with the readout eliminated, degree 2, a different
//      normalisation and symmetry breaking).
// Every model is re-verified by the exact evaluator on the original task in
// the calling process; an unsat that only Z3 vouches for is labelled so.
#pragma once

#include "kernelrank/bounds/bound_search.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/order_argument.hpp"
#include "kernelrank/bounds/rank_task.hpp"
#include "kernelrank/search/heuristic_rank_search.hpp"
#include "kernelrank/search/rank_model.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

enum class EncodingKind { FeatureReadout, KernelProduct };
std::string to_string(EncodingKind encoding);   // "E1 feature-readout (U,V,F)" etc.
std::string short_name(EncodingKind encoding);  // "E1" / "E2"

// The version string of the linked Z3 (recorded with every result).
std::string z3_version();

// The SMT backend of the nonlinear queries: Z3 (linked), cvc5 (an optional executable,
// fed the same SMT2 text) or both side by side, the first answer winning and the other
// kept running only to corroborate an unsat (docs/search.md, "Solvers").
enum class SmtSolver { Z3, Cvc5, Both };
std::string to_string(SmtSolver solver);              // "z3" / "cvc5" / "both"
SmtSolver parse_smt_solver(const std::string& text);  // throws UsageError naming --solver

struct SearchOptions {
  int r = 1;
  SearchClass search_class = SearchClass::NK;
  // Z3 limits per check: rlimit is deterministic for a given Z3 build (0: none);
  // the wall-clock budget below bounds the whole search.
  unsigned long long rlimit = 0;
  double timeout_seconds = 60;   // whole cell (0: no limit)
  std::size_t memory_mb = 8192;  // address-space limit of the search process
  bool isolate = true;           // run heuristic and Z3 in a child process
  bool heuristic = true;
  HeuristicOptions heuristic_options;
  bool z3 = true;  // run the SMT search (with `solver`, not only Z3)
  SmtSolver solver = SmtSolver::Z3;
  // Also run Z3 when an exact argument already refutes the cell (a
  // cross-check: a verified model there would expose a bug).
  bool cross_check = true;
  double cross_check_seconds = 60;  // wall-clock budget of that cross-check
  double heuristic_share = 0.5;     // share of the budget the proposal search may use before Z3
  bool lemmas = true;               // seed E1 with the L2 inequalities (implied, so sound)
  bool symmetry = true;             // feature order and cube coordinate order (WLOG)
  bool certificate = true;          // try the bounds code (cube, n = 3)
  bool exact_arguments =
      true;  // false: skip the order argument and the certificate (tests, benchmarks)
  int max_iterations = 400;   // counterexample-guided rounds
  bool plain = false;         // the naive encoding: one E1 call on all row instances (benchmarks)
  std::string save_smt2_dir;  // write the deciding SMT2 queries here
  std::string smt2_prefix = "search";
  // Test hook: E1 gets a contradictory constraint, so its unsat must be caught
  // by E2 and reported as an internal error.
  bool plant_disagreement = false;
  std::function<void(const std::string&)> log;  // progress lines (may be empty)
};

enum class SearchVerdict { Found, Refuted, Unknown };
std::string to_string(SearchVerdict verdict);

struct Z3Attempt {
  std::string encoding;  // "E1" / "E2"
  std::string answer;    // sat / unsat / unknown / not run
  std::string reason;    // Z3's reason_unknown, a resource message, ...
  int iterations = 0;
  std::size_t working_instances = 0;  // |W| when it ended
  std::size_t working_rows = 0;
  double seconds = 0;
  std::vector<std::string> smt2_files;
  // Set unless the solver is Z3 alone (so Z3-only output keeps its old form):
  std::string solver;         // "cvc5" / "both"
  std::string answered_by;    // "Z3" / "cvc5": whose answer this is
  std::string corroboration;  // the other solver's answer on the same query ("both")
};

struct CertifiedBound {
  Integer bound = 0;
  std::string construction;
  std::vector<BoundRow> rows;
  RankBoundResult result;
};

struct SearchResult {
  SearchVerdict verdict = SearchVerdict::Unknown;
  // "found and verified", "refuted (certified: ...)", "refuted (corroborated: ...)",
  // "refuted (Z3 only)", "unknown"
  std::string label;
  std::string detail;  // why, in a sentence or two
  std::optional<RankModel> model;
  std::optional<ModelCheck> check;  // the exact re-verification of `model`
  std::string model_source;
  std::optional<OrderArgument> order;
  std::optional<CertifiedBound> certificate;
  // The certificate behind "refuted (certified)", verified in memory by the checker's
  // library; `search --cert` writes it. Its rule: "order", "trace", "dominance", "one row".
  std::optional<VerifiedCertificate> certificate_text;
  std::string certificate_rule;
  bool zero_kernel = false;  // r = 0
  std::vector<Z3Attempt> z3;
  HeuristicSummary heuristic;
  bool heuristic_ran = false;
  std::string solver_status;      // how the child process ended ("completed", timeout, death)
  bool resource_limited = false;  // unknown because a time / memory / rlimit limit was hit
  std::string z3_version;
  std::string cvc5_version;  // set when cvc5 ran
  double seconds = 0;
};

SearchResult search_rank(const RankTask& task, const SearchOptions& options);

// Exact completion of a rank model from fixed key features V (|T| x r): each
// query row is a linear problem in (u_q, P_q = alpha(q,.) F_q), solved by Z3's
// linear real arithmetic. Rows that are infeasible are listed in
// `failed_rows`; `cores` gets, for each, a subset of its instance ids that is
// already infeasible with this V. With `query_features` (a proposal for U),
// each row first tries that u_q with only the readout unknown (with a margin).
struct Completion {
  bool complete = false;
  RankModel model;
  std::vector<std::uint32_t> failed_rows;
  std::vector<std::vector<std::size_t>> cores;
  std::vector<std::vector<std::uint32_t>> nk_pairs;  // keys z whose alpha(q,z) >= 0 is in the core
};
Completion complete_from_key_features(const RankTask& task, const RationalMatrix& key_features,
                                      int r, SearchClass search_class,
                                      const std::vector<std::size_t>* only_instances = nullptr,
                                      unsigned timeout_ms = 60'000,
                                      const RationalMatrix* query_features = nullptr);

}  // namespace kernelrank
