// The safetensors container, read strictly and written deterministically.
//
// Reading checks, in this order: the 8-byte header length against the file and the 100 MB
// limit; the header as a JSON object without duplicate keys; each entry (exactly dtype,
// shape, data_offsets; a supported dtype; nonnegative integer shape entries and offsets;
// a byte count equal to elements x element size, within the buffer); that the byte ranges
// tile the buffer (no overlap, no gap: the safetensors rule, which also makes a file have
// one meaning); and last, every value is finite. Only then are the values converted, each
// exactly, through double_rational.hpp. Every error is InputError::whole_file naming the
// tensor, because a binary file has no line to point at.
#include "kernelrank/models/safetensors.hpp"

#include "kernelrank/core/double_rational.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

namespace kernelrank {
namespace {

using Json = nlohmann::json;

constexpr std::size_t kLengthBytes = 8;
// A header needs three levels (object, entry, shape); a deeper one is refused before the
// recursion in nlohmann's dump (used in messages) could exhaust the stack.
constexpr int kMaxJsonDepth = 8;
// Values in the JSON header: a few per tensor, so this allows about a hundred thousand
// tensors while keeping a 100 MB header of "[0,0,...]" from taking gigabytes.
constexpr unsigned long long kMaxJsonValues = 1'000'000;
const char* const kMetadataKey = "__metadata__";

[[noreturn]] void fail(const std::string& file, const std::string& message) {
  throw InputError::whole_file(file, message);
}

// A tensor name for messages: quoted, and cut short when it is absurdly long.
std::string tensor_label(const std::string& name) {
  constexpr std::size_t kShown = 120;
  return "'" + (name.size() > kShown ? name.substr(0, kShown) + "..." : name) + "'";
}

// A JSON value for messages, cut short (it may be a whole array from the file).
std::string shown(const Json& value) {
  constexpr std::size_t kShown = 80;
  const std::string text = value.dump();
  return text.size() > kShown ? text.substr(0, kShown) + "..." : text;
}

std::uint64_t little_endian(const unsigned char* bytes, std::size_t count) {
  std::uint64_t value = 0;
  for (std::size_t i = count; i-- > 0;) value = (value << 8) | bytes[i];
  return value;
}

std::size_t element_bytes(SafetensorsDtype dtype) {
  switch (dtype) {
    case SafetensorsDtype::F64:
      return 8;
    case SafetensorsDtype::F32:
      return 4;
    case SafetensorsDtype::F16:
    case SafetensorsDtype::BF16:
      return 2;
  }
  return 8;
}

// A JSON integer >= 0 (JSON has no unsigned type; "-0" counts as 0), else nullopt.
std::optional<std::uint64_t> json_unsigned(const Json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer() && value.get<std::int64_t>() == 0) return 0;
  return std::nullopt;
}

// Parses the header text, refusing duplicate keys (nlohmann would keep the last silently,
// so a file could say two things), deep nesting and a huge number of values.
Json parse_header_json(const std::string& file, std::string::const_iterator begin,
                       std::string::const_iterator end) {
  std::vector<std::set<std::string>> open_objects;
  unsigned long long values = 0;
  const Json::parser_callback_t strict = [&](int depth, Json::parse_event_t event, Json& parsed) {
    const bool opens =
        event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start;
    if (opens && depth >= kMaxJsonDepth)
      fail(file, "safetensors header nested deeper than " + std::to_string(kMaxJsonDepth) +
                     " levels (the format needs 3)");
    if ((opens || event == Json::parse_event_t::value) && ++values > kMaxJsonValues)
      fail(file, "safetensors header too large: more than " + std::to_string(kMaxJsonValues) +
                     " JSON values");
    if (event == Json::parse_event_t::object_start) open_objects.emplace_back();
    if (event == Json::parse_event_t::object_end && !open_objects.empty()) open_objects.pop_back();
    if (event == Json::parse_event_t::key && !open_objects.empty() &&
        !open_objects.back().insert(parsed.get<std::string>()).second)
      fail(file, "duplicate key " + Json(parsed.get<std::string>()).dump() +
                     " in the safetensors header");
    return true;
  };
  try {
    return Json::parse(begin, end, strict);
  } catch (const Json::exception& e) {
    std::string what = e.what();
    const std::size_t bracket = what.find("] ");
    if (bracket != std::string::npos) what = what.substr(bracket + 2);
    if (what.size() > 200) what = what.substr(0, 200) + "...";
    fail(file, "safetensors header is not valid JSON: " + what);
  }
}

std::map<std::string, std::string> read_metadata(const std::string& file, const Json& value) {
  if (!value.is_object())
    fail(file,
         "__metadata__ must be a JSON object of strings, found " + std::string(value.type_name()));
  std::map<std::string, std::string> metadata;
  for (const auto& item : value.items()) {
    if (!item.value().is_string())
      fail(file, "__metadata__ value of " + Json(item.key()).dump() +
                     " must be a string (safetensors metadata holds strings only), found " +
                     shown(item.value()));
    metadata[item.key()] = item.value().get<std::string>();
  }
  return metadata;
}

SafetensorsDtype read_dtype(const std::string& file, const std::string& name, const Json& value) {
  const std::string text = value.is_string() ? value.get<std::string>() : shown(value);
  if (text == "F64") return SafetensorsDtype::F64;
  if (text == "F32") return SafetensorsDtype::F32;
  if (text == "F16") return SafetensorsDtype::F16;
  if (text == "BF16") return SafetensorsDtype::BF16;
  fail(file, "tensor " + tensor_label(name) + ": unsupported dtype " +
                 (value.is_string() ? Json(text).dump() : text) +
                 " (kernelrank reads the float dtypes F64, F32, F16 and BF16)");
}

// One header entry, checked on its own: keys, dtype, shape, offsets and byte count.
SafetensorsTensor read_entry(const std::string& file, const std::string& name, const Json& entry,
                             std::uint64_t buffer_bytes) {
  const std::string what = "tensor " + tensor_label(name) + ": ";
  if (!entry.is_object())
    fail(file, what + "expected an object with dtype, shape and data_offsets, found " +
                   std::string(entry.type_name()));
  for (const auto& item : entry.items())
    if (item.key() != "dtype" && item.key() != "shape" && item.key() != "data_offsets")
      fail(file, what + "unexpected key " + Json(item.key()).dump() +
                     " (an entry has exactly dtype, shape and data_offsets)");
  for (const char* key : {"dtype", "shape", "data_offsets"})
    if (!entry.contains(key)) fail(file, what + "missing key \"" + key + "\"");

  SafetensorsTensor tensor;
  tensor.name = name;
  tensor.dtype = read_dtype(file, name, entry["dtype"]);
  const Json& shape = entry["shape"];
  if (!shape.is_array())
    fail(file, what + "shape must be an array of nonnegative integers, found " + shown(shape));
  for (const Json& dimension : shape) {
    const std::optional<std::uint64_t> size = json_unsigned(dimension);
    if (!size)
      fail(file, what + "shape must be an array of nonnegative integers, found " + shown(shape));
    tensor.shape.push_back(*size);
  }
  const Json& offsets = entry["data_offsets"];
  const bool pair = offsets.is_array() && offsets.size() == 2;
  const std::optional<std::uint64_t> begin = pair ? json_unsigned(offsets[0]) : std::nullopt;
  const std::optional<std::uint64_t> end = pair ? json_unsigned(offsets[1]) : std::nullopt;
  if (!begin || !end || *begin > *end)
    fail(file, what + "data_offsets must be [begin, end] with integers 0 <= begin <= end, found " +
                   shown(offsets));
  tensor.begin = *begin;
  tensor.end = *end;
  if (tensor.end > buffer_bytes)
    fail(file, what + "data_offsets [" + std::to_string(tensor.begin) + ", " +
                   std::to_string(tensor.end) + "] reach beyond the data buffer of " +
                   std::to_string(buffer_bytes) + " bytes");

  // Elements x size, with the product kept below the buffer size so it cannot overflow.
  const std::uint64_t size = element_bytes(tensor.dtype);
  const bool empty = std::find(tensor.shape.begin(), tensor.shape.end(), 0) != tensor.shape.end();
  std::uint64_t bytes = empty ? 0 : size;
  for (std::uint64_t dimension : tensor.shape) {
    if (empty) break;
    if (bytes > buffer_bytes / dimension)
      fail(file, what + "shape " + shape_text(tensor.shape) + " of " + dtype_name(tensor.dtype) +
                     " needs more bytes than the data buffer holds (" +
                     std::to_string(buffer_bytes) + ")");
    bytes *= dimension;
  }
  if (bytes != tensor.end - tensor.begin)
    fail(file, what + "shape " + shape_text(tensor.shape) + " of " + dtype_name(tensor.dtype) +
                   " needs " + std::to_string(bytes) + " bytes, but data_offsets [" +
                   std::to_string(tensor.begin) + ", " + std::to_string(tensor.end) + "] give " +
                   std::to_string(tensor.end - tensor.begin));
  return tensor;
}

// The byte ranges must tile the buffer exactly: sorted by offset, each begins where the
// previous one ended, the first at 0 and the last at the end of the buffer.
void check_tiling(const std::string& file, const std::vector<SafetensorsTensor>& tensors,
                  std::uint64_t buffer_bytes) {
  std::vector<const SafetensorsTensor*> by_offset;
  for (const SafetensorsTensor& tensor : tensors) by_offset.push_back(&tensor);
  std::sort(by_offset.begin(), by_offset.end(), [](const auto* a, const auto* b) {
    return std::tie(a->begin, a->end, a->name) < std::tie(b->begin, b->end, b->name);
  });
  const auto range = [](const SafetensorsTensor* t) {
    return "[" + std::to_string(t->begin) + ", " + std::to_string(t->end) + ")";
  };
  std::uint64_t covered = 0;
  const SafetensorsTensor* previous = nullptr;
  for (const SafetensorsTensor* tensor : by_offset) {
    if (tensor->begin < covered)
      fail(file, "tensors " + tensor_label(previous->name) + " and " + tensor_label(tensor->name) +
                     " overlap in the data buffer: bytes " + range(previous) + " and " +
                     range(tensor));
    if (tensor->begin > covered)
      fail(file, "gap in the data buffer: bytes [" + std::to_string(covered) + ", " +
                     std::to_string(tensor->begin) + ") belong to no tensor (" +
                     (previous ? "between " + tensor_label(previous->name) + " and "
                               : std::string("before ")) +
                     tensor_label(tensor->name) + "); the tensors must cover the buffer exactly");
    covered = tensor->end;
    previous = tensor;
  }
  if (covered != buffer_bytes)
    fail(file, "gap in the data buffer: bytes [" + std::to_string(covered) + ", " +
                   std::to_string(buffer_bytes) + ") at its end belong to no tensor; the " +
                   "tensors must cover the buffer exactly");
}

// The stored floats as exact rationals; NaN and infinity are refused with their index.
void decode_values(const std::string& file, SafetensorsTensor& tensor, const unsigned char* data) {
  const std::size_t size = element_bytes(tensor.dtype);
  const std::size_t count = static_cast<std::size_t>((tensor.end - tensor.begin) / size);
  tensor.values.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t bits = little_endian(data + tensor.begin + i * size, size);
    try {
      switch (tensor.dtype) {
        case SafetensorsDtype::F64: {
          double value = 0;
          std::memcpy(&value, &bits, sizeof value);
          tensor.values.push_back(rational_from_double(value));
          break;
        }
        case SafetensorsDtype::F32: {
          const auto narrow = static_cast<std::uint32_t>(bits);
          float value = 0;
          std::memcpy(&value, &narrow, sizeof value);
          tensor.values.push_back(rational_from_double(static_cast<double>(value)));  // exact
          break;
        }
        case SafetensorsDtype::F16:
          tensor.values.push_back(rational_from_half_bits(static_cast<std::uint16_t>(bits)));
          break;
        case SafetensorsDtype::BF16:
          tensor.values.push_back(rational_from_bfloat16_bits(static_cast<std::uint16_t>(bits)));
          break;
      }
    } catch (const NonFiniteError& e) {
      fail(file, "tensor " + tensor_label(tensor.name) + ": value at flat index " +
                     std::to_string(i) + " (row-major) is not finite: " + e.what());
    }
  }
}

