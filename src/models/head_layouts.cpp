// Safetensors layouts of single heads (head_layouts.hpp, docs/model-format.md §12).
//
// One table says which tensor plays which part in each layout; one reader walks it. The file
// is checked from the outside in: metadata, unknown tensor names, then each part's presence
// and shape against m and dk (from the query weight) and d (from the value weight).
#include "kernelrank/models/head_layouts.hpp"

#include "kernelrank/core/errors.hpp"

#include <array>
#include <set>
#include <stdexcept>

namespace kernelrank {
namespace {

struct AffineNames {
  const char* weight;
  const char* bias;
  bool bias_required;
};

struct LayoutSpec {
  HeadLayout layout;
  const char* name;
  AffineNames query, key, value;
  AffineNames out;         // a query-independent readout [1, d]; weight nullptr: none
  const char* projection;  // exp features' random projection [r, dk]
  std::optional<FeatureMap> default_map;
  bool performer_scale;  // s = dk^(-1/4), performer's data normalizer
};

// The query-dependent readout of kernelrank's layout, accepted in every layout.
const AffineNames kReadoutC = {"readout_c.weight", "readout_c.bias", true};
const AffineNames kReadoutE = {"readout_e.weight", "readout_e.bias", true};
const char* const kTemperature = "temperature";
constexpr std::uint64_t kMaxWidth = 4096, kMaxRows = 100000;

const std::array<LayoutSpec, 4> kLayouts = {{
    {HeadLayout::Kernelrank,
     "kernelrank",
     {"query.weight", "query.bias", true},
     {"key.weight", "key.bias", true},
     {"value.weight", "value.bias", true},
     {nullptr, nullptr, false},
     "projection",
     std::nullopt,
     false},
    {HeadLayout::FastTransformers,
     "fast-transformers",
     {"query_projection.weight", "query_projection.bias", false},
     {"key_projection.weight", "key_projection.bias", false},
     {"value_projection.weight", "value_projection.bias", false},
     {"out_projection.weight", "out_projection.bias", false},
     nullptr,
     FeatureMap::Elu1,
     false},
    {HeadLayout::Performer,
     "performer",
     {"to_q.weight", "to_q.bias", false},
     {"to_k.weight", "to_k.bias", false},
     {"to_v.weight", "to_v.bias", false},
     {"to_out.weight", "to_out.bias", false},
     "fast_attention.projection_matrix",
     FeatureMap::Exp,
     true},
    {HeadLayout::Torch,
     "torch",
     {"q_proj.weight", "q_proj.bias", false},
     {"k_proj.weight", "k_proj.bias", false},
     {"v_proj.weight", "v_proj.bias", false},
     {"out_proj.weight", "out_proj.bias", false},
     nullptr,
     std::nullopt,
     false},
}};

const LayoutSpec& spec_of(HeadLayout layout) {
  for (const LayoutSpec& spec : kLayouts)
    if (spec.layout == layout) return spec;
  throw std::logic_error("unknown layout");
}

[[noreturn]] void fail(const SafetensorsFile& file, const std::string& message) {
  throw InputError::whole_file(file.name, message);
}

const SafetensorsTensor& require(const SafetensorsFile& file, const char* name,
                                 const std::string& why) {
  const SafetensorsTensor* tensor = file.find(name);
  if (tensor == nullptr) fail(file, "missing tensor '" + std::string(name) + "'" + why);
  return *tensor;
}

void expect_shape(const SafetensorsFile& file, const SafetensorsTensor& tensor,
                  const std::vector<std::uint64_t>& shape, const std::string& meaning) {
  if (tensor.shape != shape)
    fail(file, "tensor '" + tensor.name + "' has shape " + shape_text(tensor.shape) +
                   ", expected " + meaning + " = " + shape_text(shape));
}

RationalMatrix rows_of(const SafetensorsTensor& tensor, std::uint64_t rows, std::uint64_t columns) {
  RationalMatrix matrix(rows);
  for (std::uint64_t i = 0; i < rows; ++i)
    matrix[i].assign(tensor.values.begin() + static_cast<std::ptrdiff_t>(i * columns),
                     tensor.values.begin() + static_cast<std::ptrdiff_t>((i + 1) * columns));
  return matrix;
}

// An affine part with `rows` outputs on width m; a missing optional bias is zero.
AffineMap read_affine(const SafetensorsFile& file, const AffineNames& names, std::uint64_t rows,
                      std::uint64_t m, const std::string& rows_meaning) {
  const SafetensorsTensor& weight = require(file, names.weight, "");
  expect_shape(file, weight, {rows, m}, "[" + rows_meaning + ", m]");
  AffineMap map;
  map.weight = rows_of(weight, rows, m);
  const SafetensorsTensor* bias = file.find(names.bias);
  if (bias == nullptr && names.bias_required)
    fail(file, "missing tensor '" + std::string(names.bias) + "'");
  if (bias != nullptr) {
    expect_shape(file, *bias, {rows}, "[" + rows_meaning + "]");
    map.bias = bias->values;
  } else {
    map.bias.assign(rows, Rational(0));
  }
  return map;
}

void check_names(const SafetensorsFile& file, const LayoutSpec& spec) {
  std::set<std::string> known = {kReadoutC.weight, kReadoutC.bias, kReadoutE.weight, kReadoutE.bias,
                                 kTemperature};
  for (const AffineNames* names : {&spec.query, &spec.key, &spec.value, &spec.out})
    if (names->weight != nullptr) known.insert({names->weight, names->bias});
  if (spec.projection != nullptr) known.insert(spec.projection);
  for (const SafetensorsTensor& tensor : file.tensors)
    if (known.count(tensor.name) == 0)
      fail(file, "unknown tensor '" + tensor.name + "' for layout " + spec.name +
                     " (docs/model-format.md §12 lists its tensors; strip any module prefix)");
}

// The feature map: kernelrank's layout states it as its activation; the others take the
// option, then metadata "feature_map", then the layout's default.
FeatureMap feature_map_of(const SafetensorsFile& file, const LayoutSpec& spec,
                          const HeadReadOptions& options) {
  const auto meta = [&](const char* key) -> std::optional<std::string> {
    const auto it = file.metadata.find(key);
    return it == file.metadata.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  if (spec.layout == HeadLayout::Kernelrank) {
    if (meta("format") != std::optional<std::string>("kernelrank-head"))
      fail(file, "metadata format must be \"kernelrank-head\" for layout kernelrank");
    if (meta("version") != std::optional<std::string>("1"))
      fail(file, "metadata version must be \"1\"");
    // As for relu/square/identity heads (§11): a misspelt or contradicting key is refused,
    // not ignored. "layout" names this layout (read_real_head has checked its value).
    for (const auto& [key, value] : file.metadata)
      if (key != "format" && key != "version" && key != "activation" && key != "positions" &&
          key != "layout")
        fail(file, "unknown metadata key \"" + key +
                       "\" (allowed: format, version, activation, positions)");
    if (meta("positions"))
      fail(file, "position-dependent heads are read only with relu or square activations");
    const auto activation = meta("activation");
    if (!activation) fail(file, "metadata \"activation\" missing");
    FeatureMap map;
    try {
      map = parse_feature_map(*activation);
    } catch (const UsageError& e) {
      fail(file, std::string("metadata activation: ") + e.what());
    }
    if (options.feature_map && *options.feature_map != map)
      throw DomainError("{feature-map} " + to_string(*options.feature_map) +
                        " contradicts the file's activation " +
                        ParameterMessage::literal(*activation));
    return map;
  }
  if (options.feature_map) return *options.feature_map;
  if (const auto named = meta("feature_map")) {
    try {
      return parse_feature_map(*named);
    } catch (const UsageError& e) {
      fail(file, std::string("metadata feature_map: ") + e.what());
    }
  }
  if (spec.default_map) return *spec.default_map;
  throw DomainError("layout " + std::string(spec.name) +
                    " has no default feature map: give {feature-map}");
}

}  // namespace

HeadLayout parse_head_layout(const std::string& name) {
  for (const LayoutSpec& spec : kLayouts)
    if (name == spec.name) return spec.layout;
  throw UsageError("layout must be kernelrank, fast-transformers, performer or torch, not '" +
                   name + "'");
}

std::string to_string(HeadLayout layout) { return spec_of(layout).name; }

bool needs_real_head_reader(const SafetensorsFile& file, const HeadReadOptions& options) {
  if (options.layout && *options.layout != HeadLayout::Kernelrank) return true;
  if (!options.layout && file.metadata.count("layout") &&
      file.metadata.at("layout") != "kernelrank")
    return true;
  // Unknown activations stay with the parametric reader, which names them; so do identity
  // features (kind=parametric with activation=identity, position dependent or not).
  const auto activation = file.metadata.find("activation");
  if (activation == file.metadata.end()) return false;
  const std::optional<FeatureMap> map = feature_map_named(activation->second);
  return map && !is_entrywise(*map);
}

namespace {

// The layout asked for, else the one the metadata states, else kernelrank's own.
HeadLayout resolve_layout(const SafetensorsFile& file, const HeadReadOptions& options) {
  const auto stated = file.metadata.find("layout");
  if (options.layout) {
    if (stated != file.metadata.end() && stated->second != to_string(*options.layout))
      throw DomainError("{layout} " + to_string(*options.layout) +
                        " contradicts the file's metadata layout \"" +
                        ParameterMessage::literal(stated->second) + "\"");
    return *options.layout;
  }
  if (stated == file.metadata.end()) return HeadLayout::Kernelrank;
  try {
    return parse_head_layout(stated->second);
  } catch (const UsageError& e) {
    fail(file, std::string("metadata layout: ") + e.what());
  }
}

// readout_c/readout_e, or the layout's output projection (one readout vector for every query).
void read_readout(const SafetensorsFile& file, const LayoutSpec& spec, std::uint64_t d,
                  std::uint64_t m, RealHead& head) {
  const bool own_readout =
      file.find(kReadoutC.weight) != nullptr || file.find(kReadoutE.weight) != nullptr;
  const bool out = spec.out.weight != nullptr && file.find(spec.out.weight) != nullptr;
  if (own_readout && out)
    fail(file,
         "both '" + std::string(spec.out.weight) + "' and readout_c/readout_e: give one readout");
  if (out) {
    // y = w . o + b: the readout vector is the same for every query.
    const AffineMap projection = read_affine(file, spec.out, 1, d, "1");
    head.readout_c.weight.assign(d, RationalVector(m, Rational(0)));
    head.readout_c.bias = projection.weight[0];
    head.readout_e.weight.assign(1, RationalVector(m, Rational(0)));
    head.readout_e.bias = projection.bias;
    return;
  }
  const std::string why =
      spec.out.weight == nullptr
          ? std::string()
          : " (the readout is '" + std::string(spec.out.weight) + "' or readout_c and readout_e)";
  require(file, kReadoutC.weight, why);
  head.readout_c = read_affine(file, kReadoutC, d, m, "d");
  head.readout_e = read_affine(file, kReadoutE, 1, m, "1");
}

// The tensors that belong to one feature map: exp's random projection, softmax's temperature.
void read_map_tensors(const SafetensorsFile& file, const LayoutSpec& spec, std::uint64_t dk,
                      RealHead& head) {
  const SafetensorsTensor* projection = spec.projection ? file.find(spec.projection) : nullptr;
  if (head.map == FeatureMap::Exp) {
    if (spec.projection == nullptr)
      fail(file, "exp features need a random projection, which layout " + std::string(spec.name) +
                     " does not hold");
    const SafetensorsTensor& omega =
        require(file, spec.projection, " (the random features of exp)");
    if (omega.shape.size() != 2 || omega.shape[1] != dk || omega.shape[0] < 1 ||
        omega.shape[0] > kMaxRows)
      fail(file, "tensor '" + omega.name + "' has shape " + shape_text(omega.shape) +
                     ", expected [r, dk] with dk = " + std::to_string(dk) + " (from " +
                     spec.query.weight + ")");
    head.projection = rows_of(omega, omega.shape[0], dk);
    if (spec.performer_scale) head.scale = Rational(1, static_cast<long long>(dk));
  } else if (projection != nullptr) {
    fail(file, "tensor '" + projection->name +
                   "' belongs to exp features, but the feature map is " + to_string(head.map));
  }
  if (const SafetensorsTensor* temperature = file.find(kTemperature)) {
    if (head.map != FeatureMap::Softmax)
      fail(file, "tensor 'temperature' belongs to softmax heads only");
    if (temperature->values.size() != 1 || temperature->shape.size() > 1)
      fail(file, "tensor 'temperature' has shape " + shape_text(temperature->shape) +
                     ", expected [] or [1]");
    head.temperature = temperature->values[0];
  }
}

std::string describe_head(const RealHead& head, const LayoutSpec& spec, std::uint64_t dk,
                          std::uint64_t d) {
  std::string text = std::string(spec.name) + " head, " + to_string(head.map) +
                     " features, m = " + std::to_string(head.m) + ", dk = " + std::to_string(dk) +
                     ", d = " + std::to_string(d);
  if (head.map == FeatureMap::Exp) text += ", r = " + std::to_string(head.projection.size());
  if (head.map == FeatureMap::Softmax) text += ", temperature " + to_string(head.temperature);
  return text;
}

}  // namespace

RealHead read_real_head(const SafetensorsFile& file, const HeadReadOptions& options) {
  const LayoutSpec& spec = spec_of(resolve_layout(file, options));
  RealHead head;
  check_names(file, spec);
  head.map = feature_map_of(file, spec, options);
  const SafetensorsTensor& query = require(file, spec.query.weight, "");
  if (query.shape.size() != 2 || query.shape[1] < 1 || query.shape[1] > kMaxWidth ||
      query.shape[0] < 1 || query.shape[0] > kMaxRows)
    fail(file, "tensor '" + query.name + "' has shape " + shape_text(query.shape) +
                   ", expected [dk, m] with 1 <= dk <= 100000 and 1 <= m <= 4096");
  const std::uint64_t dk = query.shape[0], m = query.shape[1];
  head.m = static_cast<int>(m);
  const SafetensorsTensor& value = require(file, spec.value.weight, "");
  if (value.shape.size() != 2 || value.shape[0] > kMaxRows)
    fail(file,
         "tensor '" + value.name + "' has shape " + shape_text(value.shape) + ", expected [d, m]");
  const std::uint64_t d = value.shape[0];
  head.query = read_affine(file, spec.query, dk, m, "dk");
  head.key = read_affine(file, spec.key, dk, m, "dk");
  head.value = read_affine(file, spec.value, d, m, "d");
  read_readout(file, spec, d, m, head);
  read_map_tensors(file, spec, dk, head);
  try {
    validate(head);
  } catch (const std::invalid_argument& e) {
    fail(file, e.what());
  }
  head.description = describe_head(head, spec, dk, d);
  return head;
}

}  // namespace kernelrank
