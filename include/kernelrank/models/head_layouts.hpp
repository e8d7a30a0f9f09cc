// Reading single heads from safetensors files in the layouts of the ecosystem
// (docs/model-format.md §12): kernelrank's own, fast-transformers' AttentionLayer around a
// LinearAttention, performer-pytorch's SelfAttention around a FastAttention, and a plain
// PyTorch head (q_proj, k_proj, v_proj, out_proj). Every value is the exact dyadic rational
// the stored float denotes; missing, unknown or misshapen tensors are errors naming the
// tensor ("FILE: error: ...").
#pragma once

#include "kernelrank/models/real_head.hpp"
#include "kernelrank/models/safetensors.hpp"

#include <optional>
#include <string>

namespace kernelrank {

enum class HeadLayout { Kernelrank, FastTransformers, Performer, Torch };

// "kernelrank", "fast-transformers", "performer", "torch"; throws UsageError otherwise.
HeadLayout parse_head_layout(const std::string& name);
std::string to_string(HeadLayout layout);

struct HeadReadOptions {
  std::optional<HeadLayout> layout;       // none: metadata "layout", else kernelrank's
  std::optional<FeatureMap> feature_map;  // none: metadata "feature_map", else the layout's
};

// Whether a file in kernelrank's layout needs the real-head reader: its activation is not
// relu or square (those stay exact ParametricModels, docs/model-format.md §11).
bool needs_real_head_reader(const SafetensorsFile& file, const HeadReadOptions& options);

// The head the file describes. Throws InputError naming the file and tensor, and UsageError
// for an option that contradicts the file.
RealHead read_real_head(const SafetensorsFile& file, const HeadReadOptions& options);

}  // namespace kernelrank
