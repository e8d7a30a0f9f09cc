// kernelrank.witness, kernelrank.certify and kernelrank.construct: thin calls into the
// application layer (app/witness_job.hpp, app/certify_job.hpp, app/construct_job.hpp), the
// pipelines `kernelrank witness`, `certify` and `construct` run. Certificates leave only
// through the gate there, and every bound reported is the checker's.
#include "bindings.hpp"

#include "kernelrank/app/certify_job.hpp"
#include "kernelrank/app/construct_job.hpp"
#include "kernelrank/app/witness_job.hpp"
#include "kernelrank/core/errors.hpp"

namespace kernelrank::python {
namespace {

constexpr int kMaxWitnessWidth = 65536;  // as `kernelrank witness --m`

// What a family bound says, as the CLI's JSON for witness and certify has it.
struct PyFamilyBound {
  bool found = false;
  py::object bound;      // int, or None without a bound
  py::object rule;       // "trace", "shifted-trace", "dominance", or None
  std::size_t rows = 0;  // rows of the bound
  std::size_t steps_supported = 0, steps_used = 0;
  py::object trace_value;  // Fraction (trace rules), or None
  py::object shift;        // Fraction (shifted trace), or None
  py::list why_not;        // str
  std::size_t incomplete_count = 0;
  py::list incomplete;  // str, the first patterns
};

void fill_family_bound(PyFamilyBound& out, const FamilyBound& bound, std::size_t listed) {
  out.found = bound.found;
  out.bound = out.rule = out.trace_value = out.shift = py::none();
  out.steps_supported = bound.analysis.steps.size();
  for (const std::string& why : bound.why_not) out.why_not.append(why);
  out.incomplete_count = bound.analysis.incomplete.size();
  for (std::size_t i = 0; i < std::min(listed, bound.analysis.incomplete.size()); ++i)
    out.incomplete.append(incomplete_pattern_text(bound.analysis.incomplete[i], true));
  if (!bound.found) return;
  const RankBoundResult& b = bound.bound;
  out.bound = to_python_int(b.bound);
  out.rule = py::str(to_string(b.rule));
  out.rows = bound.rows.size();
  out.steps_used = bound.steps.size();
  if (b.rule != BoundRule::Dominance) out.trace_value = to_fraction(b.trace_value());
  if (b.rule == BoundRule::ShiftedTrace) out.shift = to_fraction(b.shift);
}

template <class Result>
void def_family_bound(py::class_<Result>& cls) {
  cls.def_readonly("found", &Result::found, "Whether the family supports a bound (bool)")
      .def_readonly("bound", &Result::bound,
                    "The certified bound r >= bound (int, the checker's number), or None")
      .def_readonly("rule", &Result::rule, "'trace', 'shifted-trace' or 'dominance', or None")
      .def_readonly("rows", &Result::rows, "Rows of the bound (int)")
      .def_readonly("steps_supported", &Result::steps_supported,
                    "Domination steps the family supports (int)")
      .def_readonly("steps_used", &Result::steps_used, "Steps the rows' chains use (int)")
      .def_readonly("trace_value", &Result::trace_value,
                    "T (or T_W) of the trace rules (Fraction), or None")
      .def_readonly("shift", &Result::shift, "t of W = t J (shifted trace, Fraction), or None")
      .def_readonly("why_not", &Result::why_not, "Why there is no bound (list of str)")
      .def_readonly("incomplete_count", &Result::incomplete_count,
                    "Incomplete patterns in the family (int)")
      .def_readonly("incomplete", &Result::incomplete,
                    "The first incomplete patterns, as the CLI words them (list of str)");
}

py::object optional_path(const std::string& path) {
  return path.empty() ? py::object(py::none()) : py::object(py::str(path));
}

// ---- witness ------------------------------------------------------------------------------

struct PyWitnessResult : PyFamilyBound {
  int m = 0, n = 3;
  std::string construction;  // the winning code
  std::size_t instances = 0, code_rows = 0, rows_left_out = 0;
  py::object family;  // the family file written, or None
  std::string family_text;
  std::string certificate;      // the checker-verified certificate text
  py::object certificate_path;  // where it was written, or None
};

std::string witness_repr(const PyWitnessResult& w) {
  return "WitnessResult(m=" + std::to_string(w.m) + ", n=" + std::to_string(w.n) +
         ", construction=" + py::repr(py::str(w.construction)).cast<std::string>() +
         ", instances=" + std::to_string(w.instances) +
         ", bound=" + py::str(w.bound).cast<std::string>() + ")";
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
  fill_family_bound(result, w.bound, w.bound.analysis.incomplete.size());
  result.m = w.witness.family.m;
  result.n = w.witness.family.n;
  result.construction = w.construction;
  result.instances = w.witness.family.instances.size();
  result.code_rows = w.witness.rows.size();
  result.rows_left_out = w.witness.rows_left_out;
  result.family = optional_path(request.out);
  result.family_text = std::move(w.family_text);
  result.certificate = w.certificate.text();
  result.certificate_path = optional_path(request.certificate);
  return result;
}

void register_witness_function(py::module_& module) {
  py::class_<PyWitnessResult> cls(
      module, "WitnessResult",
      "A witness family, whose solution alone forces the certified bound, and its certificate, "
      "as `kernelrank witness` reports them.");
  def_family_bound(cls);
  cls.def_readonly("m", &PyWitnessResult::m, "Token width of the family")
      .def_readonly("n", &PyWitnessResult::n, "Sequence length")
      .def_readonly("construction", &PyWitnessResult::construction,
                    "The code whose chains the family holds ('lexicode m=12 w=6 d=6', ...)")
      .def_readonly("instances", &PyWitnessResult::instances, "Instances in the family (int)")
      .def_readonly("code_rows", &PyWitnessResult::code_rows, "Code rows the family holds (int)")
      .def_readonly("rows_left_out", &PyWitnessResult::rows_left_out,
                    "Code rows left out by max_instances (int)")
      .def_readonly("family", &PyWitnessResult::family, "The family file written, or None")
      .def_readonly("family_text", &PyWitnessResult::family_text, "The family file's text")
      .def_readonly("certificate", &PyWitnessResult::certificate,
                    "The certificate text (verified by the checker library)")
      .def_readonly("certificate_path", &PyWitnessResult::certificate_path,
                    "Where the certificate was written, or None")
      .def(
          "__int__", [](const PyWitnessResult& w) { return w.bound; }, "Same as bound")
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

// ---- certify ------------------------------------------------------------------------------

struct PyCertifyResult : PyFamilyBound {
  std::string family;
  int m = 0, n = 0;
  std::size_t instances = 0;
  py::object lost_steps;        // list of str, or None without a baseline
  py::object lost_steps_count;  // int, or None
  py::object certificate;       // the checker-verified text, or None without a bound
  py::object certificate_path;  // where it was written, or None
  std::string message;          // the CLI's sentence about the written certificate
};

std::string certify_repr(const PyCertifyResult& c) {
  return "CertifyResult(family=" + py::repr(py::str(c.family)).cast<std::string>() +
         ", instances=" + std::to_string(c.instances) + ", found=" + (c.found ? "True" : "False") +
         ", bound=" + py::str(c.bound).cast<std::string>() + ")";
}

PyCertifyResult run_certify_py(const py::object& family, const py::object& certificate,
                               const py::object& baseline, const py::object& position_dependent,
                               const py::object& incomplete) {
  CertifyRequest request;
  request.family = path_argument(family, "family");
  request.verify = true;  // the certificate text is always returned, the bound the checker's
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
  fill_family_bound(result, c.bound, listed);
  result.family = request.family;
  result.m = c.m;
  result.n = c.n;
  result.instances = c.instances;
  result.lost_steps = result.lost_steps_count = py::none();
  if (c.lost_steps) {
    py::list lines;
    for (std::size_t i = 0; i < std::min(listed, c.lost_steps->size()); ++i)
      lines.append(incomplete_pattern_text((*c.lost_steps)[i], false));
    result.lost_steps = lines;
    result.lost_steps_count = py::int_(c.lost_steps->size());
  }
  result.certificate =
      c.certificate.empty() ? py::object(py::none()) : py::object(py::str(c.certificate.text()));
  result.certificate_path =
      c.certificate.empty() ? py::object(py::none()) : optional_path(request.certificate);
  result.message = c.certificate_message;
  return result;
}

void register_certify_function(py::module_& module) {
  py::class_<PyCertifyResult> cls(
      module, "CertifyResult",
      "The best rank bound an explicit family supports, as `kernelrank certify` reports it.");
  def_family_bound(cls);
  cls.def_readonly("family", &PyCertifyResult::family, "The family file (str)")
      .def_readonly("m", &PyCertifyResult::m, "Token width of the family")
      .def_readonly("n", &PyCertifyResult::n, "Sequence length of the family")
      .def_readonly("instances", &PyCertifyResult::instances, "Instances in the family (int)")
      .def_readonly("lost_steps", &PyCertifyResult::lost_steps,
                    "The first steps of the baseline the family no longer supports (list of "
                    "str), or None without a baseline")
      .def_readonly("lost_steps_count", &PyCertifyResult::lost_steps_count,
                    "How many steps of the baseline are lost (int), or None")
      .def_readonly("certificate", &PyCertifyResult::certificate,
                    "The certificate text (verified by the checker library), or None without "
                    "a bound")
      .def_readonly("certificate_path", &PyCertifyResult::certificate_path,
                    "Where the certificate was written, or None")
      .def_readonly("message", &PyCertifyResult::message,
                    "The CLI's sentence about the written certificate ('' if none)")
      .def(
          "__bool__", [](const PyCertifyResult& c) { return c.found; }, "Same as found")
      .def("__repr__", &certify_repr);

  module.def("certify", &run_certify_py, py::arg("family"), py::kw_only(),
             py::arg("certificate") = py::none(), py::arg("baseline") = py::none(),
             py::arg("position_dependent") = false, py::arg("incomplete") = 10,
             R"doc(The best rank bound a family file supports; returns a CertifyResult.

The same computation as `kernelrank certify`: the domination steps the family supports, the
rows chosen and the exact trace, shifted-trace or dominance bound for NK models solving the
family. When a bound is found its certificate is verified in memory by the independent
checker's library (always; the CLI only when it writes one), so `bound` is the checker's
number.
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

// ---- construct ----------------------------------------------------------------------------

struct PyConstructResult {
  std::string family;
  std::size_t instances = 0, queries = 0, r = 0, candidates = 0;
  std::string activation = "relu";
  py::object slope, diagonal;  // Fraction
  bool solves = false;
  py::object failing;    // int
  py::object max_error;  // Fraction, or None
  py::object worst;      // Instance, or None
  py::list failures;     // Instance
  std::string model_text;
  py::object model_path;  // the file written, or None
};

std::string construct_repr(const PyConstructResult& c) {
  return "ConstructResult(family=" + py::repr(py::str(c.family)).cast<std::string>() +
         ", r=" + std::to_string(c.r) + ", solves=" + (c.solves ? "True" : "False") +
         ", max_error=" + py::str(c.max_error).cast<std::string>() + ")";
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
  result.family = request.family;
  result.instances = c.instances;
  result.queries = result.r = c.head.queries.size();
  result.candidates = c.head.candidates;
  result.slope = to_fraction(c.head.slope);
  result.diagonal = to_fraction(c.head.diagonal);
  result.solves = c.solves();
  result.failing = to_python_int(c.report.failing);
  result.max_error = to_fraction(c.report.max_error);
  result.worst = c.report.worst ? py::cast(to_instance(*c.report.worst)) : py::none();
  result.failures = to_instances(c.report.failures);
  result.model_text = std::move(c.model_text);
  result.model_path = c.written ? optional_path(request.out) : py::object(py::none());
  return result;
}

void register_construct_function(py::module_& module) {
  py::class_<PyConstructResult>(
      module, "ConstructResult",
      "An exact relu head for a family (graded complement detectors), as `kernelrank "
      "construct` reports it.")
      .def_readonly("family", &PyConstructResult::family, "The family file (str)")
      .def_readonly("instances", &PyConstructResult::instances, "Instances in the family (int)")
      .def_readonly("queries", &PyConstructResult::queries, "Distinct queries of the family (int)")
      .def_readonly("r", &PyConstructResult::r, "Features of the head: one per query (int)")
      .def_readonly("activation", &PyConstructResult::activation, "The feature map: 'relu'")
      .def_readonly("slope", &PyConstructResult::slope, "Slope a of the key features (Fraction)")
      .def_readonly("diagonal", &PyConstructResult::diagonal,
                    "Query feature B on the query's own detector (Fraction)")
      .def_readonly("candidates", &PyConstructResult::candidates, "(a, B) pairs evaluated (int)")
      .def_readonly("solves", &PyConstructResult::solves,
                    "Whether the model text, read back, solves the family exactly (bool)")
      .def_readonly("failing", &PyConstructResult::failing, "Failing instances (int)")
      .def_readonly("max_error", &PyConstructResult::max_error,
                    "The exact max error (Fraction), or None")
      .def_readonly("worst", &PyConstructResult::worst, "An Instance attaining max_error, or None")
      .def_readonly("failures", &PyConstructResult::failures,
                    "The first failing instances (list of Instance)")
      .def_readonly("model_text", &PyConstructResult::model_text,
                    "The model file's text (kind=parametric), written or not")
      .def_readonly("model_path", &PyConstructResult::model_path,
                    "Where the model was written (only when it solves), or None")
      .def(
          "__bool__", [](const PyConstructResult& c) { return c.solves; }, "Same as solves")
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

}  // namespace

void register_witness(py::module_& module) {
  register_witness_function(module);
  register_certify_function(module);
  register_construct_function(module);
}

}  // namespace kernelrank::python
