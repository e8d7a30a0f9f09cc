// The head a request names, opened once: a model file (a path, or bytes already in memory)
// or a built-in model. Both front ends resolve their model arguments here, so the rules
// (which options go with which source, the width check) and their messages are written once;
// messages name parameters as {model}, {builtin}, {base}, {layout}, {feature-map}, {m}
// (core/errors.hpp), which each front end renders its own way.
#pragma once

#include "kernelrank/models/feature_map.hpp"
#include "kernelrank/models/head_layouts.hpp"
#include "kernelrank/models/head_opener.hpp"
#include "kernelrank/models/model.hpp"

#include <memory>
#include <optional>
#include <string>

namespace kernelrank {

struct HeadRequest {
  std::string path;                    // a model file; or
  std::optional<ModelFile> in_memory;  // a file's bytes already in memory (a dict of arrays); or
  std::string builtin;                 // rank1-mean, softmax or product
  std::optional<std::string> base;     // softmax and product: an exact number (default 3)
  std::optional<HeadLayout> layout;    // safetensors heads only (model-format.md §12)
  std::optional<FeatureMap> feature_map;
  bool ball_heads = true;   // false: a head only ball arithmetic decides is refused by the opener
  bool multi_head = false;  // true: a multi-head file is recognised (kind MultiHead) and left
                            // to its own evaluator; false: it is parsed as a single head
};

enum class HeadKind { Builtin, Exact, Ball, MultiHead };

class HeadSource {
 public:
  HeadKind kind() const { return kind_; }
  // The file as read (nullptr for a built-in): its name, bytes and recognised kind.
  const ModelFile* file() const { return file_ ? &*file_ : nullptr; }
  const RealHead& ball_head() const { return *opened_.ball; }
  // The exact model for a task of width m (0: any) and length n: a built-in is made for them;
  // a file's head is checked against m and handed over (once).
  std::unique_ptr<Model> take_exact(int m, int n);
  // How a partial result names the model: "file PATH" or the built-in's spec, and the
  // SHA-256 of the file's bytes (as read here) or of that spec.
  std::string identity(int m, int n) const;
  std::string identity_sha256(int m, int n) const;

 private:
  friend HeadSource open_head(HeadRequest request);
  HeadKind kind_ = HeadKind::Builtin;
  HeadRequest request_;
  std::optional<ModelFile> file_;
  OpenedModel opened_;
};

// Reads and recognises the file once and opens it; checks the request's combinations.
HeadSource open_head(HeadRequest request);

// The width a task asks of a model, when it asks one: 1..kMaxModelWidth, else a DomainError
// naming {m} (eval, multi-head eval, counterexample).
void check_task_width(const std::optional<int>& m);

}  // namespace kernelrank
