// The safetensors container (https://github.com/huggingface/safetensors), read and written
// exactly.
//
// A safetensors file is an 8-byte little-endian header length N, N bytes of JSON header,
// then the data buffer. The header maps each tensor name to its dtype, shape and byte range
// in the buffer; "__metadata__" holds string-to-string metadata. Trained weights reach
// kernelrank in this form, so the reader is strict (fail closed, like every reader here):
// every rule of the format is checked, every float becomes the rational it denotes exactly
// (a dyadic rational), and NaN or infinity is an error. Errors are InputErrors rendered as
// "FILE: error: message", since a binary file has no lines. The writer emits F64 tensors
// with deterministic bytes. docs/model-format.md §11 describes the kernelrank head layout
// built on this container (src/models/model_safetensors.cpp).
#pragma once

#include "kernelrank/core/rational.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kernelrank {

// Limits: the header as in the reference implementation (100 MB), and the number of values
// in all, since each becomes a GMP rational (the same cap as model text files).
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;
inline constexpr std::uint64_t kMaxSafetensorsValues = std::uint64_t{1} << 25;

enum class SafetensorsDtype { F64, F32, F16, BF16 };
const char* dtype_name(SafetensorsDtype dtype);
// A shape as messages write it: "[2, 3]", "[]" for a scalar.
std::string shape_text(const std::vector<std::uint64_t>& shape);

struct SafetensorsTensor {
  std::string name;
  SafetensorsDtype dtype = SafetensorsDtype::F64;
  std::vector<std::uint64_t> shape;  // empty for a scalar
  std::uint64_t begin = 0, end = 0;  // byte range in the data buffer
  std::vector<Rational> values;      // row-major, each exactly the stored float
};

struct SafetensorsFile {
  std::string name;                             // the file, for messages
  std::map<std::string, std::string> metadata;  // "__metadata__" (empty when absent)
  std::vector<SafetensorsTensor> tensors;       // sorted by name

  // The tensor of that name, or nullptr.
  const SafetensorsTensor* find(const std::string& tensor_name) const;
};

// Parses a whole file held in memory; `name` is used in messages. Throws InputError.
SafetensorsFile parse_safetensors(const std::string& name, const std::string& bytes);
// Reads (at most 1 GiB) and parses a file. Throws InputError.
SafetensorsFile read_safetensors(const std::string& path);

// Whether the bytes look like a safetensors file: the name ends in ".safetensors", or the
// first 8 bytes are a little-endian length L with 2 <= L <= size - 8 and byte 8 is '{'.
// No text file matches, since its first 8 bytes would give L >= 2^56.
bool looks_like_safetensors(std::string_view name, std::string_view bytes);

// A tensor to write: F64 values in row-major order.
struct WrittenTensor {
  std::string name;
  std::vector<std::uint64_t> shape;  // empty for a scalar
  std::vector<double> values;        // product of shape entries many
};

// The bytes of a safetensors file holding these tensors as F64 (little endian), sorted by
// name, and the metadata (omitted when empty). The header is compact JSON padded with
// spaces to a multiple of 8 bytes, so the output is deterministic. Throws
// std::invalid_argument for duplicate or reserved names, a value count that does not match
// the shape, or a value that is NaN or infinite (which the reader would refuse).
std::string safetensors_bytes(const std::vector<WrittenTensor>& tensors,
                              const std::map<std::string, std::string>& metadata);

}  // namespace kernelrank
