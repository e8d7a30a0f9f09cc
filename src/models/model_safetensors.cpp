// The kernelrank-head layout on top of the safetensors container (docs/model-format.md §11).
//
// Reading goes from the outside in, so that each message points at the first thing wrong:
// the metadata (format, version, activation, positions), then the refusal of softmax heads,
// then the set of tensor names (unknown ones, then missing ones), then the shapes, where m
// and r come from query.weight and d from value.weight of the first position and every other
// shape is compared with what they imply. The exact values are already in the container;
// this file only arranges them into affine maps. The double form (HeadWeights) goes through
// the same table of parts, so a file and the direct conversion cannot disagree on layout.
#include "kernelrank/models/model_safetensors.hpp"

#include "kernelrank/core/double_rational.hpp"
#include "kernelrank/core/errors.hpp"

#include <array>
#include <set>
#include <stdexcept>

namespace kernelrank {
namespace {

// The activations a kernelrank-head file holds: the entrywise maps, and softmax (written by the
// trainer, never evaluated exactly).
bool written_activation(FeatureMap map) { return is_entrywise(map) || map == FeatureMap::Softmax; }

constexpr long long kMaxWidth = 4096;
constexpr long long kMaxPositions = 4096;
constexpr long long kMaxFeatures = 100000;  // r and d, as in the text format
constexpr std::size_t kPartCount = 10;

const char* const kFormat = "kernelrank-head";
const char* const kTemperature = "temperature";

// How many rows a part has: r (features), d (value width) or one (the scalar readout e).
enum class Rows { Features, Values, One };

// The ten tensors of one position, in the order of ParametricMaps (weight, then bias).
struct Part {
  const char* name;
  Rows rows;
  bool is_weight;  // [rows, m]; a bias is [rows]
  std::vector<double> HeadPositionWeights::*field;
};
const std::array<Part, kPartCount> kParts = {{
    {"query.weight", Rows::Features, true, &HeadPositionWeights::query_weight},
    {"query.bias", Rows::Features, false, &HeadPositionWeights::query_bias},
    {"key.weight", Rows::Features, true, &HeadPositionWeights::key_weight},
    {"key.bias", Rows::Features, false, &HeadPositionWeights::key_bias},
    {"value.weight", Rows::Values, true, &HeadPositionWeights::value_weight},
    {"value.bias", Rows::Values, false, &HeadPositionWeights::value_bias},
    {"readout_c.weight", Rows::Values, true, &HeadPositionWeights::readout_c_weight},
    {"readout_c.bias", Rows::Values, false, &HeadPositionWeights::readout_c_bias},
    {"readout_e.weight", Rows::One, true, &HeadPositionWeights::readout_e_weight},
    {"readout_e.bias", Rows::One, false, &HeadPositionWeights::readout_e_bias},
}};

using PositionValues = std::array<RationalVector, kPartCount>;

struct Dimensions {
  std::uint64_t m = 0, r = 0, d = 0;
  std::uint64_t rows(Rows rows) const {
    return rows == Rows::Features ? r : rows == Rows::Values ? d : 1;
  }
};

// "" or "pos<p>." for the 0-based position slot.
std::string prefix(int positions, std::size_t slot) {
  return positions == 0 ? std::string() : "pos" + std::to_string(slot + 1) + ".";
}

std::size_t slots_of(int positions) {
  return static_cast<std::size_t>(positions > 0 ? positions : 1);
}

[[noreturn]] void fail(const SafetensorsFile& file, const std::string& message) {
  throw InputError::whole_file(file.name, message);
}

// The affine maps of every position from the flat values, which have the right sizes.
std::unique_ptr<ParametricModel> build_model(FeatureMap activation, const Dimensions& dims,
                                             int positions, std::vector<PositionValues> values) {
  std::vector<ParametricMaps> maps(values.size());
  for (std::size_t slot = 0; slot < values.size(); ++slot) {
    ParametricMaps& set = maps[slot];
    AffineMap* const affine[] = {&set.query, &set.key, &set.value, &set.readout_c, &set.readout_e};
    for (std::size_t k = 0; k < 5; ++k) {
      RationalVector& weight = values[slot][2 * k];
      affine[k]->bias = std::move(values[slot][2 * k + 1]);
      const std::size_t rows = affine[k]->bias.size();
      for (std::size_t row = 0; row < rows; ++row) {
        const auto first = weight.begin() + static_cast<std::ptrdiff_t>(row * dims.m);
        affine[k]->weight.emplace_back(first, first + static_cast<std::ptrdiff_t>(dims.m));
      }
    }
  }
  return std::make_unique<ParametricModel>(static_cast<int>(dims.m), activation, std::move(maps),
                                           positions > 0);
}

// ---- reading ----------------------------------------------------------------------------

struct HeadMetadata {
  FeatureMap activation = FeatureMap::Relu;
  int positions = 0;
};

HeadMetadata read_head_metadata(const SafetensorsFile& file) {
  const auto& meta = file.metadata;
  const auto format = meta.find("format");
  if (format == meta.end())
    fail(file,
         "metadata \"format\" missing: expected __metadata__ {\"format\": \"" +
             std::string(kFormat) +
             "\", \"version\": \"1\", \"activation\": ...}; a head in another "
             "library's layout needs its layout given as an option (docs/model-format.md §12)");
  if (format->second != kFormat)
    fail(file, "metadata format is \"" + format->second + "\", expected \"" + kFormat + "\"");
  const auto version = meta.find("version");
  if (version == meta.end()) fail(file, "metadata \"version\" missing: expected \"1\"");
  if (version->second != "1")
    fail(file, "unsupported kernelrank-head version \"" + version->second +
                   "\" (this build reads version 1)");
  // "layout": "kernelrank" only names this layout, as for the other activations (§12).
  for (const auto& [key, value] : meta)
    if (key != "format" && key != "version" && key != "activation" && key != "positions" &&
        !(key == "layout" && value == "kernelrank"))
      fail(file, "unknown metadata key \"" + key +
                     "\" (allowed: format, version, activation, positions)");
  HeadMetadata head;
  const auto activation = meta.find("activation");
  if (activation == meta.end())
    fail(file,
         "metadata \"activation\" missing: expected relu, square, identity, taylor2, elu1, exp or "
         "softmax");
  const std::optional<FeatureMap> map = feature_map_named(activation->second);
  if (!map || !written_activation(*map))
    fail(file, "metadata activation is \"" + activation->second +
                   "\", expected relu, square, identity, taylor2, elu1, exp or softmax");
  head.activation = *map;
  const auto positions = meta.find("positions");
  if (positions != meta.end()) {
    const std::string& text = positions->second;
    bool canonical = !text.empty() && text.size() <= 4 && text[0] != '0';
    for (char c : text) canonical = canonical && c >= '0' && c <= '9';
    if (!canonical || std::stoll(text) > kMaxPositions)
      fail(file, "metadata positions must be an integer in 1.." + std::to_string(kMaxPositions) +
                     " written without leading zeros, found \"" + text + "\"");
    head.positions = static_cast<int>(std::stoll(text));
  }
  return head;
}

void check_tensor_names(const SafetensorsFile& file, int positions) {
  std::set<std::string> expected;
  for (std::size_t slot = 0; slot < slots_of(positions); ++slot)
    for (const Part& part : kParts) expected.insert(prefix(positions, slot) + part.name);
  for (const SafetensorsTensor& tensor : file.tensors) {
    if (expected.count(tensor.name) != 0) continue;
    std::string hint =
        " (a kernelrank head has query, key, value, readout_c and readout_e, each "
        "with weight and bias";
    if (positions > 0)
      hint += ", named pos<p>.<part> for p = 1.." + std::to_string(positions) +
              " since the metadata says positions=" + std::to_string(positions);
    if (tensor.name == kTemperature) hint += "; temperature belongs to softmax heads only";
    fail(file, "unknown tensor '" + tensor.name + "'" + hint + ")");
  }
  for (const std::string& name : expected)  // sorted, so the report is deterministic
    if (file.find(name) == nullptr) fail(file, "missing tensor '" + name + "'");
}

// m and r from the first query.weight, d from the first value.weight.
Dimensions infer_dimensions(const SafetensorsFile& file, int positions) {
  const std::string query = prefix(positions, 0) + "query.weight";
  const std::string value = prefix(positions, 0) + "value.weight";
  const SafetensorsTensor& q = *file.find(query);
  const SafetensorsTensor& v = *file.find(value);
  for (const SafetensorsTensor* t : {&q, &v})
    if (t->shape.size() != 2)
      fail(file, "tensor '" + t->name + "' has shape " + shape_text(t->shape) + ", expected " +
                     "2 dimensions [rows, m] (a torch.nn.Linear weight)");
  Dimensions dims{q.shape[1], q.shape[0], v.shape[0]};
  if (dims.m < 1 || dims.m > static_cast<std::uint64_t>(kMaxWidth))
    fail(file, "tensor '" + query + "' has shape " + shape_text(q.shape) + ": m = " +
                   std::to_string(dims.m) + " is outside 1.." + std::to_string(kMaxWidth));
  if (dims.r < 1 || dims.r > static_cast<std::uint64_t>(kMaxFeatures))
    fail(file, "tensor '" + query + "' has shape " + shape_text(q.shape) + ": r = " +
                   std::to_string(dims.r) + " is outside 1.." + std::to_string(kMaxFeatures));
  if (dims.d > static_cast<std::uint64_t>(kMaxFeatures))
    fail(file, "tensor '" + value + "' has shape " + shape_text(v.shape) + ": d = " +
                   std::to_string(dims.d) + " is outside 0.." + std::to_string(kMaxFeatures));
  return dims;
}

// Compares a tensor's shape with [rows, m] or [rows]; the message says which of m, r, d
// disagrees with the tensor it was inferred from.
void check_shape(const SafetensorsFile& file, const SafetensorsTensor& tensor, const Part& part,
                 const Dimensions& dims, int positions) {
  const char rows_symbol = part.rows == Rows::Features ? 'r'
                           : part.rows == Rows::Values ? 'd'
                                                       : '1';
  std::vector<std::uint64_t> expected{dims.rows(part.rows)};
  std::vector<char> symbols{rows_symbol};
  if (part.is_weight) {
    expected.push_back(dims.m);
    symbols.push_back('m');
  }
  if (tensor.shape == expected) return;
  std::string why;
  const bool same_rank = tensor.shape.size() == expected.size();
  for (std::size_t i = 0; why.empty() && same_rank && i < expected.size(); ++i) {
    if (tensor.shape[i] == expected[i]) continue;
    const char symbol = symbols[i];
    const std::string source =
        prefix(positions, 0) + (symbol == 'd' ? "value.weight" : "query.weight");
    why = symbol == '1' ? " (readout_e gives one scalar)"
                        : std::string(" (inconsistent ") + symbol + ": '" + source + "' gives " +
                              symbol + " = " + std::to_string(expected[i]) + ")";
  }
  if (why.empty())
    why = part.is_weight ? " (a weight is [rows, m], as in torch.nn.Linear)"
                         : " (a bias is [rows], as in torch.nn.Linear)";
  fail(file, "tensor '" + tensor.name + "' has shape " + shape_text(tensor.shape) + ", expected " +
                 shape_text(expected) + why);
}

// ---- the double form ---------------------------------------------------------------------

[[noreturn]] void bad_weights(const std::string& message) {
  throw std::invalid_argument("HeadWeights: " + message);
}

Dimensions dimensions_of(const HeadWeights& weights) {
  return {static_cast<std::uint64_t>(weights.m), static_cast<std::uint64_t>(weights.r),
          static_cast<std::uint64_t>(weights.d)};
}

void check_range(const char* name, long long value, long long lo, long long hi) {
  if (value < lo || value > hi)
    bad_weights(std::string(name) + " = " + std::to_string(value) + " is outside " +
                std::to_string(lo) + ".." + std::to_string(hi));
}

void validate(const HeadWeights& weights) {
  if (!written_activation(weights.activation))
    bad_weights("activation \"" + to_string(weights.activation) +
                "\" is not relu, square, identity or softmax");
  check_range("m", weights.m, 1, kMaxWidth);
  check_range("r", weights.r, 1, kMaxFeatures);
  check_range("d", weights.d, 0, kMaxFeatures);
  check_range("positions", weights.positions, 0, kMaxPositions);
  if (weights.by_position.size() != slots_of(weights.positions))
    bad_weights("by_position has " + std::to_string(weights.by_position.size()) +
                " entries, expected " + std::to_string(slots_of(weights.positions)));
  if (weights.temperature && weights.activation != FeatureMap::Softmax)
    bad_weights("a temperature is given, but only softmax heads have one");
  const Dimensions dims = dimensions_of(weights);
  for (std::size_t slot = 0; slot < weights.by_position.size(); ++slot)
    for (const Part& part : kParts) {
      const std::uint64_t expected = dims.rows(part.rows) * (part.is_weight ? dims.m : 1);
      const std::size_t found = (weights.by_position[slot].*part.field).size();
      if (found != expected)
        bad_weights(prefix(weights.positions, slot) + part.name + " has " + std::to_string(found) +
                    " values, expected " + std::to_string(expected));
    }
}

}  // namespace

std::unique_ptr<ParametricModel> parametric_model_from_safetensors(const SafetensorsFile& file) {
  const HeadMetadata head = read_head_metadata(file);
  if (head.activation == FeatureMap::Softmax)
    fail(file,
         "softmax head refused: the head has exp features (alpha = exp(<WQ x + bQ, "
         "WK z + bK>)), which are not rational, so it can be evaluated only in floating "
         "point; kernelrank verifies relu and square heads exactly");
  check_tensor_names(file, head.positions);
  const Dimensions dims = infer_dimensions(file, head.positions);
  std::vector<PositionValues> values(slots_of(head.positions));
  for (std::size_t slot = 0; slot < values.size(); ++slot)
    for (std::size_t k = 0; k < kPartCount; ++k) {
      const SafetensorsTensor& tensor = *file.find(prefix(head.positions, slot) + kParts[k].name);
      check_shape(file, tensor, kParts[k], dims, head.positions);
      values[slot][k] = tensor.values;
    }
  return build_model(head.activation, dims, head.positions, std::move(values));
}

std::string head_to_safetensors(const HeadWeights& weights) {
  validate(weights);
  const Dimensions dims = dimensions_of(weights);
  std::vector<WrittenTensor> tensors;
  for (std::size_t slot = 0; slot < weights.by_position.size(); ++slot)
    for (const Part& part : kParts) {
      WrittenTensor tensor;
      tensor.name = prefix(weights.positions, slot) + part.name;
      tensor.shape = {dims.rows(part.rows)};
      if (part.is_weight) tensor.shape.push_back(dims.m);
      tensor.values = weights.by_position[slot].*part.field;
      tensors.push_back(std::move(tensor));
    }
  if (weights.temperature) tensors.push_back({kTemperature, {}, {*weights.temperature}});
  std::map<std::string, std::string> metadata{
      {"format", kFormat}, {"version", "1"}, {"activation", to_string(weights.activation)}};
  if (weights.positions > 0) metadata["positions"] = std::to_string(weights.positions);
  return safetensors_bytes(tensors, metadata);
}

std::unique_ptr<ParametricModel> parametric_model_from_weights(const HeadWeights& weights) {
  validate(weights);
  if (weights.activation == FeatureMap::Softmax)
    throw UsageError(
        "a softmax head has exp features, which are not rational: it can be "
        "evaluated only in floating point, not turned into an exact model");
  std::vector<PositionValues> values(weights.by_position.size());
  for (std::size_t slot = 0; slot < values.size(); ++slot)
    for (std::size_t k = 0; k < kPartCount; ++k) {
      const std::vector<double>& source = weights.by_position[slot].*kParts[k].field;
      RationalVector& exact = values[slot][k];
      exact.reserve(source.size());
      for (std::size_t i = 0; i < source.size(); ++i) {
        try {
          exact.push_back(rational_from_double(source[i]));
        } catch (const NonFiniteError& e) {
          throw NonFiniteError(prefix(weights.positions, slot) + kParts[k].name +
                               ": value at flat index " + std::to_string(i) + ": " + e.what());
        }
      }
    }
  return build_model(weights.activation, dimensions_of(weights), weights.positions,
                     std::move(values));
}

}  // namespace kernelrank

