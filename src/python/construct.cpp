// kernelrank.construct: the request of app/construct_job.hpp (the pipeline `kernelrank
// construct` runs), run with the GIL released; its result's fields are read from the JSON
// form the CLI prints (app/result_json.hpp), its instances and texts from the outcome.
#include "bindings.hpp"

#include "kernelrank/app/construct_job.hpp"
#include "kernelrank/app/result_json.hpp"
#include "kernelrank/core/errors.hpp"

#include <nlohmann/json.hpp>

namespace kernelrank::python {
namespace {

struct PyConstructResult {
  nlohmann::json json;  // construct_json
  py::object worst;     // Instance, or None
  py::list failures;    // Instance
  std::string model_text;
};

bool solves(const PyConstructResult& c) { return c.json.at("evaluation").at("solves").get<bool>(); }

std::string construct_repr(const PyConstructResult& c) {
  const nlohmann::json& max_error = c.json.at("evaluation").at("max_error");
  return "ConstructResult(family=" +
         py::repr(py::str(c.json.at("family").get<std::string>())).cast<std::string>() +
         ", r=" + c.json.at("r").dump() + ", solves=" + (solves(c) ? "True" : "False") +
         ", max_error=" + (max_error.is_null() ? "None" : max_error.get<std::string>()) + ")";
}

// An exact number as the text the library parses: str as given, int, or a Fraction.
std::optional<std::string> exact_number(const py::object& value, const char* name) {
  if (value.is_none()) return std::nullopt;
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr()))
    return py::str(value).cast<std::string>();
  if (py::hasattr(value, "numerator") && py::hasattr(value, "denominator") &&
      !PyFloat_Check(value.ptr()) && !PyBool_Check(value.ptr()))
    return py::str(value.attr("numerator")).cast<std::string>() + "/" +
           py::str(value.attr("denominator")).cast<std::string>();
  throw py::type_error(std::string(name) +
                       " must be a str, an int or a fractions.Fraction (an exact number), not " +
                       py::type::of(value).attr("__name__").cast<std::string>());
}

PyConstructResult run_construct_py(const py::object& family, const py::object& out,
                                   const py::object& slope, const py::object& diagonal) {
  ConstructRequest request;
  request.family = path_argument(family, "family");
  if (!out.is_none()) request.out = path_argument(out, "out");
  request.slope = exact_number(slope, "slope");
  request.diagonal = exact_number(diagonal, "diagonal");
  ConstructOutcome c;
  {
    py::gil_scoped_release release;
    c = run_construct(request);
  }
  PyConstructResult result;
  result.json = construct_json(request, c);
  result.worst = c.report.worst ? py::cast(to_instance(*c.report.worst)) : py::none();
  result.failures = to_instances(c.report.failures);
  result.model_text = std::move(c.model_text);
  return result;
}

}  // namespace

void register_construct(py::module_& module) {
  py::class_<PyConstructResult> cls(
      module, "ConstructResult",
      "An exact relu head for a family (graded complement detectors), as `kernelrank "
      "construct` reports it.");
  def_json_field(cls, "family", "/family", JsonKind::Plain, "The family file (str)");
  def_json_field(cls, "instances", "/instances", JsonKind::Plain, "Instances in the family (int)");
  def_json_field(cls, "queries", "/queries", JsonKind::Plain,
                 "Distinct queries of the family (int)");
  def_json_field(cls, "r", "/r", JsonKind::Plain, "Features of the head: one per query (int)");
  def_json_field(cls, "activation", "/activation", JsonKind::Plain, "The feature map: 'relu'");
  def_json_field(cls, "slope", "/slope", JsonKind::Fraction,
                 "Slope a of the key features (Fraction)");
  def_json_field(cls, "diagonal", "/diagonal", JsonKind::Fraction,
                 "Query feature B on the query's own detector (Fraction)");
  def_json_field(cls, "candidates", "/candidates", JsonKind::Plain, "(a, B) pairs evaluated (int)");
  def_json_field(cls, "solves", "/evaluation/solves", JsonKind::Plain,
                 "Whether the model text, read back, solves the family exactly (bool)");
  def_json_field(cls, "failing", "/evaluation/failing", JsonKind::Int, "Failing instances (int)");
  def_json_field(cls, "max_error", "/evaluation/max_error", JsonKind::Fraction,
                 "The exact max error (Fraction), or None");
  def_json_field(cls, "model_path", "/file", JsonKind::Plain,
                 "Where the model was written (only when it solves), or None");
  cls.def_readonly("worst", &PyConstructResult::worst, "An Instance attaining max_error, or None")
      .def_readonly("failures", &PyConstructResult::failures,
                    "The first failing instances (list of Instance)")
      .def_readonly("model_text", &PyConstructResult::model_text,
                    "The model file's text (kind=parametric), written or not")
      .def("__bool__", &solves, "Same as solves")
      .def("__repr__", &construct_repr);

  module.def("construct", &run_construct_py, py::arg("family"), py::kw_only(),
             py::arg("out") = py::none(), py::arg("slope") = py::none(),
             py::arg("diagonal") = py::none(),
             R"doc(An exact relu head for a family; returns a ConstructResult.

The same computation as `kernelrank construct`: the graded complement-detector head, one
feature per distinct query (r = queries), decided by the exact evaluation of its own model
text read back.
  out=PATH     write the model file there, only when it solves the family
  slope        a >= 0 of the key features, an exact number (str, int or Fraction);
               default: chosen by exact evaluation
  diagonal     B > 0, the query feature on its own detector; default: chosen

Example:
  >>> c = kernelrank.construct("instances/witness-m24.family", out="w24.model")
  >>> c.r, c.solves, c.max_error
)doc");
}

}  // namespace kernelrank::python