bool looks_like_header(std::string_view first_bytes, std::uint64_t file_size) {
  if (first_bytes.size() <= kLengthBytes || file_size < kLengthBytes + 2) return false;
  const std::uint64_t length =
      little_endian(reinterpret_cast<const unsigned char*>(first_bytes.data()), kLengthBytes);
  return length >= 2 && length <= file_size - kLengthBytes && first_bytes[kLengthBytes] == '{';
}

bool has_safetensors_suffix(std::string_view name) {
  constexpr std::string_view kSuffix = ".safetensors";
  return name.size() >= kSuffix.size() && name.substr(name.size() - kSuffix.size()) == kSuffix;
}

}  // namespace

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

const char* dtype_name(SafetensorsDtype dtype) {
  switch (dtype) {
    case SafetensorsDtype::F64:
      return "F64";
    case SafetensorsDtype::F32:
      return "F32";
    case SafetensorsDtype::F16:
      return "F16";
    case SafetensorsDtype::BF16:
      return "BF16";
  }
  return "F64";
}

const SafetensorsTensor* SafetensorsFile::find(const std::string& tensor_name) const {
  const auto it = std::lower_bound(
      tensors.begin(), tensors.end(), tensor_name,
      [](const SafetensorsTensor& tensor, const std::string& key) { return tensor.name < key; });
  return it != tensors.end() && it->name == tensor_name ? &*it : nullptr;
}