namespace kernelrank {
namespace {

void append_rounded(const AffineMap& map, std::vector<double>& weight, std::vector<double>& bias) {
  for (std::size_t row = 0; row < map.weight.size(); ++row) {
    for (const Rational& w : map.weight[row]) weight.push_back(w.convert_to<double>());
    bias.push_back(map.bias[row].convert_to<double>());
  }
}

}  // namespace

HeadWeights rounded_head_weights(const ParametricModel& model) {
  HeadWeights out;
  out.activation = model.activation();
  out.m = model.width();
  out.r = model.feature_count().value_or(0);
  out.d = model.value_width();
  out.positions =
      model.position_dependent() ? static_cast<int>(model.maps_by_position().size()) : 0;
  for (const ParametricMaps& maps : model.maps_by_position()) {
    HeadPositionWeights w;
    append_rounded(maps.query, w.query_weight, w.query_bias);
    append_rounded(maps.key, w.key_weight, w.key_bias);
    append_rounded(maps.value, w.value_weight, w.value_bias);
    append_rounded(maps.readout_c, w.readout_c_weight, w.readout_c_bias);
    append_rounded(maps.readout_e, w.readout_e_weight, w.readout_e_bias);
    out.by_position.push_back(std::move(w));
  }
  return out;
}

}  // namespace kernelrank
