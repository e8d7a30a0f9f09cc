// kernelrank.certify: the request of app/certify_job.hpp (the pipeline `kernelrank certify`
// runs), run with the GIL released; its result's fields are read from the JSON form the CLI
// prints (app/result_json.hpp). Every bound found is checked by the gate, and the bound
// reported is the checker's.
#include "bindings.hpp"

#include "kernelrank/app/certify_job.hpp"
#include "kernelrank/app/result_json.hpp"
#include "kernelrank/core/errors.hpp"

#include <nlohmann/json.hpp>

namespace kernelrank::python {
namespace {

struct PyCertifyResult {
  nlohmann::json json;     // certify_json
  py::object certificate;  // the checker-verified text, or None without a bound
  std::string message;     // the CLI's sentence about the written certificate
};

std::string certify_repr(const PyCertifyResult& c) {
  return "CertifyResult(family=" +
         py::repr(py::str(c.json.at("family").get<std::string>())).cast<std::string>() +
         ", instances=" + c.json.at("instances").dump() +
         ", found=" + (c.json.at("found").get<bool>() ? "True" : "False") +
         ", bound=" + c.json.value("bound", std::string("None")) + ")";
}

PyCertifyResult run_certify_py(const py::object& family, const py::object& certificate,
                               const py::object& baseline, const py::object& position_dependent,
                               const py::object& incomplete) {
  CertifyRequest request;
  request.family = path_argument(family, "family");
  if (!certificate.is_none()) request.certificate = path_argument(certificate, "certificate");
  if (!baseline.is_none()) request.baseline = path_argument(baseline, "baseline");
  request.position_dependent = bool_arg(position_dependent, "position_dependent");
  const std::size_t listed = int_arg<std::size_t>(incomplete, "incomplete");
  CertifyOutcome c;
  {
    py::gil_scoped_release release;
    c = run_certify(request);
  }
  PyCertifyResult result;
  result.json = certify_json(request, c, listed);
  result.certificate =
      c.certificate.empty() ? py::object(py::none()) : py::object(py::str(c.certificate.text()));
  result.message = c.certificate_message;
  return result;
}

}  // namespace

void register_certify(py::module_& module) {
  py::class_<PyCertifyResult> cls(
      module, "CertifyResult",
      "The best rank bound an explicit family supports, as `kernelrank certify` reports it.");
  def_family_bound(cls);
  def_json_field(cls, "family", "/family", JsonKind::Plain, "The family file (str)");
  def_json_field(cls, "m", "/m", JsonKind::Plain, "Token width of the family");
  def_json_field(cls, "n", "/n", JsonKind::Plain, "Sequence length of the family");
  def_json_field(cls, "instances", "/instances", JsonKind::Plain, "Instances in the family (int)");
  def_json_field(cls, "lost_steps", "/lost_steps", JsonKind::Plain,
                 "The first steps of the baseline the family no longer supports (list of "
                 "str), or None without a baseline");
  def_json_field(cls, "lost_steps_count", "/lost_steps_count", JsonKind::Plain,
                 "How many steps of the baseline are lost (int), or None");
  def_json_field(cls, "certificate_path", "/certificate", JsonKind::Plain,
                 "Where the certificate was written, or None");
  cls.def_readonly("certificate", &PyCertifyResult::certificate,
                   "The certificate text (verified by the checker library), or None without "
                   "a bound")
      .def_readonly("message", &PyCertifyResult::message,
                    "The CLI's sentence about the written certificate ('' if none)")
      .def(
          "__bool__", [](const PyCertifyResult& c) { return c.json.at("found").get<bool>(); },
          "Same as found")
      .def("__repr__", &certify_repr);

  module.def("certify", &run_certify_py, py::arg("family"), py::kw_only(),
             py::arg("certificate") = py::none(), py::arg("baseline") = py::none(),
             py::arg("position_dependent") = false, py::arg("incomplete") = 10,
             R"doc(The best rank bound a family file supports; returns a CertifyResult.

The same computation as `kernelrank certify`: the domination steps the family supports, the
rows chosen and the exact trace, shifted-trace or dominance bound for NK models solving the
family. When a bound is found its certificate is verified in memory by the independent
checker's library (always, as the CLI does), so `bound` is the checker's number and
checker_status its status line.
  certificate=PATH    also write the certificate there, atomically
  baseline=PATH       an earlier certificate: list its steps the family no longer supports
  position_dependent  bound position-dependent models (every arrangement of S3 needed)
  incomplete          how many incomplete patterns and lost steps to list (default 10)
found is False (and bound None) when the family supports no bound; why_not says why.

Example:
  >>> c = kernelrank.certify("instances/witness-m24.family")
  >>> c.bound, c.rule
)doc");
}

}  // namespace kernelrank::python
