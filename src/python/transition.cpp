// kernelrank.transition: the phase-transition table of `kernelrank transition`
// (app/transition.hpp), and the registration of this front end's transition, transcript and
// train functions.
#include "bindings.hpp"

#include "kernelrank/app/transition.hpp"

namespace kernelrank::python {

void register_transcript_command(py::module_& module);  // transcript.cpp
void register_train_command(py::module_& module);       // train.cpp

namespace {

struct PyTransitionResult {
  int m = 0;
  bool consistent = false;
  py::list small_n;                     // n = 1, 2: dicts n, min_rank, method, max_error, instances
  py::object lower_bound, upper_bound;  // int
  std::string lower_source, lower_detail, lower_checker_status;
  py::object product_max_error;  // Fraction
  std::string product_method;
  py::object rank1_failure;                    // Instance: rank 1 failing on T(m,3)
  py::object softmax_base, softmax_max_error;  // int and Fraction, or None
  py::object certificate, certificate_path;    // str or None
  std::string message;
};

std::string transition_repr(const PyTransitionResult& t) {
  return "TransitionResult(m=" + std::to_string(t.m) +
         ", lower_bound=" + py::str(t.lower_bound).cast<std::string>() +
         ", upper_bound=" + py::str(t.upper_bound).cast<std::string>() +
         ", softmax_base=" + py::str(t.softmax_base).cast<std::string>() +
         ", consistent=" + (t.consistent ? "True" : "False") + ")";
}

PyTransitionResult to_python(const TransitionResult& t, const std::string& path) {
  PyTransitionResult result;
  result.m = t.m;
  result.consistent = t.consistent;
  for (std::size_t i = 0; i < t.rank1.size(); ++i) {
    py::dict row;
    row["n"] = static_cast<int>(i) + 1;
    row["min_rank"] = 1;
    row["method"] = t.rank1[i].method;
    row["max_error"] = to_fraction(t.rank1[i].max_error);
    row["instances"] = to_python_int(t.rank1[i].instances);
    result.small_n.append(row);
  }
  const SourcedCandidate& lower = t.lower.best;
  result.lower_bound = to_python_int(lower.certificate.bound());
  result.lower_source = to_string(lower.source);
  result.lower_detail = lower.description;
  result.lower_checker_status = lower.certificate.checker_status();
  result.upper_bound = to_python_int(t.upper);
  result.product_max_error = to_fraction(t.product.max_error);
  result.product_method = t.product_brute_force ? "brute force" : "profiles of its kernel";
  result.rank1_failure = t.rank1_at_3.failures.empty()
                             ? py::object(py::none())
                             : py::cast(to_instance(t.rank1_at_3.failures.front()));
  const SoftmaxBaseResult& softmax = t.softmax;
  result.softmax_base = softmax.base ? py::object(py::int_(*softmax.base)) : py::none();
  result.softmax_max_error =
      softmax.base ? to_fraction(softmax.report.max_error) : py::object(py::none());
  const bool written = !t.certificate_message.empty();
  result.certificate = written ? py::object(py::str(lower.certificate.text())) : py::none();
  result.certificate_path = written ? py::object(py::str(path)) : py::none();
  result.message = t.certificate_message;
  return result;
}

PyTransitionResult run_transition_call(const py::object& m, const py::object& certificate) {
  TransitionRequest request;
  request.m = int_arg<int>(m, "m");
  if (!certificate.is_none()) request.certificate = path_argument(certificate, "certificate");
  TransitionResult result;
  {
    py::gil_scoped_release release;
    result = run_transition(request);
  }
  return to_python(result, request.certificate);
}

void register_transition(py::module_& module) {
  py::class_<PyTransitionResult>(
      module, "TransitionResult",
      "The phase transition of Min-IP at width m, as `kernelrank transition` reports it.")
      .def_readonly("m", &PyTransitionResult::m, "Token width")
      .def_readonly("consistent", &PyTransitionResult::consistent,
                    "Every step came out as theory.md predicts (bool)")
      .def_readonly("small_n", &PyTransitionResult::small_n,
                    "n = 1 and 2: dicts n, min_rank (1), method, max_error (Fraction, 0), "
                    "instances (int) of the rank1-mean model")
      .def_readonly("lower_bound", &PyTransitionResult::lower_bound,
                    "n = 3: the certified lower bound on r (int), the one kernelrank.bound(m) "
                    "gives, verified by the checker's library")
      .def_readonly("lower_source", &PyTransitionResult::lower_source,
                    "The source that gives it ('code', 'order', 'dependence', ...)")
      .def_readonly("lower_detail", &PyTransitionResult::lower_detail,
                    "One line about that source's argument")
      .def_readonly("lower_checker_status", &PyTransitionResult::lower_checker_status,
                    "The checker's status line on its certificate ('s VERIFIED')")
      .def_readonly("upper_bound", &PyTransitionResult::upper_bound,
                    "n = 3: the best verified layered head's features, else 2**m (int)")
      .def_readonly("product_max_error", &PyTransitionResult::product_max_error,
                    "The product realisation's max error on T(m,3) (Fraction)")
      .def_readonly("product_method", &PyTransitionResult::product_method,
                    "'brute force' or 'profiles of its kernel'")
      .def_readonly("rank1_failure", &PyTransitionResult::rank1_failure,
                    "An instance of T(m,3) that rank 1 fails (Instance)")
      .def_readonly("softmax_base", &PyTransitionResult::softmax_base,
                    "The smallest integer base for which dense softmax solves T(m,3), or None")
      .def_readonly("softmax_max_error", &PyTransitionResult::softmax_max_error,
                    "Its max error (Fraction), or None")
      .def_readonly("certificate", &PyTransitionResult::certificate,
                    "The n = 3 lower bound's certificate text when written, else None")
      .def_readonly("certificate_path", &PyTransitionResult::certificate_path,
                    "Where it was written, or None")
      .def_readonly("message", &PyTransitionResult::message,
                    "The CLI's sentence about the written certificate ('' if none)")
      .def("__bool__", [](const PyTransitionResult& t) { return t.consistent; })
      .def("__repr__", &transition_repr);

  module.def("transition", &run_transition_call, py::arg("m") = 24, py::kw_only(),
             py::arg("certificate") = py::none(),
             R"doc(The phase transition of Min-IP at width m; returns a TransitionResult.

The table of `kernelrank transition`: rank 1 is exact at n = 1, 2 (L1); at n = 3 the
certified lower bound (the one kernelrank.bound(m) gives, checked in memory by the checker's
library) <= r <= the best verified head (else 2**m, the product realisation, L6), rank 1
fails, and the smallest integer base of dense softmax (L5).
  m                 token width, 2..4096
  certificate=PATH  write the certificate of the n = 3 lower bound there (always verified
                    by the checker's library first; the bound reported is the checker's)
An argument of the wrong type raises TypeError, a value outside its range
kernelrank.UsageError, each naming the argument.

Example:
  >>> t = kernelrank.transition(6)
  >>> t.lower_bound, t.upper_bound, t.softmax_base
)doc");
}

}  // namespace

void register_train_commands(py::module_& module) {
  register_transition(module);
  register_transcript_command(module);
  register_train_command(module);
}

}  // namespace kernelrank::python
