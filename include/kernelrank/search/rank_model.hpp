// A candidate model of the rank search (U, V, F over the task's tokens): assembling it
// into a tabular or features model, and its exact re-verification on the original task.
#pragma once

#include "kernelrank/bounds/rank_task.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace kernelrank {

// A candidate rank-r model: alpha(t_i, t_j) = <U[i], V[j]> and F[i][j], over the
// task tokens. Rows of U/F that no instance uses may be left zero.
struct RankModel {
  int r = 0;
  RationalMatrix query_features;  // U, |T| x r
  RationalMatrix key_features;    // V, |T| x r
  RationalMatrix readout;         // F, |T| x |T|
};

RationalMatrix kernel_table(const RankModel& model);
TabularModel to_tabular_model(const RankTask& task, const RankModel& model);
// The same model as kind=features (phiQ = U, phiK = V, v = one-hot, c = F row,
// e = 0), so that `kernelrank eval` sees the r features and classifies PF/NK.
std::string features_model_text(const RankTask& task, const RankModel& model,
                                const std::string& comment);

struct ModelCheck {
  bool solves = false;
  EvalReport report;            // exact evaluation on the original task
  std::size_t kernel_rank = 0;  // exact rank of the |T| x |T| kernel table
  bool rank_ok = false;         // kernel_rank <= r
  bool class_ok = false;        // PF: U, V >= 0 entrywise; NK: kernel >= 0 on every used pair
  std::string class_detail;
  bool passes() const { return solves && rank_ok && class_ok; }
};

// Exact re-verification: the cube by brute force over all 2^(nm) ordered
// instances (evaluate_cube, independent of the deduplication), a family with
// evaluate_family on the original family.
ModelCheck verify_rank_model(const RankTask& task, const RankModel& model,
                             SearchClass search_class);
// Exact check on a subset of the row instances only (for partial models).
ModelCheck verify_rank_model_on(const RankTask& task, const std::vector<std::size_t>& instance_ids,
                                const RankModel& model, SearchClass search_class);

}  // namespace kernelrank
