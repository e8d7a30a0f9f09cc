// Writes kind=parametric model files in canonical form (docs/model-format.md §6): the header
// with m, r, d, activation and positions, then for each position the sections WQ, WK, V, C, E,
// one row per output (the m weights, then the bias), every number as to_string(Rational),
// which is already in lowest terms. The output is a function of the model alone, so writing
// what was read back gives the same bytes.
#include "kernelrank/models/parametric_writer.hpp"

namespace kernelrank {
namespace {

void append_section(std::string& out, const char* word, const std::string& position,
                    const AffineMap& map) {
  out += word + position + "\n";
  for (std::size_t row = 0; row < map.weight.size(); ++row) {
    for (const Rational& weight : map.weight[row]) out += to_string(weight) + ' ';
    out += to_string(map.bias[row]) + '\n';
  }
}

}  // namespace

std::string parametric_model_to_text(const ParametricModel& model) {
  const std::vector<ParametricMaps>& maps = model.maps_by_position();
  const bool by_position = model.position_dependent();
  std::string out = "kernelrank-model 1 kind=parametric m=" + std::to_string(model.width()) +
                    " r=" + std::to_string(model.feature_count().value_or(0)) +
                    " d=" + std::to_string(model.value_width()) +
                    " activation=" + to_string(model.activation());
  if (by_position) out += " positions=" + std::to_string(maps.size());
  if (const auto declared = model.declared_class()) out += " class=" + to_string(*declared);
  out += "\n# each row: the m weights of coordinates 1..m, then the bias\n";
  for (std::size_t slot = 0; slot < maps.size(); ++slot) {
    // "WQ 2" names position 2 when position dependent, plain "WQ" otherwise.
    const std::string position = by_position ? " " + std::to_string(slot + 1) : "";
    append_section(out, "WQ", position, maps[slot].query);
    append_section(out, "WK", position, maps[slot].key);
    append_section(out, "V", position, maps[slot].value);
    append_section(out, "C", position, maps[slot].readout_c);
    append_section(out, "E", position, maps[slot].readout_e);
  }
  return out;
}

}  // namespace kernelrank
