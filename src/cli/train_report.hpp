// The per-split records of `kernelrank train`'s report (report.json and the human table):
// the exact verdict of relu/square heads, the rigorous ball-arithmetic verdict of softmax
// heads, each next to the float figures and the float/decided disagreements.
#pragma once

#include "kernelrank/app/trained_head.hpp"
#include "kernelrank/eval/trained_ball_verification.hpp"
#include "kernelrank/eval/trained_verification.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace kernelrank::cli {

nlohmann::json split_to_json(const SplitVerification& split);
nlohmann::json split_to_json(const BallSplitVerification& split);
nlohmann::json split_to_json(const TrainedSplitVerdict& split);

// One row of the human table after "name | split | ": float failing, decided failing, max
// error, verdict, disagreements.
std::string split_cell(const SplitVerification& split);
std::string split_cell(const BallSplitVerification& split);
std::string split_cell(const TrainedSplitVerdict& split);

}  // namespace kernelrank::cli
