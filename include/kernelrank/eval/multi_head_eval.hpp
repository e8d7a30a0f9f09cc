// Exact evaluation of multi-head models (models/multi_head.hpp, theory.md §6):
//   y = sum_h y_h,  y_h = sum_j alpha_h(q, x_j) F_h,q(x_j) / sum_j alpha_h(q, x_j),
// undefined (a failure) when any head's denominator is zero. Exact rationals only.
//
// The reports have the fields and conventions of the single-head ones (evaluate.hpp):
// targets min_j <x_q, x_j>, the query positions of options.mode, failures listed in
// enumeration order (a family: file order; a token set or the cube: the single-head order,
// docs/cli.md: query position, then the query's token, then the other positions), the worst
// instance the first attaining the maximum. negative_solved counts solved instances with some
// head's denominator < 0, and negative_example is the first of them. Token sets and the cube
// tabulate every head over the universe once; a head that does not define a token throws
// ModelDomainError, as the single-head evaluators do. Single-threaded: options.threads and
// options.shard are ignored (the report never depends on them).
#pragma once

#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/multi_head.hpp"

#include <vector>

namespace kernelrank {

// Exact output of one instance, straight from the heads (throws ModelDomainError if a head
// does not define one of the tokens).
InstanceOutcome evaluate_multi_head_instance(const MultiHeadModel& model, const Instance& instance);

EvalReport evaluate_multi_head_family(const MultiHeadModel& model, const Family& family,
                                      const EvalOptions& options);

// All length-n sequences over `universe` (n >= 1), every query of options.mode; refused with
// ResourceError beyond options.instance_limit instances.
EvalReport evaluate_multi_head_token_set(const MultiHeadModel& model,
                                         const std::vector<Token>& universe, int n,
                                         const EvalOptions& options);

// The cube task T(m,n): all 2^(mn) sequences, as evaluate_multi_head_token_set over {0,1}^m.
EvalReport evaluate_multi_head_cube(const MultiHeadModel& model, int m, int n,
                                    const EvalOptions& options);

}  // namespace kernelrank
