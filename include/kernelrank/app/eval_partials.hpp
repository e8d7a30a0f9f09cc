// Eval split across processes (`kernelrank eval --shard k/K --partial FILE`, `--mpi`,
// `eval-merge`): which sharding options go together, a shard's partial result
// (eval/eval_partial.hpp) and its file, the merge of the partials of every shard, over MPI
// through a collective the caller supplies; and the one JSON form of an exact evaluation's
// report, sharded or not. Messages name parameters as {shard}, {partial}, {mpi},
// {cross-check} (core/errors.hpp).
#pragma once

#include "kernelrank/app/evaluation.hpp"
#include "kernelrank/app/head_source.hpp"
#include "kernelrank/eval/eval_partial.hpp"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

struct EvalSharding {
  std::optional<Shard> shard;  // k/K, with `partial`
  std::string partial;         // where this shard's result goes
  bool mpi = false;            // one shard per rank, merged at the root
  bool sharded() const { return !partial.empty() || mpi; }
};

// The options' combinations, against the plan and the head (a head that only ball
// arithmetic decides runs in one process). Call before evaluate_plan.
void check_eval_sharding(const EvalSharding& sharding, const EvalPlan& plan,
                         const HeadSource& head);

// This process's shard of an exact evaluation (run with plan.options.shard = shard).
EvalPartial shard_partial(const ExactEvaluation& run, const Shard& shard);
// Writes the partial file atomically.
void write_eval_partial(const std::string& path, const EvalPartial& partial);
// {"partial": path, "shard": "k/K", "blocks_evaluated", "blocks", "instances", "failing"}.
nlohmann::json eval_partial_json(const EvalPartial& partial, const std::string& path);

// Reads the partial files and merges them (one identity, every shard once).
EvalPartial merge_eval_partial_files(const std::vector<std::string>& paths);

// Every rank's text at the root, in rank order; std::nullopt on the other ranks.
using GatherAtRoot =
    std::function<std::optional<std::vector<std::string>>(const std::string& text)>;
// Every rank's partial merged at the root (std::nullopt elsewhere).
std::optional<EvalPartial> merge_over_ranks(const EvalPartial& own, const GatherAtRoot& gather);

// {"task", "model": {"description", "class", "class_detail"}, "report", "cross_check"?}: what
// eval prints for an exact evaluation, and eval-merge for merged partials.
nlohmann::json exact_evaluation_json(const EvalIdentity& id, const EvalReport& report,
                                     bool cross_checked);

}  // namespace kernelrank
