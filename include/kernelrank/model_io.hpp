// Reading and writing model files (text format and the JSON tabular form).
// docs/file-formats.md is the specification; errors name file and line.
#pragma once

#include "kernelrank/model.hpp"
#include "kernelrank/model_forms.hpp"

#include <memory>
#include <string>

namespace kernelrank {

// Dispatches on content: a file whose first non-blank character is '{' is JSON
// (the tabular interchange form), otherwise the text format.
std::unique_ptr<Model> read_model(const std::string& path);
std::unique_ptr<Model> parse_model(const std::string& name, const std::string& contents);

// Writers for the tabular form (used by the Z3 search to emit models).
std::string tabular_model_to_text(const TabularModel& model);
std::string tabular_model_to_json(const TabularModel& model);

}  // namespace kernelrank
