// The budget options `search` and `min-rank` share (search_budget_options.cpp), bound straight
// into app/search_job.hpp's SearchBudget; Python converts the same keywords in
// python/search_budget.cpp.
#pragma once

#include "kernelrank/app/search_job.hpp"

#include <CLI/CLI.hpp>

namespace kernelrank::cli {

// A table spends its budget per cell; a single search spends it once.
enum class BudgetScope { OneSearch, PerCell };

// --rlimit, --timeout, --memory, --save-smt2, --seed, --restarts, --iterations,
// --cross-check-seconds, --heuristic-share and --no-cross-check (which clears
// budget.cross_check after parsing).
void add_search_budget_options(CLI::App& command, SearchBudget& budget, BudgetScope scope);

}  // namespace kernelrank::cli
