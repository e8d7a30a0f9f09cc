// The canonical text form of a parametric model (docs/model-format.md §6).
//
// Used to turn a model read from a safetensors head (or built from trained weights) into a
// text file anyone can read and edit: every rational in lowest terms, sections in the fixed
// order WQ, WK, V, C, E (by position when position dependent). Reading the output with
// parse_model gives an equal model, and writing that again gives the same bytes.
#pragma once

#include "kernelrank/models/model_forms.hpp"

#include <string>

namespace kernelrank {

std::string parametric_model_to_text(const ParametricModel& model);

}  // namespace kernelrank
