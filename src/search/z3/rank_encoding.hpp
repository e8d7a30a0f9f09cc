// Internal: the two nonlinear encodings of "a rank-r model of the class solves
// the row instances in W", decided by the chosen SMT backend. Z3 builds the encoding
// in every case; cvc5 gets Z3's SMT2 text of it (search/cvc5/cvc5_process.hpp).
#pragma once

#include "kernelrank/search/rank_search.hpp"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kernelrank::detail {

struct EncodingRequest {
  const RankTask* task = nullptr;
  std::vector<std::size_t> working;                            // instance ids of W
  std::set<std::pair<std::uint32_t, std::uint32_t>> nk_pairs;  // extra alpha(q,z) >= 0 (NK)
  int r = 1;
  SearchClass search_class = SearchClass::NK;
  EncodingKind kind = EncodingKind::FeatureReadout;
  bool lemmas = true;
  const std::vector<DominationFact>* facts = nullptr;  // for the lemmas (E1)
  bool symmetry = true;
  bool plant_contradiction = false;
  unsigned long long rlimit = 0;
  unsigned timeout_ms = 0;
  bool want_smt2 = false;
  SmtSolver solver = SmtSolver::Z3;
};

struct EncodingAnswer {
  std::string answer;  // "sat" / "unsat" / "unknown"
  std::string reason;
  // Key features V (|T| x r) read from the model: exact when Z3 gave rationals,
  // otherwise midpoints of Z3's algebraic brackets at increasing precision.
  std::vector<RationalMatrix> key_features;
  bool algebraic = false;
  std::string smt2;
  double seconds = 0;
  std::size_t variables = 0, constraints = 0;
  std::string answered_by = "Z3";  // whose answer this is ("Z3" / "cvc5")
  // SmtSolver::Both: the other solver's answer on the same query ("unsat", "unknown (why)",
  // "stopped (... answered first)").
  std::string corroboration;
};

EncodingAnswer solve_encoding(const EncodingRequest& request);

}  // namespace kernelrank::detail
