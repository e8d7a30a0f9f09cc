// The construct pipeline (construct_job.hpp): the verdict is about the bytes that would be
// written, not only about the model built in memory.
#include "kernelrank/app/construct_job.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/parametric_writer.hpp"

namespace kernelrank {
namespace {

std::optional<Rational> exact_parameter(const std::optional<std::string>& text,
                                        const std::string& name) {
  if (!text) return std::nullopt;
  try {
    return parse_rational(*text);
  } catch (const std::exception& e) {
    throw DomainError("{" + name + "}: expected an exact number such as 3/8, found '" +
                      ParameterMessage::literal(*text) +
                      "': " + ParameterMessage::literal(e.what()));
  }
}

}  // namespace

ConstructOutcome run_construct(const ConstructRequest& request) {
  ComplementHeadOptions options;
  options.slope = exact_parameter(request.slope, "slope");
  options.diagonal = exact_parameter(request.diagonal, "diagonal");
  const Family family = read_family(request.family);
  ConstructOutcome out;
  out.instances = family.instances.size();
  out.head = construct_complement_head(family, options);
  out.model_text = parametric_model_to_text(*out.head.model);
  const std::string name = request.out.empty() ? "<constructed model>" : request.out;
  out.report = evaluate_family(*parse_model(name, out.model_text), family, EvalOptions{});
  if (out.report.solves() != out.head.report.solves() ||
      out.report.max_error != out.head.report.max_error)
    throw InternalError("construct: the written text evaluates differently from the model built");
  if (out.report.solves() && !request.out.empty()) {
    write_file_atomically(request.out, out.model_text);
    out.written = true;
  }
  return out;
}

}  // namespace kernelrank
