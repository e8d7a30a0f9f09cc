// kernelrank.transcript: the transcript bound of `kernelrank transcript` (app/transcript.hpp)
// for the cube T(m,n) or a family file.
#include "bindings.hpp"

#include "kernelrank/app/transcript.hpp"

namespace kernelrank::python {
namespace {

struct PyIndependent {
  int queries = 0, values = 1, s = 0;
  py::object product;  // int
  py::tuple log2;      // (floor, ceil)
  py::list query_tokens, value_sets;
  std::string verified;
  py::object block_weight;      // the cube: int; a family: None
  py::object witness_contexts;  // a family: list of contexts (lists of str); the cube: None
};

struct PyTranscriptResult {
  std::string task;                // "cube" or "family"
  py::object family = py::none();  // the family's path, or None
  int m = 0, n = 0;
  py::object contexts, queries, answer_vectors;  // int
  bool exact = false;
  py::object method = py::none(), cross_checked = py::none();  // the cube only
  py::object log2, min_bits;  // (floor, ceil) and int; None for an empty family
  // A family only, else None.
  py::object instances = py::none(), pairs = py::none(), grid = py::none();
  py::object clique = py::none(), clique_source = py::none(), transcripts_upper = py::none();
  PyIndependent independent;
  double seconds = 0;
};

py::tuple log2_tuple(const Log2Interval& bits) { return py::make_tuple(bits.floor, bits.ceil); }

py::list tokens_list(const std::vector<Token>& tokens) {
  py::list list;
  for (const Token& t : tokens) list.append(t.to_string());
  return list;
}

PyIndependent independent_of(const IndependentAnswers& a, const Log2Interval& bits) {
  PyIndependent result;
  result.queries = a.queries;
  result.values = a.values;
  result.s = a.values - 1;
  result.product = to_python_int(a.product);
  result.log2 = log2_tuple(bits);
  result.query_tokens = tokens_list(a.query_tokens);
  for (const std::vector<int>& values : a.value_sets) result.value_sets.append(py::cast(values));
  result.verified = a.verified;
  result.block_weight = py::none();
  result.witness_contexts = py::none();
  return result;
}

PyTranscriptResult cube_result(const CubeTranscriptResult& r) {
  PyTranscriptResult result;
  result.task = "cube";
  result.m = r.m;
  result.n = r.n;
  result.contexts = to_python_int(r.contexts);
  result.queries = to_python_int(r.queries);
  result.answer_vectors = to_python_int(r.answer_vectors);
  result.exact = true;
  result.method = py::str(r.method);
  result.cross_checked = py::bool_(r.cross_checked);
  result.log2 = log2_tuple(r.bits);
  result.min_bits = py::int_(r.bits.ceil);
  result.independent = independent_of(r.independent, r.independent_bits);
  result.independent.block_weight = py::int_(r.independent.block_weight);
  return result;
}

PyTranscriptResult family_result(const FamilyTranscriptResult& r, const std::string& path) {
  PyTranscriptResult result;
  result.task = "family";
  result.family = py::str(path);
  result.m = r.m;
  result.n = r.n;
  result.instances = py::int_(r.instances);
  result.contexts = py::int_(r.contexts);
  result.queries = py::int_(r.queries);
  result.pairs = py::int_(r.pairs);
  result.grid = py::bool_(r.grid);
  result.answer_vectors = to_python_int(r.answer_vectors);
  result.exact = r.exact;
  const bool empty = r.contexts == 0;
  result.log2 = empty ? py::object(py::none()) : py::object(log2_tuple(r.bits));
  result.min_bits = empty ? py::object(py::none()) : py::object(py::int_(r.bits.ceil));
  py::list clique;
  for (std::size_t c : r.clique) clique.append(tokens_list(r.context_tokens[c]));
  result.clique = clique;
  result.clique_source = r.grid ? py::object(py::none()) : py::object(py::str(r.clique_source));
  result.transcripts_upper = py::int_(r.transcripts_upper);
  result.independent = independent_of(r.independent, r.independent_bits);
  py::list witnesses;
  if (r.independent.queries > 0)
    for (std::size_t c : r.independent.witness_contexts)
      witnesses.append(tokens_list(r.context_tokens[c]));
  result.independent.witness_contexts = witnesses;
  return result;
}

PyTranscriptResult run_transcript_call(const py::object& m, const py::object& n,
                                       const py::object& family, const py::object& method,
                                       const py::object& cross_check) {
  TranscriptRequest request;
  request.m = optional_int_arg<int>(m, "m");
  request.n = optional_int_arg<int>(n, "n");
  if (!family.is_none()) request.family = path_argument(family, "family");
  request.method = str_arg(method, "method");
  request.cross_check = bool_arg(cross_check, "cross_check");
  TranscriptResult result;
  {
    py::gil_scoped_release release;
    result = run_transcript(request);
  }
  PyTranscriptResult converted =
      result.cube ? cube_result(*result.cube) : family_result(*result.family, result.family_path);
  converted.seconds = result.seconds;
  return converted;
}

std::string transcript_repr(const PyTranscriptResult& t) {
  return "TranscriptResult(task=" + py::repr(py::str(t.task)).cast<std::string>() +
         ", m=" + std::to_string(t.m) + ", n=" + std::to_string(t.n) +
         ", answer_vectors=" + py::str(t.answer_vectors).cast<std::string>() +
         ", exact=" + (t.exact ? "True" : "False") +
         ", min_bits=" + py::str(t.min_bits).cast<std::string>() + ")";
}

void register_transcript_types(py::module_& module) {
  py::class_<PyIndependent>(module, "IndependentAnswers",
                            "Queries whose answers vary independently over the contexts: "
                            "values**queries <= D")
      .def_readonly("queries", &PyIndependent::queries, "Number of queries q")
      .def_readonly("values", &PyIndependent::values, "Values each answers, s + 1")
      .def_readonly("s", &PyIndependent::s, "s")
      .def_readonly("product", &PyIndependent::product, "(s+1)**q (int)")
      .def_readonly("log2", &PyIndependent::log2, "(floor, ceil) of log2 of the product")
      .def_readonly("query_tokens", &PyIndependent::query_tokens, "The queries (str tokens)")
      .def_readonly("value_sets", &PyIndependent::value_sets, "Each query's answers (ints)")
      .def_readonly("verified", &PyIndependent::verified, "How the independence was verified")
      .def_readonly("block_weight", &PyIndependent::block_weight,
                    "The cube: coordinates per disjoint block query (0: none); a family: None")
      .def_readonly("witness_contexts", &PyIndependent::witness_contexts,
                    "A family: the contexts that witness the answers; the cube: None")
      .def("__repr__", [](const PyIndependent& a) {
        return "IndependentAnswers(queries=" + std::to_string(a.queries) +
               ", values=" + std::to_string(a.values) + ")";
      });
  py::class_<PyTranscriptResult>(
      module, "TranscriptResult",
      "The transcript bound (theory.md L7), as `kernelrank transcript` reports it.")
      .def_readonly("task", &PyTranscriptResult::task, "'cube' or 'family'")
      .def_readonly("family", &PyTranscriptResult::family, "The family file, or None")
      .def_readonly("m", &PyTranscriptResult::m, "Token width")
      .def_readonly("n", &PyTranscriptResult::n, "Sequence length")
      .def_readonly("contexts", &PyTranscriptResult::contexts, "Contexts (int)")
      .def_readonly("queries", &PyTranscriptResult::queries, "Queries (int)")
      .def_readonly("answer_vectors", &PyTranscriptResult::answer_vectors,
                    "D (int): exact when exact, else a lower bound")
      .def_readonly("exact", &PyTranscriptResult::exact, "Whether answer_vectors is D exactly")
      .def_readonly("method", &PyTranscriptResult::method, "The cube's count method, or None")
      .def_readonly("cross_checked", &PyTranscriptResult::cross_checked,
                    "The cube: both counts ran and agree (bool); a family: None")
      .def_readonly("log2", &PyTranscriptResult::log2, "(floor, ceil) of log2 D, or None")
      .def_readonly("min_bits", &PyTranscriptResult::min_bits,
                    "Bits a transcript needs at least (int), or None")
      .def_readonly("instances", &PyTranscriptResult::instances, "A family: instances, or None")
      .def_readonly("pairs", &PyTranscriptResult::pairs,
                    "A family: distinct (query, context) pairs, or None")
      .def_readonly("grid", &PyTranscriptResult::grid,
                    "A family: every context meets the same queries (bool), or None")
      .def_readonly("clique", &PyTranscriptResult::clique,
                    "A family: pairwise-conflicting contexts (lists of str), or None")
      .def_readonly("clique_source", &PyTranscriptResult::clique_source,
                    "How the clique was found (non-grid families), or None")
      .def_readonly("transcripts_upper", &PyTranscriptResult::transcripts_upper,
                    "A family: an upper bound on D from a colouring (int), or None")
      .def_readonly("independent", &PyTranscriptResult::independent,
                    "The independent answers (IndependentAnswers)")
      .def_readonly("seconds", &PyTranscriptResult::seconds, "Wall-clock time, for display")
      .def("__repr__", &transcript_repr);
}

}  // namespace

void register_transcript_command(py::module_& module) {
  register_transcript_types(module);
  module.def("transcript", &run_transcript_call, py::arg("m") = py::none(), py::kw_only(),
             py::arg("n") = py::none(), py::arg("family") = py::none(), py::arg("method") = "auto",
             py::arg("cross_check") = false,
             R"doc(The finite-precision transcript bound (theory.md L7); returns a TranscriptResult.

The computation of `kernelrank transcript`, for the cube T(m,n) or a family file (give one
of m and family):
  m, n          the cube's width and length (n: 3 when not given)
  family=PATH   a family file instead (it has its own n)
  method        the cube's count of answer vectors: "auto", "brute-force" or "antichains"
  cross_check   the cube: run both counts, which must agree
An argument of the wrong type raises TypeError, a bad value kernelrank.UsageError, each
naming the argument.

Example:
  >>> t = kernelrank.transcript(4)
  >>> t.answer_vectors, t.min_bits
)doc");
}

}  // namespace kernelrank::python
