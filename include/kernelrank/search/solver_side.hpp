// Internal: the solver side of one rank-search cell. The floating-point proposal search,
// then the counterexample-guided Z3 search (E1, corroborated by E2 on unsat); it runs in a
// child process and answers in JSON, so a crash or a resource limit stays in the child.
// Every model it reports was completed and re-verified exactly; search_rank re-verifies
// it again in its own process.
#pragma once

#include "kernelrank/search/rank_search.hpp"

#include <nlohmann/json.hpp>

namespace kernelrank::detail {

// {"heuristic": {...}, "z3": [attempts], "model": {"r", "U", "V", "F"}, "model_source"}
nlohmann::json run_solver_side(const RankTask& task, const SearchOptions& options, bool heuristic,
                               bool z3);

nlohmann::json matrix_to_json(const RationalMatrix& matrix);
RationalMatrix matrix_from_json(const nlohmann::json& rows);
nlohmann::json attempt_to_json(const Z3Attempt& attempt);
// The proposal search's summary as the child sends it and both front ends show it.
nlohmann::json heuristic_to_json(const HeuristicSummary& heuristic);
Z3Attempt attempt_from_json(const nlohmann::json& json);

}  // namespace kernelrank::detail
