// kernelrank.min_rank: the table of minimal feature ranks for T(m,3), the pipeline of
// app/search_job.hpp that the CLI's min-rank runs too, with every cell as a Python object.
#include "bindings.hpp"
#include "search_budget.hpp"

#include "kernelrank/app/search_job.hpp"
#include "kernelrank/core/progress.hpp"

#include <unistd.h>

namespace kernelrank::python {
namespace {

struct PyMinRankCell {
  int r = 0;
  std::string status, label, detail;
  double seconds = 0;
  py::list files;              // model files written (str)
  py::object inherited_from;   // the status at m-1 (str) for refuted-inherited, else None
  std::string checker_status;  // refuted-certified: the checker's status line, else ''
};

struct PyMinRankRow {
  int m = 0, lower = 0;
  std::string model_class, min_r;
  py::object upper;  // int or None
  bool settled = false;
  double seconds = 0;
  py::list cells;  // MinRankCell, in the order they were decided
};

struct PyMinRankResult {
  int n = 3;
  std::string z3_version;
  py::list rows;  // MinRankRow
  bool settled = false, unknown_resource_only = false;
};

PyMinRankRow to_row(const MinRankRow& row) {
  PyMinRankRow out;
  out.m = row.m;
  out.lower = row.lower;
  out.model_class = to_string(row.search_class);
  out.min_r = min_rank_range_text(row);
  out.upper = row.upper ? py::object(py::int_(*row.upper)) : py::object(py::none());
  out.settled = row.settled();
  out.seconds = row.seconds;
  for (const MinRankCell& cell : row.cells) {
    PyMinRankCell c;
    c.r = cell.r;
    c.status = to_string(cell.status);
    c.label = cell.label;
    c.detail = cell.detail;
    c.seconds = cell.seconds;
    for (const std::string& file : cell.files) c.files.append(file);
    c.checker_status = cell.checker_status;
    c.inherited_from = cell.inherited_from ? py::object(py::str(to_string(*cell.inherited_from)))
                                           : py::object(py::none());
    out.cells.append(py::cast(std::move(c)));
  }
  return out;
}

struct MinRankArgs {
  py::object m_max, model_class, rlimit, timeout, memory, models_dir, save_smt2, r_max, seed,
      restarts, iterations, cross_check_seconds, heuristic_share, no_cross_check, verbose, threads;
};

PyMinRankResult run_min_rank(const MinRankArgs& a) {
  MinRankRequest request;
  request.m_max = int_arg<int>(a.m_max, "m_max");
  request.model_class = str_arg(a.model_class, "model_class");
  if (!a.models_dir.is_none()) request.models_dir = path_argument(a.models_dir, "models_dir");
  request.r_max = int_arg<int>(a.r_max, "r_max");
  request.budget =
      search_budget_arg({a.rlimit, a.timeout, a.memory, a.save_smt2, a.seed, a.restarts,
                         a.iterations, a.cross_check_seconds, a.heuristic_share, a.no_cross_check});
  const bool verbose = bool_arg(a.verbose, "verbose");
  request.threads = int_arg<int>(a.threads, "threads");
  if (Progress::allowed() && (verbose || isatty(STDERR_FILENO) == 1))
    request.log = search_log_to_stderr("");
  MinRankJob job;
  {
    py::gil_scoped_release release;
    job = run_min_rank_job(request);
  }
  PyMinRankResult result;
  result.z3_version = job.table.z3_version;
  for (const MinRankRow& row : job.table.rows) result.rows.append(py::cast(to_row(row)));
  result.settled = job.all_settled;
  result.unknown_resource_only = !job.all_settled && job.unknown_resource_only;
  return result;
}

void register_min_rank_types(py::module_& module) {
  py::class_<PyMinRankCell>(module, "MinRankCell", "One (m, class, r) cell of the min-rank table.")
      .def_readonly("r", &PyMinRankCell::r, "Features")
      .def_readonly("status", &PyMinRankCell::status,
                    "'model found and verified', 'refuted-certified', 'refuted-exact (not "
                    "checker-verified)', 'refuted-corroborated', 'refuted-Z3-only', "
                    "'refuted-inherited' or 'unknown'")
      .def_readonly("label", &PyMinRankCell::label, "The search's label")
      .def_readonly("detail", &PyMinRankCell::detail, "Why")
      .def_readonly("seconds", &PyMinRankCell::seconds, "Wall-clock seconds of the cell")
      .def_readonly("files", &PyMinRankCell::files, "Model files written (models_dir)")
      .def_readonly("inherited_from", &PyMinRankCell::inherited_from,
                    "For refuted-inherited: the status at m-1, else None")
      .def_readonly("checker_status", &PyMinRankCell::checker_status,
                    "For 'refuted-certified': the checker's status line on the cell's "
                    "certificate, checked in memory ('s VERIFIED'); else ''")
      .def("__repr__", [](const PyMinRankCell& c) {
        return "MinRankCell(r=" + std::to_string(c.r) +
               ", status=" + py::repr(py::str(c.status)).cast<std::string>() + ")";
      });
  py::class_<PyMinRankRow>(module, "MinRankRow", "One row (m, class) of the min-rank table.")
      .def_readonly("m", &PyMinRankRow::m, "Token width")
      .def_readonly("model_class", &PyMinRankRow::model_class, "'NK' or 'PF'")
      .def_readonly("lower", &PyMinRankRow::lower, "Proved: r(m) >= lower")
      .def_readonly("upper", &PyMinRankRow::upper,
                    "A verified model has this many features, or None")
      .def_readonly("settled", &PyMinRankRow::settled, "lower == upper")
      .def_readonly("min_r", &PyMinRankRow::min_r, "The table's 'min r': '3', '2..4' or '>= 2'")
      .def_readonly("seconds", &PyMinRankRow::seconds, "Wall-clock seconds of the row")
      .def_readonly("cells", &PyMinRankRow::cells, "The MinRankCells, in the order decided")
      .def("__repr__", [](const PyMinRankRow& r) {
        return "MinRankRow(m=" + std::to_string(r.m) +
               ", model_class=" + py::repr(py::str(r.model_class)).cast<std::string>() +
               ", min_r=" + py::repr(py::str(r.min_r)).cast<std::string>() + ")";
      });
  py::class_<PyMinRankResult>(module, "MinRankResult",
                              "The table of minimal feature ranks for T(m,3), as `kernelrank "
                              "min-rank` reports it.")
      .def_readonly("n", &PyMinRankResult::n, "Sequence length (3)")
      .def_readonly("z3_version", &PyMinRankResult::z3_version, "The linked Z3")
      .def_readonly("rows", &PyMinRankResult::rows, "The MinRankRows, m ascending, per class")
      .def_readonly("settled", &PyMinRankResult::settled, "Every row is settled")
      .def_readonly("unknown_resource_only", &PyMinRankResult::unknown_resource_only,
                    "Not settled, and every open cell ran out of a budget (the CLI's exit 3)")
      .def("__repr__", [](const PyMinRankResult& t) {
        std::string text = "MinRankResult(";
        for (std::size_t i = 0; i < py::len(t.rows); ++i) {
          const auto& row = t.rows[i].cast<const PyMinRankRow&>();
          text +=
              (i ? ", " : "") + row.model_class + " m=" + std::to_string(row.m) + ": " + row.min_r;
        }
        return text + ")";
      });
}

}  // namespace

void register_min_rank(py::module_& module) {
  register_min_rank_types(module);
  module.def(
      "min_rank",
      [](const py::object& m_max, const py::object& model_class, const py::object& rlimit,
         const py::object& timeout, const py::object& memory, const py::object& models_dir,
         const py::object& save_smt2, const py::object& r_max, const py::object& seed,
         const py::object& restarts, const py::object& iterations,
         const py::object& cross_check_seconds, const py::object& heuristic_share,
         const py::object& no_cross_check, const py::object& verbose, const py::object& threads) {
        return run_min_rank({m_max, model_class, rlimit, timeout, memory, models_dir, save_smt2,
                             r_max, seed, restarts, iterations, cross_check_seconds,
                             heuristic_share, no_cross_check, verbose, threads});
      },
      py::arg("m_max") = 4, py::kw_only(), py::arg("model_class") = "both", py::arg("rlimit") = 0,
      py::arg("timeout") = 120, py::arg("memory") = 8192, py::arg("models_dir") = py::none(),
      py::arg("save_smt2") = py::none(), py::arg("r_max") = 8, py::arg("seed") = 1,
      py::arg("restarts") = 4, py::arg("iterations") = 20000, py::arg("cross_check_seconds") = 60,
      py::arg("heuristic_share") = 0.5, py::arg("no_cross_check") = false,
      py::arg("verbose") = false, py::arg("threads") = 0,
      R"doc(The table of minimal feature ranks r(m) for T(m,3), m = 1..m_max; returns a
MinRankResult.

The same sweep as `kernelrank min-rank` (docs/min-rank.md): each row starts at r(m-1)
(monotonicity) and every cell is one search (kernelrank.search) with its honest status.
  m_max (1..7), r_max (1..64)   the widths and the largest r tried per row
  model_class                   "NK", "PF" or "both"
  timeout, memory, rlimit       per cell: seconds (0: none), MiB (0: none), Z3's rlimit
  models_dir=PATH               write the minimal models found there (an existing folder)
  threads                       cells searched at once (0: all); the table is the same
Each cell's solver side runs in a child process forked from this one (no executable is
run); progress lines go to stderr when it is a terminal or verbose=True (set_progress
turns them off).

Example:
  >>> t = kernelrank.min_rank(3, model_class="NK", timeout=10)
  >>> [(row.m, row.min_r) for row in t.rows]
)doc");
}

}  // namespace kernelrank::python
