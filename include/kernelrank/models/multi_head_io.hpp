// Multi-head model files (docs/model-format.md §13): the text form, whose head sections
// are complete single-head model texts, and the JSON form, whose heads are JSON tabular
// objects. Readers fail closed with InputError naming the file and the real line of the
// fault (inside a head too); sizes are checked before anything is allocated.
#pragma once

#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/models/multi_head.hpp"

#include <string>

namespace kernelrank {

// A multi-head file is read and parsed by the opener (head_opener.hpp: open_model).

// The test the opener (head_opener.hpp) recognises a multi-head file by: the first
// non-comment line's first field is `kernelrank-multihead`, or the text is JSON whose "format"
// is "kernelrank-multihead". `contents` may be a prefix of the file.
bool is_multi_head_contents(const std::string& contents);

// The canonical text form: the header, then `head h` and the head's canonical text for
// every head. Tabular, features and parametric heads can be written; any other head
// (a built-in) throws UsageError naming it. Reading the output gives back equal heads.
std::string multi_head_text(const MultiHeadModel& model);

// The canonical text of a features head (docs/model-format.md §5).
std::string feature_model_to_text(const FeatureModel& model);

}  // namespace kernelrank
