// kernelrank.bound: the certified rank lower bound of `kernelrank bound` for one m, the same
// pipeline (app/bound_job.hpp run_bound): the certificate written atomically after the
// checker's library verified it in memory, and with r=R the answer about R (ruled out by the
// bound, shown to suffice by a verified layered head, or open), as the app decided it.
#include "bindings.hpp"

#include "kernelrank/app/bound_job.hpp"

#include <climits>

namespace kernelrank::python {
namespace {

struct PyBoundResult {
  int m = 0, n = 3;
  py::object bound;             // int
  std::string source;           // "code", "order", ...
  std::string description;      // one line for people
  py::object construction;      // the code construction when the code bound wins, else None
  py::object rule;              // "trace"/"dominance"/... (the certificate's rule)
  py::object rows;              // rows of the winning code construction, or None
  py::list sources;             // (source, bound, detail, checked) per source that gave a bound
  std::string certificate;      // the checker-verified certificate text
  py::object certificate_path;  // where it was written, or None
  std::string message;          // the sentence the CLI prints about the written certificate
  py::object r, r_ruled_out;    // the r asked about and whether it is ruled out, or None
  py::object answer;            // with r: "ruled_out", "suffices" or "open"; else None
  py::object head_r;            // the best verified layered head's features (int), or None
  py::object head_file;         // its shipped file, or None (found now, or no head)
  std::string model_class;
  bool position_dependent = false;
};

std::string bound_repr(const PyBoundResult& b) {
  return "BoundResult(m=" + std::to_string(b.m) + ", n=" + std::to_string(b.n) +
         ", bound=" + py::str(b.bound).cast<std::string>() +
         ", source=" + py::repr(py::str(b.source)).cast<std::string>() +
         ", construction=" + py::repr(b.construction).cast<std::string>() + ")";
}

// Every argument arrives as given and is converted by its keyword (bindings.hpp); the ranges
// (effort, class, m, n) are the request's, checked by app/bound_job.cpp as for the CLI.
PyBoundResult run_bound_py(const py::object& m, const py::object& n, const py::object& r,
                           const py::object& code, const py::object& position_dependent,
                           const py::object& model_class, const py::object& mode,
                           const py::object& certificate, const py::object& seed,
                           const py::object& effort, const py::object& subset) {
  BoundRequest request;
  request.m = int_arg<int>(m, "m");
  request.n = int_arg<int>(n, "n");
  request.r = optional_int_arg(r, "r", 0LL, LLONG_MAX);
  if (!code.is_none()) request.code = path_argument(code, "code");
  request.position_dependent = bool_arg(position_dependent, "position_dependent");
  request.model_class = str_arg(model_class, "model_class");
  request.mode = str_arg(mode, "mode");
  if (!certificate.is_none()) request.cert = path_argument(certificate, "certificate");
  request.seed = int_arg<std::uint64_t>(seed, "seed");
  request.effort = int_arg<long long>(effort, "effort");
  request.subset = bool_arg(subset, "subset");
  BoundReport report;
  {
    py::gil_scoped_release release;
    report = run_bound(request);
  }
  PyBoundResult result;
  result.m = report.m;
  result.n = report.n;
  result.bound = to_python_int(report.bound());
  result.source = to_string(report.sourced.best.source);
  result.description = report.sourced.best.description;
  result.certificate = report.sourced.best.certificate.text();
  result.model_class = report.model_class;
  result.position_dependent = report.position_dependent;
  const bool code_wins = report.code_wins();
  result.construction = code_wins ? py::object(py::str(report.sourced.code->best.construction))
                                  : py::object(py::none());
  result.rows =
      code_wins ? py::object(py::int_(report.sourced.code->bound.rows)) : py::object(py::none());
  result.rule = py::str(report.rule);
  for (const SourcedCandidate& c : report.sourced.candidates)
    result.sources.append(py::make_tuple(to_string(c.source), to_python_int(c.bound), c.description,
                                         candidate_checked(c)));
  result.certificate_path = report.certificate_path.empty()
                                ? py::object(py::none())
                                : py::object(py::str(report.certificate_path));
  result.message = report.certificate_message;
  result.r = result.r_ruled_out = result.answer = result.head_r = result.head_file = py::none();
  if (report.r) {
    const BoundRAnswer& a = *report.r;
    result.r = py::int_(a.r);
    result.r_ruled_out = py::bool_(a.answer == BoundAnswer::RuledOut);
    result.answer = py::str(to_string(a.answer));
    if (a.known) result.head_r = to_python_int(a.known->checked.r);
    if (!a.head_file.empty()) result.head_file = py::str(a.head_file);
  }
  return result;
}

}  // namespace

void register_bound(py::module_& module) {
  py::class_<PyBoundResult>(
      module, "BoundResult",
      "A certified lower bound r >= bound on the feature rank of models solving T(m,n), "
      "as `kernelrank bound` reports it for one m.")
      .def_readonly("m", &PyBoundResult::m, "Token width")
      .def_readonly("n", &PyBoundResult::n, "Sequence length")
      .def_readonly("bound", &PyBoundResult::bound,
                    "The certified bound (int): every model solving T(m,n) has r >= bound")
      .def_readonly("source", &PyBoundResult::source,
                    "Which argument gives it: 'code', 'order', ... (as the CLI prints)")
      .def_readonly("description", &PyBoundResult::description,
                    "One line for people about the winning source")
      .def_readonly("construction", &PyBoundResult::construction,
                    "The code construction (str) when the code bound wins, else None")
      .def_readonly("rule", &PyBoundResult::rule,
                    "The rule of the certificate (as the CLI's JSON 'rule')")
      .def_readonly("rows", &PyBoundResult::rows, "Rows of the winning code construction, or None")
      .def_readonly("sources", &PyBoundResult::sources,
                    "(source, bound, detail, checked) for every source that gave a bound: "
                    "checked is True for the number the checker verified (the winner's), "
                    "False for a producer's claim that was not checked")
      .def_readonly("certificate", &PyBoundResult::certificate,
                    "The certificate text (verified by the checker library)")
      .def_readonly("certificate_path", &PyBoundResult::certificate_path,
                    "Where the certificate was written, or None")
      .def_readonly("message", &PyBoundResult::message,
                    "The CLI's sentence about the written certificate ('' if none)")
      .def_readonly("r", &PyBoundResult::r, "The r asked about (int), or None")
      .def_readonly("r_ruled_out", &PyBoundResult::r_ruled_out, "Whether r < bound (bool), or None")
      .def_readonly("answer", &PyBoundResult::answer,
                    "With r: 'ruled_out' (r < bound), 'suffices' (a verified layered head has "
                    "at most r features) or 'open'; None without r")
      .def_readonly("head_r", &PyBoundResult::head_r,
                    "With r not ruled out: the features of the best verified layered head for "
                    "T(m,3) (int), or None")
      .def_readonly("head_file", &PyBoundResult::head_file,
                    "That head's shipped file (str), or None (found now, or no head)")
      .def_readonly("model_class", &PyBoundResult::model_class, "'NK' or 'PF'")
      .def_readonly("position_dependent", &PyBoundResult::position_dependent,
                    "Bound for position-dependent maps")
      .def("__int__", [](const PyBoundResult& b) { return b.bound; })
      .def("__repr__", &bound_repr);

  module.def(
      "bound", &run_bound_py, py::arg("m"), py::kw_only(), py::arg("n") = 3,
      py::arg("r") = py::none(), py::arg("code") = py::none(),
      py::arg("position_dependent") = false, py::arg("model_class") = "NK",
      py::arg("mode") = "first", py::arg("certificate") = py::none(), py::arg("seed") = 1,
      py::arg("effort") = 1, py::arg("subset") = true,
      R"doc(The best certified lower bound on the feature rank r for T(m,n); returns a BoundResult.

The same computation as `kernelrank bound` for one m: every source (code bound, order
argument, inheritance, linear dependence, one row) is tried, and each candidate
certificate is verified in memory by the independent checker's library before it can win.
  r=R              also answer whether R features are ruled out by the bound (R >= 0;
                   r_ruled_out), suffice or are open (answer): for n=3, mode "first"
                   and no code, R suffices when the best verified layered head (shipped
                   or found now, as upper finds it; a PF head counts for NK) has at most
                   R features (head_r)
  code=PATH        use only this code (own tokens) and its subsets
  model_class      "NK" or "PF"; position_dependent=True bounds position-dependent maps
  certificate=PATH write the certificate there, atomically
  seed, effort     the randomised constructions: the first seed (0..2**64-1) and the seeds
                   per construction (0..1000); subset=False certifies whole codes only
An argument of the wrong type raises TypeError, a value outside its range (or m, n outside
the library's) kernelrank.UsageError, each naming the argument.

Example:
  >>> b = kernelrank.bound(24, certificate="build/bound-m24.cert")
  >>> b.bound, b.source
)doc");
}

}  // namespace kernelrank::python
