// kernelrank.search: one rank-search cell, the pipeline of app/search_job.hpp that the CLI's
// search runs too, with the verdict, its label and the model found as Python objects.
#include "bindings.hpp"
#include "search_budget.hpp"

#include "kernelrank/app/search_job.hpp"
#include "kernelrank/core/progress.hpp"
#include "kernelrank/search/solver_side.hpp"

#include <unistd.h>

namespace kernelrank::python {
namespace {

// The model found and verified exactly (the CLI's JSON "model", its evaluation flattened).
struct PySearchModel {
  std::string source, class_check, method;
  py::object kernel_rank, instances, failing, undefined;  // int
  py::object max_error, error_rate;                       // Fraction (max_error: or None)
  bool solves = false;
  py::object worst;   // Instance or None
  py::list failures;  // Instance
  std::string format;
  py::object text, features_text;  // str, or None when not asked for
  py::object file, features_file;  // paths written, or None
};

struct PySearchResult {
  std::string task, model_class, verdict, label, detail, status, solver_status;
  int m = 0, n = 3, r = 0;
  py::object row_instances;  // int
  bool found = false, refuted = false, certified = false, resource_limited = false;
  double seconds = 0;
  std::string z3_version, solver, cvc5_version;
  py::object order_argument;  // dict (the CLI's JSON "order_argument") or None
  py::object bound, bound_construction, bound_rows;  // the rank-bound certificate, or None
  py::object certificate_rule, certificate;          // its rule and checker-verified text, or None
  py::object certificate_path;                       // where it was written, or None
  std::string certificate_message;
  py::list z3;           // dicts, as the CLI's JSON "z3"
  py::object heuristic;  // dict or None
  py::object model;      // SearchModel or None
};

std::string search_repr(const PySearchResult& s) {
  return "SearchResult(task=" + py::repr(py::str(s.task)).cast<std::string>() +
         ", r=" + std::to_string(s.r) +
         ", model_class=" + py::repr(py::str(s.model_class)).cast<std::string>() +
         ", label=" + py::repr(py::str(s.label)).cast<std::string>() +
         ", status=" + py::repr(py::str(s.status)).cast<std::string>() + ")";
}

std::string path_or_empty(const py::object& value, const char* name) {
  return value.is_none() ? std::string() : path_argument(value, name);
}

PySearchModel model_result(const SearchJob& job, const SearchRequest& request) {
  const ModelCheck& check = *job.result.check;
  const EvalReport& report = check.report;
  PySearchModel model;
  model.source = job.result.model_source;
  model.class_check = check.class_detail;
  model.kernel_rank = py::int_(check.kernel_rank);
  model.method = report.method;
  model.instances = to_python_int(report.instances);
  model.failing = to_python_int(report.failing);
  model.undefined = to_python_int(report.undefined);
  model.max_error = to_fraction(report.max_error);
  model.error_rate = to_fraction(report.error_rate());
  model.solves = report.solves();
  model.worst = report.worst ? py::cast(to_instance(*report.worst)) : py::none();
  model.failures = to_instances(report.failures);
  model.format = request.format;
  model.text = py::str(job.model_text);
  model.features_text = py::str(job.features_text);
  model.file = job.model_written ? py::object(py::str(request.out)) : py::object(py::none());
  model.features_file =
      job.features_written ? py::object(py::str(request.features)) : py::object(py::none());
  return model;
}

PySearchResult to_result(const SearchJob& job, const SearchRequest& request) {
  const SearchResult& result = job.result;
  PySearchResult out;
  out.task = job.task.description;
  out.m = job.task.m;
  out.n = job.task.n;
  out.r = job.r;
  out.model_class = to_string(job.search_class);
  out.row_instances = py::int_(job.task.instances.size());
  out.verdict = to_string(result.verdict);
  out.label = result.label;
  out.detail = result.detail;
  out.status = to_string(job.status);
  out.found = result.verdict == SearchVerdict::Found;
  out.refuted = result.verdict == SearchVerdict::Refuted;
  out.certified = result.certificate_text.has_value();
  out.resource_limited = result.resource_limited;
  out.solver_status = result.solver_status;
  out.seconds = result.seconds;
  out.z3_version = result.z3_version;
  out.solver = to_string(job.solver);
  out.cvc5_version = result.cvc5_version;
  out.order_argument =
      result.order ? json_to_python(order_argument_json(*result.order, job.task)) : py::none();
  const bool has_bound = result.certificate.has_value();
  out.bound = has_bound ? to_python_int(result.certificate->bound) : py::none();
  out.bound_construction =
      has_bound ? py::object(py::str(result.certificate->construction)) : py::none();
  out.bound_rows = has_bound ? py::object(py::int_(result.certificate->rows.size())) : py::none();
  out.certificate_rule =
      out.certified ? py::object(py::str(result.certificate_rule)) : py::object(py::none());
  out.certificate =
      out.certified ? py::object(py::str(result.certificate_text->text())) : py::object(py::none());
  out.certificate_path = job.certificate_written ? py::object(py::str(request.certificate_path))
                                                 : py::object(py::none());
  out.certificate_message = job.certificate_message;
  for (const Z3Attempt& a : result.z3) out.z3.append(json_to_python(detail::attempt_to_json(a)));
  out.heuristic = result.heuristic_ran ? json_to_python(detail::heuristic_to_json(result.heuristic))
                                       : py::none();
  out.model = result.model ? py::cast(model_result(job, request)) : py::none();
  return out;
}

// The arguments, converted by keyword (bindings.hpp) with the CLI's ranges.
struct SearchArgs {
  py::object m, r, n, model_class, family, mode, rlimit, timeout, memory, out, format, features,
      certificate, save_smt2, solver, seed, restarts, iterations, max_rounds, plain, no_exact,
      no_heuristic, no_z3, no_lemmas, no_symmetry, no_isolate, cross_check_seconds, heuristic_share,
      no_cross_check, no_certificate, verbose;
};

SearchRequest search_request(const SearchArgs& a) {
  SearchRequest request;
  request.m = optional_int_arg<int>(a.m, "m", 1, 8);
  request.r = optional_int_arg<int>(a.r, "r");
  request.n = int_arg<int>(a.n, "n");
  request.model_class = str_arg(a.model_class, "model_class");
  request.family = path_or_empty(a.family, "family");
  request.mode = str_arg(a.mode, "mode");
  request.budget =
      search_budget_arg({a.rlimit, a.timeout, a.memory, a.save_smt2, a.seed, a.restarts,
                         a.iterations, a.cross_check_seconds, a.heuristic_share, a.no_cross_check});
  request.solver = str_arg(a.solver, "solver");
  request.max_rounds = int_arg<int>(a.max_rounds, "max_rounds");
  request.plain = bool_arg(a.plain, "plain");
  request.exact = !bool_arg(a.no_exact, "no_exact");
  request.heuristic = !bool_arg(a.no_heuristic, "no_heuristic");
  request.z3 = !bool_arg(a.no_z3, "no_z3");
  request.lemmas = !bool_arg(a.no_lemmas, "no_lemmas");
  request.symmetry = !bool_arg(a.no_symmetry, "no_symmetry");
  request.isolate = !bool_arg(a.no_isolate, "no_isolate");
  request.certificate = !bool_arg(a.no_certificate, "no_certificate");
  request.out = path_or_empty(a.out, "out");
  request.format = str_arg(a.format, "format");
  request.features = path_or_empty(a.features, "features");
  request.certificate_path = path_or_empty(a.certificate, "certificate");
  request.model_texts = true;
  const bool verbose = bool_arg(a.verbose, "verbose");
  if (Progress::allowed() && (verbose || isatty(STDERR_FILENO) == 1))
    request.log = search_log_to_stderr("  ");
  return request;
}

PySearchResult run_search(const SearchArgs& args) {
  const SearchRequest request = search_request(args);
  SearchJob job;
  {
    py::gil_scoped_release release;
    job = run_search_job(request);
  }
  return to_result(job, request);
}

void register_search_model(py::module_& module) {
  py::class_<PySearchModel>(module, "SearchModel",
                            "The model a search found, re-verified exactly on the original task "
                            "(the CLI's JSON 'model', its evaluation flattened).")
      .def_readonly("source", &PySearchModel::source, "Where the model came from")
      .def_readonly("kernel_rank", &PySearchModel::kernel_rank,
                    "Exact rank of its kernel table (int)")
      .def_readonly("class_check", &PySearchModel::class_check, "The class check, as printed")
      .def_readonly("solves", &PySearchModel::solves, "Whether it solves the task (exactly)")
      .def_readonly("method", &PySearchModel::method, "Evaluation method ('brute force', ...)")
      .def_readonly("instances", &PySearchModel::instances, "Instances evaluated (int)")
      .def_readonly("failing", &PySearchModel::failing, "Failing instances (int)")
      .def_readonly("undefined", &PySearchModel::undefined, "Zero-denominator instances (int)")
      .def_readonly("max_error", &PySearchModel::max_error, "Exact max error (Fraction) or None")
      .def_readonly("error_rate", &PySearchModel::error_rate, "failing / instances (Fraction)")
      .def_readonly("worst", &PySearchModel::worst, "An instance at the max error, or None")
      .def_readonly("failures", &PySearchModel::failures, "The first failing instances")
      .def_readonly("format", &PySearchModel::format, "Format of text: 'text' or 'json'")
      .def_readonly("text", &PySearchModel::text,
                    "The tabular model file's contents (what out= writes)")
      .def_readonly("features_text", &PySearchModel::features_text,
                    "The model in feature form (what features= writes)")
      .def_readonly("file", &PySearchModel::file, "Where the tabular model was written, or None")
      .def_readonly("features_file", &PySearchModel::features_file,
                    "Where the feature form was written, or None")
      .def("__repr__", [](const PySearchModel& m) {
        return "SearchModel(kernel_rank=" + py::str(m.kernel_rank).cast<std::string>() +
               ", solves=" + (m.solves ? "True" : "False") +
               ", max_error=" + py::repr(m.max_error).cast<std::string>() + ")";
      });
}

void register_search_result(py::module_& module) {
  py::class_<PySearchResult>(module, "SearchResult",
                             "One search cell (task, r, class) as `kernelrank search` reports "
                             "it: the verdict, its honest label, the model found.")
      .def_readonly("task", &PySearchResult::task, "The task, described")
      .def_readonly("m", &PySearchResult::m, "Token width")
      .def_readonly("n", &PySearchResult::n, "Sequence length")
      .def_readonly("r", &PySearchResult::r, "Features asked for")
      .def_readonly("model_class", &PySearchResult::model_class, "'NK' or 'PF'")
      .def_readonly("row_instances", &PySearchResult::row_instances, "Deduplicated row instances")
      .def_readonly("verdict", &PySearchResult::verdict, "'found', 'refuted' or 'unknown'")
      .def_readonly("label", &PySearchResult::label,
                    "The label the CLI prints: 'found and verified', 'refuted (certified)', "
                    "'refuted (Z3 only)', ...")
      .def_readonly("detail", &PySearchResult::detail, "Why, in a sentence or two")
      .def_readonly("status", &PySearchResult::status,
                    "The label as a min-rank cell status: 'refuted-certified', "
                    "'refuted-Z3-only', ...")
      .def_readonly("found", &PySearchResult::found, "A model was found and verified exactly")
      .def_readonly("refuted", &PySearchResult::refuted, "r is refuted (see label: by what)")
      .def_readonly("certified", &PySearchResult::certified,
                    "The refutation has a certificate the checker verified")
      .def_readonly("resource_limited", &PySearchResult::resource_limited,
                    "Unknown because a time, memory or rlimit budget ran out")
      .def_readonly("solver_status", &PySearchResult::solver_status, "How the search process ended")
      .def_readonly("seconds", &PySearchResult::seconds, "Wall-clock seconds")
      .def_readonly("z3_version", &PySearchResult::z3_version, "The linked Z3")
      .def_readonly("solver", &PySearchResult::solver, "'z3', 'cvc5' or 'both'")
      .def_readonly("cvc5_version", &PySearchResult::cvc5_version, "cvc5's version when it ran")
      .def_readonly("order_argument", &PySearchResult::order_argument,
                    "The order argument (dict, as the CLI's JSON), or None")
      .def_readonly("bound", &PySearchResult::bound, "A certified rank bound r >= bound, or None")
      .def_readonly("bound_construction", &PySearchResult::bound_construction,
                    "Its code construction, or None")
      .def_readonly("bound_rows", &PySearchResult::bound_rows, "Its rows (int), or None")
      .def_readonly("certificate_rule", &PySearchResult::certificate_rule,
                    "Rule of the certificate refuting r, or None")
      .def_readonly("certificate", &PySearchResult::certificate,
                    "The checker-verified certificate text refuting r, or None")
      .def_readonly("certificate_path", &PySearchResult::certificate_path,
                    "Where it was written, or None")
      .def_readonly("certificate_message", &PySearchResult::certificate_message,
                    "The CLI's sentence about the written certificate ('' if none)")
      .def_readonly("z3", &PySearchResult::z3, "The SMT attempts (dicts, as the CLI's JSON)")
      .def_readonly("heuristic", &PySearchResult::heuristic,
                    "The proposal search (dict: restarts, best_max_error_double, accepted) "
                    "or None")
      .def_readonly("model", &PySearchResult::model, "The SearchModel found, or None")
      .def(
          "__bool__", [](const PySearchResult& s) { return s.found; },
          "True when a model was found")
      .def("__repr__", &search_repr);
}

// Every argument as given, converted by its keyword (bindings.hpp).
PySearchResult py_search(
    const py::object& m, const py::object& r, const py::object& n, const py::object& model_class,
    const py::object& family, const py::object& mode, const py::object& rlimit,
    const py::object& timeout, const py::object& memory, const py::object& out,
    const py::object& format, const py::object& features, const py::object& certificate,
    const py::object& save_smt2, const py::object& solver, const py::object& seed,
    const py::object& restarts, const py::object& iterations, const py::object& max_rounds,
    const py::object& plain, const py::object& no_exact, const py::object& no_heuristic,
    const py::object& no_z3, const py::object& no_lemmas, const py::object& no_symmetry,
    const py::object& no_isolate, const py::object& cross_check_seconds,
    const py::object& heuristic_share, const py::object& no_cross_check,
    const py::object& no_certificate, const py::object& verbose) {
  return run_search({m,
                     r,
                     n,
                     model_class,
                     family,
                     mode,
                     rlimit,
                     timeout,
                     memory,
                     out,
                     format,
                     features,
                     certificate,
                     save_smt2,
                     solver,
                     seed,
                     restarts,
                     iterations,
                     max_rounds,
                     plain,
                     no_exact,
                     no_heuristic,
                     no_z3,
                     no_lemmas,
                     no_symmetry,
                     no_isolate,
                     cross_check_seconds,
                     heuristic_share,
                     no_cross_check,
                     no_certificate,
                     verbose});
}

}  // namespace

void register_search(py::module_& module) {
  register_search_model(module);
  register_search_result(module);
  module.def("search", &py_search, py::arg("m") = py::none(), py::arg("r") = py::none(),
             py::kw_only(), py::arg("n") = 3, py::arg("model_class") = "NK",
             py::arg("family") = py::none(), py::arg("mode") = "first", py::arg("rlimit") = 0,
             py::arg("timeout") = 60, py::arg("memory") = 8192, py::arg("out") = py::none(),
             py::arg("format") = "text", py::arg("features") = py::none(),
             py::arg("certificate") = py::none(), py::arg("save_smt2") = py::none(),
             py::arg("solver") = "z3", py::arg("seed") = 1, py::arg("restarts") = 4,
             py::arg("iterations") = 20000, py::arg("max_rounds") = 400, py::arg("plain") = false,
             py::arg("no_exact") = false, py::arg("no_heuristic") = false, py::arg("no_z3") = false,
             py::arg("no_lemmas") = false, py::arg("no_symmetry") = false,
             py::arg("no_isolate") = false, py::arg("cross_check_seconds") = 60,
             py::arg("heuristic_share") = 0.5, py::arg("no_cross_check") = false,
             py::arg("no_certificate") = false, py::arg("verbose") = false,
             R"doc(Find (exactly verified) or refute a rank-r NK/PF model of T(m,n) or of a family;
returns a SearchResult.

The same pipeline as `kernelrank search` (docs/search.md): exact arguments first (r = 0,
the order argument, a certified rank bound), then a floating-point proposal search
completed exactly, then Z3 (or cvc5) on a growing subset of the row instances. Every
model is re-verified exactly; the label says what backs a refutation ('refuted
(certified)', 'refuted (corroborated: ...)', 'refuted (Z3 only)').
  m (1..8), n      the cube task T(m,n); or family=PATH (a family file)
  r                features (required, 0..64); model_class "NK" or "PF"
  timeout, memory  seconds (0: none) and MiB (0: none) of the search process; rlimit: Z3's
  out, format      write the model found (tabular, "text" or "json"); features=PATH its
                   feature form; certificate=PATH the checker-verified refutation
  solver           "z3", "cvc5" (the cvc5 executable on PATH) or "both"
  seed, restarts, iterations, max_rounds, heuristic_share, cross_check_seconds: budgets
  no_exact, no_heuristic, no_z3, no_lemmas, no_symmetry, no_cross_check, no_certificate,
  plain: as the CLI's flags; no_isolate=True runs in this process (no memory cap)
The solver side runs in a child process forked from this one (no executable is run but
cvc5's); progress lines go to stderr when it is a terminal or verbose=True (set_progress
turns them off).

Example:
  >>> s = kernelrank.search(4, 1, timeout=10)
  >>> s.refuted, s.label
)doc");
}

}  // namespace kernelrank::python
