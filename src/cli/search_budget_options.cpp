// The budget options of `search` and `min-rank`; see search_budget_options.hpp.
#include "search_budget_options.hpp"

namespace kernelrank::cli {

void add_search_budget_options(CLI::App& command, SearchBudget& budget, BudgetScope scope) {
  const bool per_cell = scope == BudgetScope::PerCell;
  command
      .add_option("--rlimit", budget.rlimit,
                  std::string("Z3 resource limit per check (deterministic; 0: none)"))
      ->capture_default_str();
  command
      .add_option("--timeout", budget.timeout,
                  per_cell ? "Wall-clock budget per cell in seconds (0: none)"
                           : "Wall-clock budget in seconds (0: none)")
      ->capture_default_str();
  command
      .add_option("--memory", budget.memory_mb,
                  per_cell ? "Address-space limit of each search process in MiB (0: none)"
                           : "Address-space limit of the search process in MiB (0: none)")
      ->capture_default_str();
  command.add_option("--save-smt2", budget.save_smt2,
                     "Save the deciding Z3 queries (SMT2) in this directory");
  command.add_option("--seed", budget.seed, "First seed of the floating-point proposal search")
      ->capture_default_str();
  command
      .add_option(
          "--restarts", budget.restarts,
          per_cell ? "Restarts of the proposal search per cell" : "Restarts of the proposal search")
      ->capture_default_str();
  command.add_option("--iterations", budget.iterations, "Iterations per restart")
      ->capture_default_str();
  command
      .add_option("--cross-check-seconds", budget.cross_check_seconds,
                  "Budget of the Z3 cross-check of an exactly refuted cell")
      ->capture_default_str();
  command
      .add_option("--heuristic-share", budget.heuristic_share,
                  "Share of the budget for the proposal search before Z3 (0..1)")
      ->capture_default_str();
  // A flag that clears a default-on field: CLI11 sets the flag's bool, the callback the field.
  command.add_flag_callback(
      "--no-cross-check", [&budget] { budget.cross_check = false; },
      per_cell ? "Skip Z3 on cells an exact argument refutes"
               : "Skip Z3 when an exact argument already refutes r");
}

}  // namespace kernelrank::cli
