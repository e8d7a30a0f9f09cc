// Names of the model classes of theory.md §2, as printed in reports.
#include "kernelrank/models/model.hpp"

namespace kernelrank {

std::string to_string(ModelClass model_class) {
  switch (model_class) {
    case ModelClass::PositiveFeatures:
      return "PF";
    case ModelClass::NonnegativeKernel:
      return "NK";
    case ModelClass::OutsideNK:
      return "outside NK";
  }
  return "unknown model class";
}

}  // namespace kernelrank
