// The text forms of exact values and instances that the pipelines' own sentences (the claims
// of reproduce) and the CLI's reports share, so that one number reads the same everywhere.
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/eval/evaluate.hpp"

#include <string>

namespace kernelrank {

// "2/5 (~0.4000)"; an integer or a short decimal as is.
std::string exact_with_decimal(const Rational& value);
// An instance for people: 0/1 tokens up to m = 64, index lists beyond.
std::string instance_text(const Instance& instance);
// The instance, its target, the output and the error.
std::string outcome_to_text(const InstanceOutcome& outcome);

}  // namespace kernelrank
