// The budget arguments kernelrank.search and kernelrank.min_rank share (search_budget.cpp).
#pragma once

#include "bindings.hpp"

#include "kernelrank/app/search_job.hpp"

namespace kernelrank::python {

// The arguments as given, each converted by its keyword with the CLI's ranges.
struct SearchBudgetArgs {
  py::object rlimit, timeout, memory, save_smt2, seed, restarts, iterations, cross_check_seconds,
      heuristic_share, no_cross_check;
};

SearchBudget search_budget_arg(const SearchBudgetArgs& args);

}  // namespace kernelrank::python
