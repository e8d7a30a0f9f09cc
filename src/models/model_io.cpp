// Model files: one dispatch over the formats of docs/model-format.md. A safetensors head
// (§11, §12) is recognised by its bytes, a JSON tabular form (model_json.cpp) by its first
// non-blank character '{', and everything else is the text format (model_text.cpp).
#include "kernelrank/models/model_io.hpp"

#include "models/model_file_limits.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/head_layouts.hpp"
#include "kernelrank/models/model_safetensors.hpp"

namespace kernelrank {

// Heads with rational features become exact models; the others are refused here, since only
// eval's ball arithmetic decides them (docs/model-format.md §11, §12).
std::unique_ptr<Model> model_from_safetensors(const SafetensorsFile& file) {
  if (!needs_real_head_reader(file, {})) return parametric_model_from_safetensors(file);
  const RealHead head = read_real_head(file, {});
  if (is_rational(head.map)) return exact_model(head);
  throw InputError::whole_file(
      file.name,
      to_string(head.map) +
          " head refused: its features are not rational (exp), so only "
          "`kernelrank eval` decides it, with ball arithmetic (docs/model-format.md §12)");
}

namespace {

std::unique_ptr<Model> parse_any(std::string name, std::string contents) {
  if (looks_like_safetensors(name, contents))  // binary heads: docs/model-format.md §11
    return model_from_safetensors(parse_safetensors(name, contents));
  const std::size_t first = contents.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && contents[first] == '{')
    return model_files::parse_json(name, contents);
  return model_files::parse_text(std::move(name), std::move(contents));
}

}  // namespace

std::unique_ptr<Model> read_model(const std::string& path) {
  if (file_looks_like_safetensors(path)) return model_from_safetensors(read_safetensors(path));
  return parse_any(path, read_file_checked(path));
}

std::unique_ptr<Model> parse_model(const std::string& name, const std::string& contents) {
  return parse_any(name, contents);
}

}  // namespace kernelrank
