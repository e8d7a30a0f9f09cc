// The human table of `kernelrank train` (its JSON form is app/train_job.hpp's): one row per
// split, the exact verdict of relu/square heads or the rigorous ball-arithmetic verdict of
// softmax heads, next to the float figures and the float/decided disagreements.
#pragma once

#include "kernelrank/app/train_job.hpp"

#include <string>

namespace kernelrank::cli {

// One row after "name | split | ": float failing, decided failing, max error, verdict,
// disagreements.
std::string split_cell(const TrainedSplitReport& split);

// The whole text `train` prints without --json: the table, the throughput line and the
// report's path.
std::string train_report_text(const TrainReport& report, const std::string& report_path);

}  // namespace kernelrank::cli
