// See head_opener.hpp. The recognition order is the one the command line always used: a
// multi-head file first, then safetensors, then JSON, then text.
#include "kernelrank/models/head_opener.hpp"

#include "models/model_file_limits.hpp"
#include "models/multi_head_files.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/model_safetensors.hpp"
#include "kernelrank/models/multi_head_io.hpp"
#include "kernelrank/models/safetensors.hpp"

namespace kernelrank {
namespace {

// A multi-head file is recognised by its first 64 KiB (a cheap scan, whatever the size).
constexpr std::size_t kMultiHeadSniffBytes = 64 * 1024;

// The one place a file's kind is decided.
void recognise(ModelFile& file) {
  const std::size_t first = file.bytes.find_first_not_of(" \t\r\n");
  file.json = first != std::string::npos && file.bytes[first] == '{';
  if (is_multi_head_contents(file.bytes.substr(0, kMultiHeadSniffBytes)))
    file.kind = ModelFileKind::MultiHead;
  else if (looks_like_safetensors(file.name, file.bytes))
    file.kind = ModelFileKind::Safetensors;
  else
    file.kind = file.json ? ModelFileKind::Json : ModelFileKind::Text;
}

// Heads in kernelrank's layout with relu or square features stay exact ParametricModels
// (§11); the others go through the layout reader (§12).
void open_safetensors(const SafetensorsFile& file, const OpenOptions& options,
                      OpenedModel& opened) {
  if (!needs_real_head_reader(file, options.read) && !options.read.feature_map) {
    opened.exact = parametric_model_from_safetensors(file);
    return;
  }
  RealHead head = read_real_head(file, options.read);
  if (is_rational(head.map)) {
    opened.exact = exact_model(head);
  } else if (options.ball_heads) {
    opened.ball = std::move(head);
  } else {
    throw InputError::whole_file(
        file.name,
        to_string(head.map) +
            " head refused: its features are not rational (exp), so only "
            "`kernelrank eval` decides it, with ball arithmetic (docs/model-format.md §12)");
  }
}

}  // namespace

std::string read_model_bytes(const std::string& path) {
  try {
    return read_file_bytes(path);
  } catch (const InputError& e) {
    // A binary file has no lines: judged by its name, the file is not opened again.
    if (looks_like_safetensors(path, {})) throw InputError::whole_file(path, e.message());
    throw;
  }
}

ModelFile read_model_file(const std::string& path, const ModelFileReader& reader) {
  ModelFile file;
  file.name = path;
  file.bytes = reader ? reader(path) : read_model_bytes(path);
  recognise(file);
  if (file.kind != ModelFileKind::Safetensors) check_text_bytes(file.name, file.bytes);
  return file;
}

ModelFile model_file_from_bytes(std::string name, std::string bytes) {
  ModelFile file;
  file.name = std::move(name);
  file.bytes = std::move(bytes);
  recognise(file);
  return file;
}

OpenedModel open_model(const ModelFile& file, const OpenOptions& options) {
  OpenedModel opened;
  opened.kind = file.kind;
  // A multi-head file opened as one head: its single-head form, as recognised.
  if (opened.kind == ModelFileKind::MultiHead && !options.multi_head)
    opened.kind = file.json ? ModelFileKind::Json : ModelFileKind::Text;
  switch (opened.kind) {
    case ModelFileKind::MultiHead:
      opened.multi_head.emplace(file.json
                                    ? model_files::parse_multi_head_json(file.name, file.bytes)
                                    : model_files::parse_multi_head_text(file.name, file.bytes));
      break;
    case ModelFileKind::Safetensors:
      open_safetensors(parse_safetensors(file.name, file.bytes), options, opened);
      break;
    case ModelFileKind::Json:
      opened.exact = model_files::parse_json(file.name, file.bytes);
      break;
    case ModelFileKind::Text:
      opened.exact = model_files::parse_text(file.name, file.bytes);
      break;
  }
  return opened;
}

OpenedModel open_model(const std::string& path, const OpenOptions& options,
                       const ModelFileReader& reader) {
  return open_model(read_model_file(path, reader), options);
}

void require_model_width(const std::string& name, int width, int m) {
  if (m > 0 && width != m)
    throw UsageError("model " + name + " has width m=" + std::to_string(width) +
                     " but the task has m=" + std::to_string(m));
}

}  // namespace kernelrank
