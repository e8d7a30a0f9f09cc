// The model-file fuzz targets (text and JSON) share this body: parse_model, then use the
// model the way the commands do. Properties: rejection is an InputError naming the file; an
// accepted model answers kernel and readout on tokens it defines, classifies itself (or
// refuses with ResourceError), and a tabular model round-trips through the text writer
// (and the JSON writer when position independent).
#pragma once

#include "fuzz_support.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/models/model_io.hpp"

#include <memory>
#include <vector>

namespace fuzz_model {

using namespace kernelrank;

inline bool same_tables(const TabularModel& a, const TabularModel& b) {
  if (a.width() != b.width() || a.tokens() != b.tokens() || a.positions() != b.positions())
    return false;
  const int blocks = a.positions() > 0 ? a.positions() : 1;
  for (int q = 0; q < blocks; ++q)
    for (int k = 0; k < blocks; ++k)
      if (a.kernel_table(q, k) != b.kernel_table(q, k) ||
          a.readout_table(q, k) != b.readout_table(q, k))
        return false;
  return true;
}

// A few tokens the model defines: the first and last listed ones, or the all-zero and
// all-one tokens when the model covers the whole cube.
inline std::vector<Token> probe_tokens(const Model& model) {
  if (const std::vector<Token>* universe = model.token_universe()) {
    FUZZ_REQUIRE(!universe->empty());
    return {universe->front(), universe->back()};
  }
  Token zero(model.width());
  return {zero, zero.complement()};
}

inline void check_model(const std::string& contents) {
  std::unique_ptr<Model> model;
  try {
    model = parse_model("fuzz.model", contents);
  } catch (const InputError& e) {
    FUZZ_REQUIRE(e.file() == "fuzz.model");
    return;
  } catch (const ResourceError&) {  // a built-in model refusing its parameters
    return;
  }
  FUZZ_REQUIRE(model->width() >= 1 && model->width() <= 4096);
  FUZZ_REQUIRE(!model->description().empty());
  const std::vector<Token> tokens = probe_tokens(*model);
  for (const Token& q : tokens)
    for (const Token& z : tokens) {
      model->kernel(q, z, 0, 0);
      model->readout(q, z, 0, 0);
    }
  try {
    model->classify();
  } catch (const ResourceError&) {
  }
  if (const auto* table = dynamic_cast<const TabularModel*>(model.get())) {
    const std::string text = tabular_model_to_text(*table);
    const auto again = parse_model("again.model", text);
    const auto* again_table = dynamic_cast<const TabularModel*>(again.get());
    FUZZ_REQUIRE(again_table != nullptr && same_tables(*table, *again_table));
    FUZZ_REQUIRE(tabular_model_to_text(*again_table) == text);
    if (!table->position_dependent()) {
      const auto from_json = parse_model("again.json", tabular_model_to_json(*table));
      const auto* json_table = dynamic_cast<const TabularModel*>(from_json.get());
      FUZZ_REQUIRE(json_table != nullptr && same_tables(*table, *json_table));
    }
  }
}

}  // namespace fuzz_model
