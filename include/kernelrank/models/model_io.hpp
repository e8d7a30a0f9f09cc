// Reading and writing model files (text format and the JSON tabular form).
// docs/model-format.md is the specification; malformed input throws InputError
// naming the file and line (line 0 for JSON semantic errors, whose messages
// name the JSON path instead).
#pragma once

#include "kernelrank/models/model.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/models/safetensors.hpp"

#include <memory>
#include <string>

namespace kernelrank {

// The widest token a model file may declare (and the widest --m next to a model).
inline constexpr int kMaxModelWidth = 4096;

// A single head through the opener (head_opener.hpp): safetensors by name or header, JSON
// (the tabular interchange form) when the first non-blank character is '{', else the text
// format. Heads with transcendental features (elu1, exp, softmax) are refused with an
// InputError naming the file, since only eval's ball arithmetic decides them.
std::unique_ptr<Model> read_model(const std::string& path);
std::unique_ptr<Model> parse_model(const std::string& name, const std::string& contents);

// Writers for the tabular form (used by the Z3 search to emit models); the
// output parses back to an equal model. The JSON form has no position-dependent
// variant: tabular_model_to_json throws UsageError for such a model.
std::string tabular_model_to_text(const TabularModel& model);
std::string tabular_model_to_json(const TabularModel& model);

}  // namespace kernelrank
