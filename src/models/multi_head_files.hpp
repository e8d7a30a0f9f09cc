// Internal: the entry points of the multi-head readers (multi_head_text.cpp,
// multi_head_json.cpp), and the JSON document reader of model_json.cpp they share.
#pragma once

#include "kernelrank/models/multi_head.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace kernelrank::model_files {

// docs/model-format.md §13: the text form and the JSON form.
MultiHeadModel parse_multi_head_text(const std::string& name, const std::string& contents);
MultiHeadModel parse_multi_head_json(const std::string& name, const std::string& contents);
// Whether a JSON text's top-level "format" is "kernelrank-multihead" (a cheap scan: the text
// may be a truncated prefix of the file).
bool json_format_is_multi_head(const std::string& contents);

// model_json.cpp: parses a JSON document, refusing duplicate keys, deep nesting and
// oversized documents with positioned errors.
nlohmann::json read_document(const std::string& file, const std::string& contents);
// model_json.cpp: an integer that fits in a long long, else nullopt.
std::optional<long long> json_integer(const nlohmann::json& value);

}  // namespace kernelrank::model_files
