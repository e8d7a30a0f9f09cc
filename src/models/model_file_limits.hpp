// Shared by the model file readers (model_text.cpp, model_json.cpp; dispatch in
// model_io.cpp): the size limits checked before anything is allocated, so that a small
// malicious file cannot ask for gigabytes.
#pragma once

#include "kernelrank/models/model.hpp"
#include "kernelrank/models/model_io.hpp"

#include <memory>
#include <string>

namespace kernelrank::model_files {

constexpr long long kMaxModelWidth = kernelrank::kMaxModelWidth;
constexpr long long kMaxTabularTokens = 4096;
constexpr long long kMaxPositions = 4096;
constexpr long long kMaxFeatureDimension = 100000;  // r and d
// Numbers a model file may make us store (a few GB of GMP rationals at most).
constexpr unsigned long long kMaxStoredNumbers = 1ULL << 25;

// The text format (docs/model-format.md §1-§6): tabular, features, parametric, builtin.
std::unique_ptr<Model> parse_text(std::string name, std::string contents);
// The JSON tabular form (docs/model-format.md §7).
std::unique_ptr<Model> parse_json(const std::string& file, const std::string& contents);

}  // namespace kernelrank::model_files
