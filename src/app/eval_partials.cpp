// See eval_partials.hpp.
#include "kernelrank/app/eval_partials.hpp"

#include "kernelrank/app/report_json.hpp"
#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"

#include <nlohmann/json.hpp>

namespace kernelrank {

void check_eval_sharding(const EvalSharding& sharding, const EvalPlan& plan,
                         const HeadSource& head) {
  if (sharding.shard && sharding.partial.empty())
    throw DomainError("{shard} needs {partial} FILE (where the shard's result goes)");
  if (sharding.mpi && (sharding.shard || !sharding.partial.empty()))
    throw DomainError("{mpi} shards by rank: drop {shard}/{partial}");
  if (sharding.sharded() && plan.method == EvalMethod::CrossCheck)
    throw DomainError(
        "{cross-check} cannot be combined with {shard}/{partial}; cross-check the merged run "
        "instead");
  if (head.kind() == HeadKind::Ball && sharding.sharded())
    throw DomainError("a " + to_string(head.ball_head().map) +
                      " head is evaluated with ball arithmetic, in one process: drop "
                      "{shard}/{partial}/{mpi}");
}

EvalPartial shard_partial(const ExactEvaluation& run, const Shard& shard) {
  EvalPartial partial;
  partial.identity = run.id;
  partial.shard = shard;
  partial.summary = run.summary;
  // Blocks b with b % K = k - 1.
  const std::uint64_t first = shard.index - 1;
  const std::uint64_t blocks = run.id.blocks;
  partial.blocks_evaluated = blocks > first ? (blocks - first + shard.count - 1) / shard.count : 0;
  return partial;
}

void write_eval_partial(const std::string& path, const EvalPartial& partial) {
  write_file_atomically(path, eval_partial_to_text(partial));
}

nlohmann::json eval_partial_json(const EvalPartial& partial, const std::string& path) {
  return {{"partial", path},
          {"shard", partial.shard.str()},
          {"blocks_evaluated", partial.blocks_evaluated},
          {"blocks", partial.identity.blocks},
          {"instances", partial.summary.instances.str()},
          {"failing", partial.summary.failing.str()}};
}

EvalPartial merge_eval_partial_files(const std::vector<std::string>& paths) {
  std::vector<EvalPartial> partials;
  for (const std::string& path : paths) partials.push_back(read_eval_partial(path));
  return merge_eval_partials(partials, paths);
}

std::optional<EvalPartial> merge_over_ranks(const EvalPartial& own, const GatherAtRoot& gather) {
  const std::optional<std::vector<std::string>> texts = gather(eval_partial_to_text(own));
  if (!texts) return std::nullopt;
  std::vector<EvalPartial> parts;
  std::vector<std::string> names;
  for (std::size_t r = 0; r < texts->size(); ++r) {
    names.push_back("<MPI rank " + std::to_string(r) + ">");
    parts.push_back(parse_eval_partial(names.back(), (*texts)[r]));
  }
  return merge_eval_partials(parts, names);
}

nlohmann::json exact_evaluation_json(const EvalIdentity& id, const EvalReport& report,
                                     bool cross_checked) {
  nlohmann::json json = {{"task", id.task},
                         {"model",
                          {{"description", id.model_description},
                           {"class", id.model_class},
                           {"class_detail", id.class_detail}}},
                         {"report", report_to_json(report)}};
  if (cross_checked) json["cross_check"] = "brute force and profiles agree";
  return json;
}

}  // namespace kernelrank
