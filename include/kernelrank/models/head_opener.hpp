// One way into a model file (docs/model-format.md): the file is read once, recognised once
// (a multi-head file, a safetensors head, the JSON tabular form or the text format) and parsed
// once, and every message about it is written by the readers behind this one function. The
// command line and the Python module open every head they load here.
#pragma once

#include "kernelrank/models/head_layouts.hpp"
#include "kernelrank/models/model.hpp"
#include "kernelrank/models/multi_head.hpp"
#include "kernelrank/models/real_head.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace kernelrank {

enum class ModelFileKind { Text, Json, Safetensors, MultiHead };

// A model file's bytes, as read, and what they hold.
struct ModelFile {
  std::string name;  // the path, or a name for messages
  std::string bytes;
  ModelFileKind kind = ModelFileKind::Text;
  bool json = false;  // the text is JSON (first non-blank character '{'): single or multi-head
};

// Where a file's bytes come from: the file system by default; a test passes a counting double.
using ModelFileReader = std::function<std::string(const std::string& path)>;

// The bytes of a file (at most 1 GiB), with InputErrors naming it: "FILE: error: ..." for a
// safetensors file (a binary file has no lines), "FILE:0: error: ..." otherwise.
std::string read_model_bytes(const std::string& path);

// Reads the file once through `reader` (read_model_bytes when empty) and recognises it (the
// one function that decides a file's kind and form; every parser takes its decision): a
// multi-head file (§13: its first field is kernelrank-multihead, or its JSON "format" says so),
// a safetensors head (a ".safetensors" name or a safetensors header), JSON (first non-blank
// character '{'), else the text format. The text forms are checked for NUL bytes and invalid
// UTF-8 here.
ModelFile read_model_file(const std::string& path, const ModelFileReader& reader = {});
// The same for bytes held in memory; the parsers check their encoding.
ModelFile model_file_from_bytes(std::string name, std::string bytes);

struct OpenOptions {
  HeadReadOptions read;     // a safetensors head's layout and feature map (§12)
  bool ball_heads = false;  // keep a head with transcendental features for ball arithmetic;
                            // false: refuse it (only eval's ball arithmetic decides it)
  bool multi_head = true;   // false: a multi-head file is parsed as a single head (and refused
                            // by that parser, with its message)
};

// What a model file holds: exactly one of the three is set.
struct OpenedModel {
  ModelFileKind kind = ModelFileKind::Text;
  std::unique_ptr<Model> exact;  // a single head with exact arithmetic
  std::optional<RealHead> ball;  // a single head for ball arithmetic (elu1, exp, softmax)
  std::optional<MultiHeadModel> multi_head;  // several heads
};

// Parses the file: InputError naming the file (and line, or tensor) for malformed input,
// UsageError for a read option that contradicts the file.
OpenedModel open_model(const ModelFile& file, const OpenOptions& options = {});
// read_model_file followed by open_model.
OpenedModel open_model(const std::string& path, const OpenOptions& options = {},
                       const ModelFileReader& reader = {});

// Throws UsageError when a task of width m > 0 meets a model of another width.
void require_model_width(const std::string& name, int width, int m);

}  // namespace kernelrank