SafetensorsFile parse_safetensors(const std::string& name, const std::string& bytes) {
  if (bytes.size() < kLengthBytes)
    fail(name, "file too short for safetensors: " + std::to_string(bytes.size()) +
                   " bytes, but the header length alone takes 8");
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::uint64_t header_bytes = little_endian(data, kLengthBytes);
  const std::uint64_t after_length = bytes.size() - kLengthBytes;
  if (header_bytes > after_length)
    fail(name, "safetensors header length " + std::to_string(header_bytes) +
                   " overruns the file: only " + std::to_string(after_length) +
                   " bytes follow the 8-byte length");
  if (header_bytes > kMaxSafetensorsHeaderBytes)
    fail(name, "safetensors header length " + std::to_string(header_bytes) +
                   " is larger than the limit of " + std::to_string(kMaxSafetensorsHeaderBytes) +
                   " bytes");
  const auto header_begin = bytes.begin() + static_cast<std::ptrdiff_t>(kLengthBytes);
  const Json header = parse_header_json(name, header_begin,
                                        header_begin + static_cast<std::ptrdiff_t>(header_bytes));
  if (!header.is_object())
    fail(name,
         "safetensors header must be a JSON object, found " + std::string(header.type_name()));

  SafetensorsFile file;
  file.name = name;
  const std::uint64_t buffer_bytes = after_length - header_bytes;
  for (const auto& item : header.items()) {  // nlohmann keeps keys sorted
    if (item.key() == kMetadataKey)
      file.metadata = read_metadata(name, item.value());
    else
      file.tensors.push_back(read_entry(name, item.key(), item.value(), buffer_bytes));
  }
  check_tiling(name, file.tensors, buffer_bytes);
  std::uint64_t values = 0;
  for (const SafetensorsTensor& tensor : file.tensors)
    values += (tensor.end - tensor.begin) / element_bytes(tensor.dtype);
  if (values > kMaxSafetensorsValues)
    fail(name, "too many values: " + std::to_string(values) + " in all (limit " +
                   std::to_string(kMaxSafetensorsValues) + ")");
  const unsigned char* buffer = data + kLengthBytes + header_bytes;
  for (SafetensorsTensor& tensor : file.tensors) decode_values(name, tensor, buffer);
  return file;
}

