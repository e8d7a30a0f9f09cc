// kernelrank.upper: the cheapest layered head for T(m,3) by exact LPs, verified by the exact
// evaluator and the checker's library in memory (app/upper_job.hpp, which `kernelrank upper`
// runs too: src/cli/cmd_upper.cpp), with the head's exact values as Python objects.
#include "bindings.hpp"

#include "kernelrank/app/upper_job.hpp"
#include "kernelrank/bounds/layered_search.hpp"
#include "kernelrank/core/progress.hpp"

#include <unistd.h>

#include <iostream>

namespace kernelrank::python {
namespace {

constexpr std::size_t kMaxLpBudget = 1000000;  // as `kernelrank upper --lp-budget`

struct PyUpperResult {
  int m = 0;
  std::string model_class;
  py::object r;           // int, or None when no head was found
  py::list layers;        // int
  py::list coefficients;  // Fraction
  py::object max_error;   // Fraction, or None
  py::object margin;      // Fraction, or None
  bool optimal = false;
  bool verified = false;  // a head was found: the exact evaluator and the checker verified it
  std::size_t lps = 0, refuted = 0;
  py::object file;  // str or None
  double seconds = 0;
  std::string message;
};

std::string upper_repr(const PyUpperResult& u) {
  return "UpperResult(m=" + std::to_string(u.m) +
         ", model_class=" + py::repr(py::str(u.model_class)).cast<std::string>() +
         ", r=" + py::str(u.r).cast<std::string>() +
         ", layers=" + py::repr(u.layers).cast<std::string>() +
         ", optimal=" + (u.optimal ? "True" : "False") + ")";
}

PyUpperResult to_python(const UpperResult& u) {
  PyUpperResult result;
  result.m = u.m;
  result.model_class = to_string(u.model_class);
  result.optimal = u.optimal;
  result.lps = u.lps;
  result.refuted = u.refuted;
  result.seconds = u.seconds;
  result.message = u.message;
  result.file = u.file.empty() ? py::object(py::none()) : py::object(py::str(u.file));
  if (!u.head) {
    result.r = py::none();
    result.max_error = py::none();
    result.margin = py::none();
    return result;
  }
  for (std::size_t i = 0; i < u.head->layers.size(); ++i) {
    result.layers.append(py::int_(u.head->layers[i]));
    result.coefficients.append(to_fraction(u.head->coefficients[i]));
  }
  result.r = to_python_int(u.r);
  result.max_error = to_fraction(u.max_error);
  result.margin = to_fraction(u.margin);
  result.verified = true;  // run_upper's check_layered_head ran the exact evaluator and the checker
  return result;
}

// Every argument arrives as given and is converted by its keyword (bindings.hpp), with the
// CLI's ranges; m is checked by the library, as for the CLI.
PyUpperResult run_upper_call(const py::object& m, const py::object& model_class_arg,
                             const py::object& out, const py::object& lp_budget) {
  UpperRequest request;
  request.m = int_arg<int>(m, "m");
  const std::string model_class = str_arg(model_class_arg, "model_class");
  const std::optional<ModelClass> parsed = parse_model_class(model_class);
  if (!parsed || *parsed == ModelClass::Signed)
    raise_usage("model_class must be PF or NK, not '" + model_class + "'");
  request.model_class = *parsed;
  if (!out.is_none()) request.out = path_argument(out, "out");
  request.lp_budget = int_arg<std::size_t>(lp_budget, "lp_budget", 1, kMaxLpBudget);
  // One line per LP on stderr, as the CLI shows them: only on a terminal, and not after
  // set_progress(False). The callback writes to C++'s stderr and never touches Python.
  const bool show = Progress::allowed() && isatty(STDERR_FILENO) == 1;
  if (show)
    request.progress = [](const std::string& line) { std::cerr << "\r" << line << "\033[K"; };
  UpperResult result;
  {
    py::gil_scoped_release release;
    result = run_upper(request);
    if (show) std::cerr << "\r\033[K" << std::flush;
  }
  return to_python(result);
}

}  // namespace

void register_upper(py::module_& module) {
  py::class_<PyUpperResult>(
      module, "UpperResult",
      "The cheapest layered head for T(m,3) the exact layer-set search found, verified by the "
      "exact evaluator and the checker's library, as `kernelrank upper` reports it: r features "
      "suffice.")
      .def_readonly("m", &PyUpperResult::m, "Token width")
      .def_readonly("model_class", &PyUpperResult::model_class, "'PF' or 'NK'")
      .def_readonly("r", &PyUpperResult::r,
                    "The head's features (int, exact: the checker's r <= N), or None when no "
                    "layer set was found within the LP budget")
      .def_readonly("layers", &PyUpperResult::layers,
                    "The layer set J, increasing from 0 (list of int; [] without a head)")
      .def_readonly("coefficients", &PyUpperResult::coefficients,
                    "c_j of K(u) = sum_j c_j C(u, j), one per layer (list of Fraction)")
      .def_readonly("max_error", &PyUpperResult::max_error,
                    "The exact max error over every profile of T(m,3) (Fraction, < 1/2), or None")
      .def_readonly("margin", &PyUpperResult::margin,
                    "The LP's optimum t (Fraction; PF normalised K(m) = 1, NK K(0) = 1), or None")
      .def_readonly("optimal", &PyUpperResult::optimal,
                    "Every cheaper layer set was refuted by an exact LP (bool)")
      .def_readonly("verified", &PyUpperResult::verified,
                    "The head was verified by the exact evaluator and the checker's library "
                    "(bool; False without a head)")
      .def_readonly("lps", &PyUpperResult::lps, "Exact LPs solved (int)")
      .def_readonly("refuted", &PyUpperResult::refuted, "Layer sets refuted (int)")
      .def_readonly("file", &PyUpperResult::file, "Where the head was written, or None")
      .def_readonly("seconds", &PyUpperResult::seconds, "Wall-clock time, for display")
      .def_readonly("message", &PyUpperResult::message,
                    "The CLI's sentence about the written head ('' if none)")
      .def("__bool__", [](const PyUpperResult& u) { return !u.r.is_none(); })
      .def("__repr__", &upper_repr);

  module.def("upper", &run_upper_call, py::arg("m"), py::kw_only(), py::arg("model_class") = "PF",
             py::arg("out") = py::none(), py::arg("lp_budget") = 2000,
             R"doc(The cheapest layered head for T(m,3) by exact LPs; returns an UpperResult.

The search of `kernelrank upper`: layer sets J are tried cheapest first, each decided by an
exact LP; the head found is checked by the exact evaluator over every profile of T(m,3)
and by the checker's library in memory before it is returned or written, so r features
suffice. The result is true when a head was found.
  m              token width, 1..128
  model_class    "PF" (every c_j >= 0) or "NK" (K(u) >= 0): an NK head may be cheaper
  out=PATH       write the head there (a kind=layered model file), atomically
  lp_budget      exact LPs the search may solve (1..1000000); optimal says whether every
                 cheaper layer set was refuted within it
An argument of the wrong type raises TypeError, a value outside its range (or m outside
the library's) kernelrank.UsageError, each naming the argument.

Example:
  >>> u = kernelrank.upper(8)
  >>> u.r, u.layers, u.max_error
)doc");
}

}  // namespace kernelrank::python
