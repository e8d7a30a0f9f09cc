// The pipeline behind `kernelrank construct` and kernelrank.construct: an exact relu head for
// a family by the graded complement-detector construction (bounds/family_construction.hpp),
// decided by the exact evaluation of its own model text read back, and written only when that
// text solves the family. Messages name parameters as {slope}, {diagonal} (core/errors.hpp).
#pragma once

#include "kernelrank/bounds/family_construction.hpp"
#include "kernelrank/eval/evaluate.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace kernelrank {

struct ConstructRequest {
  std::string family;                   // the family file
  std::string out;                      // the model file to write when the head solves ("": none)
  std::optional<std::string> slope;     // a >= 0 as an exact number ("3/8"); nullopt: chosen
  std::optional<std::string> diagonal;  // B > 0 as an exact number; nullopt: chosen
};

struct ConstructOutcome {
  std::size_t instances = 0;  // in the family
  ComplementHead head;
  std::string model_text;  // the kind=parametric text, written or not
  EvalReport report;       // the exact evaluation of model_text read back
  bool written = false;    // model_text was written to `out`
  bool solves() const { return report.solves(); }
};

ConstructOutcome run_construct(const ConstructRequest& request);

}  // namespace kernelrank
