// An independent, deliberately naive evaluator for any single-head model, shared by the tests
// that say "independent" (test_search.cpp, test_counterexample.cpp, test_softmax_base.cpp).
// Written from the definition alone (model.hpp, theory.md §2):
//
//   y = sum_j alpha(x_i, x_j) F_{x_i}(x_j) / sum_j alpha(x_i, x_j)   (query position i),
//
// undefined when the denominator is 0; the target is t_i = min_j popcount(x_i AND x_j), counted
// here character by character on the tokens' 0/1 strings; an instance fails when y is undefined
// or |y - t_i| >= 1/2. Everything is exact (kernelrank::Rational).
//
// It does not call evaluate_instance, evaluate_cube, evaluate_family, min_ip_target, inner(),
// for_each_sequence, to_tabular_model, kernel_table(const RankModel&) or exact_rank: it reads
// alpha and F either through Model::kernel()/readout(), or straight from a TabularModel's tables,
// or from the U, V, F matrices of a search model (alpha(t_a, t_b) = sum_k U[a][k] V[b][k]), and
// enumerates the cube with its own odometer.
#pragma once

#include "naive_parametric.hpp"  // NaiveOutcome

#include "kernelrank/bounds/rank_task.hpp"
#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/models/model.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/search/rank_model.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace kernelrank::oracle {

// popcount(a AND b) from the 0/1 strings.
int naive_overlap(const Token& a, const Token& b);
// min over all positions j (the query's own included) of naive_overlap(x_query, x_j).
int naive_target(const Instance& instance);

// Through the model's kernel() and readout(), with the 0-based query and key positions.
NaiveOutcome naive_model_outcome(const Model& model, const Instance& instance);
// From a position-independent TabularModel's kernel and readout tables; tokens are looked up
// by a linear scan of tokens() (throws std::invalid_argument for a token it does not list or a
// position-dependent table).
NaiveOutcome naive_table_outcome(const TabularModel& model, const Instance& instance);
// A search model over a token list (tokens[a] is row/column a of U, V and F):
// alpha(t_a, t_b) = sum_k U[a][k] V[b][k], F_{t_a}(t_b) = F[a][b].
NaiveOutcome naive_rank_outcome(const std::vector<Token>& tokens, const RankModel& model,
                                const Instance& instance);

struct NaiveSweep {
  std::uint64_t instances = 0;
  std::uint64_t failing = 0;
  std::uint64_t undefined = 0;
  std::optional<Rational> max_error;  // over the defined outputs; nullopt if none is defined
  std::optional<Instance> first_failure;
  bool solves() const { return instances > 0 && failing == 0; }
};

// Every length-n sequence over {0,1}^m (its own odometer over token indices), queried at
// each of the 0-based `query_positions` (default: position 1 only, the "first" mode).
NaiveSweep naive_cube_sweep(int m, int n,
                            const std::function<NaiveOutcome(const Instance&)>& evaluate,
                            const std::vector<int>& query_positions = {0});

// Rank of a rational matrix by plain Gaussian elimination.
std::size_t naive_rank(RationalMatrix matrix);

}  // namespace kernelrank::oracle
