// kind=layered (model-format.md §14): the header m, r, class; one 'layer j c_j' line per
// layer; one 'correction w g_w(0) .. g_w(w)' line for each w = 0..m, in order. Every claim
// the file makes is checked before a model is built: the declared r against sum C(m, j), the
// class against the coefficients (PF) or the kernel values (NK), and K(0) > 0.
#include "models/model_text_sections.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/layered_head.hpp"

namespace kernelrank::model_files::text {

std::unique_ptr<Model> parse_layered(TextReader& reader, const Header& header) {
  check_keys(reader, header, {"m", "r", "class"});
  LayeredHead head;
  head.m = static_cast<int>(*header_integer(reader, header, "m", 1, kMaxLayeredWidth, true));
  const auto declared_r = header.values.find("r");
  if (declared_r == header.values.end())
    reader.fail(header.line, "missing r=<the feature count sum C(m, j)> in the model header");
  const std::optional<ModelClass> declared = header_class(reader, header);
  if (!declared || *declared == ModelClass::Signed)
    reader.fail(header.line, "a layered head declares class=PF or class=NK in its header");
  head.model_class = *declared;

  std::size_t first_layer_line = 0;
  std::optional<TextLine> line = reader.next();
  while (line && line->fields[0] == "layer") {
    if (first_layer_line == 0) first_layer_line = line->number;
    if (line->fields.size() != 3) reader.fail(line->number, "expected 'layer <j> <c_j>'");
    const int j = static_cast<int>(reader.integer_field(*line, 1, 0, head.m, "the layer j"));
    if (!head.layers.empty() && j <= head.layers.back())
      reader.fail(line->number, "layers must be strictly increasing: " + std::to_string(j) +
                                    " after " + std::to_string(head.layers.back()));
    if (head.layers.empty() && j != 0)
      reader.fail(line->number,
                  "the first layer must be 0 (K(0) = c_0 > 0), found " + std::to_string(j));
    head.layers.push_back(j);
    head.coefficients.push_back(reader.rational_field(*line, 2, "the coefficient c_j"));
    if (head.model_class == ModelClass::PositiveFeatures && head.coefficients.back() < 0)
      reader.fail(line->number, "the header declares class=PF but c_" + std::to_string(j) + " = " +
                                    to_string(head.coefficients.back()) + " < 0");
    line = reader.next();
  }
  if (head.layers.empty())
    reader.fail(line ? line->number : reader.current_line(),
                "expected 'layer <j> <c_j>' lines after the header");
  for (int w = 0; w <= head.m; ++w) {
    if (!line || line->fields[0] != "correction")
      reader.fail(line ? line->number : reader.current_line(),
                  "expected 'correction " + std::to_string(w) + "' with " + std::to_string(w + 1) +
                      " values g_w(0) .. g_w(w), found " +
                      (line ? "'" + line->fields[0] + "'" : std::string("the end of the file")));
    const long long row = reader.integer_field(*line, 1, 0, head.m, "the query weight w");
    if (row != w)
      reader.fail(line->number, "expected 'correction " + std::to_string(w) + "', found w = " +
                                    std::to_string(row) + " (one line per w = 0.." +
                                    std::to_string(head.m) + ", in order)");
    if (line->fields.size() != static_cast<std::size_t>(w) + 3)
      reader.fail(line->number, "expected " + std::to_string(w + 1) + " values g_" +
                                    std::to_string(w) + "(0) .. g_" + std::to_string(w) + "(" +
                                    std::to_string(w) + "), found " +
                                    std::to_string(line->fields.size() - 2));
    std::vector<Rational> values;
    for (std::size_t i = 2; i < line->fields.size(); ++i)
      values.push_back(reader.rational_field(*line, i, "a correction value"));
    head.correction.push_back(std::move(values));
    line = reader.next();
  }
  if (line)
    reader.fail(line->number, "unexpected line after 'correction " + std::to_string(head.m) + "'");

  const Integer r = head.feature_count();
  if (declared_r->second != to_string(r))
    reader.fail(header.line, "the header declares r=" + declared_r->second +
                                 " but the layers give sum C(m, j) = " + to_string(r));
  const std::string problem = layered_head_problem(head);
  if (!problem.empty()) reader.fail(first_layer_line, problem);
  return make_layered_model(std::move(head));
}

}  // namespace kernelrank::model_files::text