SafetensorsFile read_safetensors(const std::string& path) {
  if (const auto why = irregular_file(path)) fail(path, *why);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open file");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) fail(path, "cannot read file");
  if (static_cast<std::uint64_t>(size) > kMaxInputBytes) fail(path, "file larger than 1 GiB");
  in.seekg(0, std::ios::beg);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.read(bytes.data(), size);
  if (!in) fail(path, "cannot read file");
  return parse_safetensors(path, bytes);
}

bool looks_like_safetensors(std::string_view name, std::string_view bytes) {
  return has_safetensors_suffix(name) || looks_like_header(bytes, bytes.size());
}

std::string safetensors_bytes(const std::vector<WrittenTensor>& tensors,
                              const std::map<std::string, std::string>& metadata) {
  std::vector<const WrittenTensor*> by_name;
  for (const WrittenTensor& tensor : tensors) by_name.push_back(&tensor);
  std::sort(by_name.begin(), by_name.end(),
            [](const auto* a, const auto* b) { return a->name < b->name; });
  Json header = Json::object();
  std::string buffer;
  for (std::size_t i = 0; i < by_name.size(); ++i) {
    const WrittenTensor& tensor = *by_name[i];
    if (tensor.name == kMetadataKey || (i > 0 && by_name[i - 1]->name == tensor.name))
      throw std::invalid_argument("safetensors_bytes: tensor name '" + tensor.name +
                                  "' is reserved or given twice");
    std::uint64_t count = 1;
    for (std::uint64_t dimension : tensor.shape) count *= dimension;
    if (count != tensor.values.size())
      throw std::invalid_argument("safetensors_bytes: tensor '" + tensor.name + "' has shape " +
                                  shape_text(tensor.shape) + " but " +
                                  std::to_string(tensor.values.size()) + " values");
    const std::uint64_t begin = buffer.size();
    for (std::size_t k = 0; k < tensor.values.size(); ++k) {
      const double value = tensor.values[k];
      if (!std::isfinite(value))
        throw std::invalid_argument("safetensors_bytes: tensor '" + tensor.name + "' value " +
                                    std::to_string(k) + " is NaN or infinite");
      std::uint64_t bits = 0;
      std::memcpy(&bits, &value, sizeof bits);
      for (int byte = 0; byte < 8; ++byte) buffer += static_cast<char>((bits >> (8 * byte)) & 0xFF);
    }
    header[tensor.name] = {{"dtype", "F64"},
                           {"shape", tensor.shape},
                           {"data_offsets", {begin, static_cast<std::uint64_t>(buffer.size())}}};
  }
  if (!metadata.empty()) header[kMetadataKey] = metadata;
  std::string text;
  try {
    text = header.dump();
  } catch (const Json::exception& e) {
    throw std::invalid_argument(std::string("safetensors_bytes: ") + e.what());
  }
  text.append((kLengthBytes - text.size() % kLengthBytes) % kLengthBytes, ' ');
  std::string out;
  for (std::size_t byte = 0; byte < kLengthBytes; ++byte)
    out += static_cast<char>((static_cast<std::uint64_t>(text.size()) >> (8 * byte)) & 0xFF);
  return out + text + buffer;
}

}  // namespace kernelrank
