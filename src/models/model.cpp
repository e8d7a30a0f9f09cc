// Names of the model classes of theory.md §2, as printed in reports.
#include "kernelrank/models/model.hpp"

namespace kernelrank {

std::string to_string(ModelClass model_class) {
  switch (model_class) {
    case ModelClass::PositiveFeatures:
      return "PF";
    case ModelClass::NonnegativeKernel:
      return "NK";
    case ModelClass::Signed:
      return "signed";
  }
  return "unknown model class";
}

std::optional<ModelClass> parse_model_class(const std::string& text) {
  if (text == "PF") return ModelClass::PositiveFeatures;
  if (text == "NK") return ModelClass::NonnegativeKernel;
  if (text == "signed") return ModelClass::Signed;
  return std::nullopt;
}

}  // namespace kernelrank
