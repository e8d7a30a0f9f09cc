// The budget arguments kernelrank.search and kernelrank.min_rank share, converted once into
// app/search_job.hpp's SearchBudget (the CLI binds the same options in
// cli/search_budget_options.cpp).
#include "search_budget.hpp"

namespace kernelrank::python {

SearchBudget search_budget_arg(const SearchBudgetArgs& a) {
  SearchBudget budget;
  budget.rlimit = int_arg<unsigned long long>(a.rlimit, "rlimit");
  budget.timeout = float_arg(a.timeout, "timeout");
  budget.memory_mb = int_arg<std::size_t>(a.memory, "memory");
  if (!a.save_smt2.is_none()) budget.save_smt2 = path_argument(a.save_smt2, "save_smt2");
  budget.seed = int_arg<std::uint64_t>(a.seed, "seed");
  budget.restarts = int_arg<int>(a.restarts, "restarts");
  budget.iterations = int_arg<int>(a.iterations, "iterations");
  budget.cross_check_seconds = float_arg(a.cross_check_seconds, "cross_check_seconds");
  budget.heuristic_share = float_arg(a.heuristic_share, "heuristic_share");
  budget.cross_check = !bool_arg(a.no_cross_check, "no_cross_check");
  return budget;
}

}  // namespace kernelrank::python
