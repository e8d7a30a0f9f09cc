// kernelrank.witness: the request of app/witness_job.hpp (the pipeline `kernelrank witness`
// runs), run with the GIL released; its result's fields are read from the JSON form the CLI
// prints (app/result_json.hpp). The certificate leaves only through the gate, and the bound
// reported is the checker's.
#include "bindings.hpp"

#include "kernelrank/app/result_json.hpp"
#include "kernelrank/app/witness_job.hpp"
#include "kernelrank/core/errors.hpp"

#include <nlohmann/json.hpp>

namespace kernelrank::python {
namespace {

constexpr int kMaxWitnessWidth = 65536;  // as `kernelrank witness --m`

struct PyWitnessResult {
  nlohmann::json json;  // witness_json
  std::string family_text;
  std::string certificate;  // the checker-verified certificate text
};

std::string witness_repr(const PyWitnessResult& w) {
  return "WitnessResult(m=" + w.json.at("m").dump() + ", n=" + w.json.at("n").dump() +
         ", construction=" +
         py::repr(py::str(w.json.at("construction").get<std::string>())).cast<std::string>() +
         ", instances=" + w.json.at("instances").dump() +
         ", bound=" + w.json.value("bound", std::string("None")) + ")";
}

PyWitnessResult run_witness_py(const py::object& m, const py::object& n, const py::object& code,
                               const py::object& golay, const py::object& mode,
                               const py::object& position_dependent,
                               const py::object& max_instances, const py::object& out,
                               const py::object& certificate) {
  WitnessRequest request;
  request.m = int_arg<int>(m, "m", 1, kMaxWitnessWidth);
  request.n = int_arg<int>(n, "n");
  if (!code.is_none() && !golay.is_none()) raise_usage("code= excludes golay=");
  if (!code.is_none()) request.code = path_argument(code, "code");
  request.golay = optional_str_arg(golay, "golay").value_or("");
  request.mode = parse_query_mode(str_arg(mode, "mode"));
  request.position_dependent = bool_arg(position_dependent, "position_dependent");
  request.max_instances = int_arg<std::size_t>(max_instances, "max_instances");
  if (!out.is_none()) request.out = path_argument(out, "out");
  if (!certificate.is_none()) request.certificate = path_argument(certificate, "certificate");
  WitnessOutcome w;
  {
    py::gil_scoped_release release;
    w = run_witness(request);
  }
  PyWitnessResult result;
  result.json = witness_json(request, w, w.bound.analysis.incomplete.size());
  result.family_text = std::move(w.family_text);
  result.certificate = w.certificate.text();
  return result;
}

}  // namespace

void register_witness(py::module_& module) {
  py::class_<PyWitnessResult> cls(
      module, "WitnessResult",
      "A witness family, whose solution alone forces the certified bound, and its certificate, "
      "as `kernelrank witness` reports them.");
  def_family_bound(cls);
  def_json_field(cls, "m", "/m", JsonKind::Plain, "Token width of the family");
  def_json_field(cls, "n", "/n", JsonKind::Plain, "Sequence length");
  def_json_field(cls, "construction", "/construction", JsonKind::Plain,
                 "The code whose chains the family holds ('lexicode m=12 w=6 d=6', ...)");
  def_json_field(cls, "instances", "/instances", JsonKind::Plain, "Instances in the family (int)");
  def_json_field(cls, "code_rows", "/code_rows", JsonKind::Plain,
                 "Code rows the family holds (int)");
  def_json_field(cls, "rows_left_out", "/rows_left_out", JsonKind::Plain,
                 "Code rows left out by max_instances (int)");
  def_json_field(cls, "family", "/family", JsonKind::Plain, "The family file written, or None");
  def_json_field(cls, "certificate_path", "/certificate", JsonKind::Plain,
                 "Where the certificate was written, or None");
  cls.def_readonly("family_text", &PyWitnessResult::family_text, "The family file's text")
      .def_readonly("certificate", &PyWitnessResult::certificate,
                    "The certificate text (verified by the checker library)")
      .def(
          "__int__",
          [](const PyWitnessResult& w) { return json_field(w.json, "/bound", JsonKind::Int); },
          "Same as bound")
      .def("__repr__", &witness_repr);

  module.def("witness", &run_witness_py, py::arg("m") = 24, py::kw_only(), py::arg("n") = 3,
             py::arg("code") = py::none(), py::arg("golay") = py::none(), py::arg("mode") = "first",
             py::arg("position_dependent") = false, py::arg("max_instances") = 3000,
             py::arg("out") = py::none(), py::arg("certificate") = py::none(),
             R"doc(A witness family for T(m,n) and its certificate; returns a WitnessResult.

The same computation as `kernelrank witness`: the instances along amplification chains of a
code whose solution alone forces the certified bound. The best of the constructions tried
wins: code=PATH (its words are the tokens), golay="octads" or "dodecads", or by default
lexicodes of weight m/2 (m in 1..65536; at m=24 this can take minutes, progress on stderr
as set_progress allows). The certificate is verified in memory by the independent checker's
library before anything is written; `bound` is the checker's number.
  mode                "first" or "last": the query position
  position_dependent  include every arrangement of S3's keys
  max_instances       the largest family to build
  out=PATH            write the family file there (else only family_text)
  certificate=PATH    write the certificate there (else only the text)
An argument of the wrong type raises TypeError, a bad value kernelrank.UsageError, each
naming the argument.

Example:
  >>> w = kernelrank.witness(12, out="w12.family", certificate="w12.cert")
  >>> w.bound, w.instances
)doc");
}

}  // namespace kernelrank::python
