// kernelrank.counterexample and kernelrank.generate_family: what the CLI's
// `counterexample` and `generate` subcommands compute (src/cli/cmd_counterexample.cpp,
// src/cli/cmd_generate.cpp), with the same files written.
#include "bindings.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/bounds/counterexample.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/generate.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/models/model_io.hpp"  // kMaxModelWidth, the range of the CLI's m

namespace kernelrank::python {
namespace {

struct PyCounterexample {
  std::string path;    // "proof-guided", "exhaustive" or "none"
  py::object failing;  // Instance or None
  std::string construction, explanation, fallback_reason, task, model;
  std::size_t kernel_entries = 0;
  bool solves = false;  // an exhaustive search found no failing instance
  py::object out;       // the family file written, or None
};

struct PyGenerated {
  py::list train, test;  // Instance (not evaluated)
  py::list files;        // written paths
  int m = 0, n = 0;
  std::string source;
};

std::string counterexample_repr(const PyCounterexample& c) {
  return "Counterexample(path=" + py::repr(py::str(c.path)).cast<std::string>() +
         ", failing=" + py::repr(c.failing).cast<std::string>() +
         ", solves=" + (c.solves ? "True" : "False") + ")";
}

// The arguments arrive as given and are converted by their keywords (bindings.hpp), with the
// CLI's ranges; the model's own arguments are checked where the model is resolved.
PyCounterexample run_counterexample(const py::object& model, const py::object& builtin,
                                    const py::object& base, const py::object& activation,
                                    const py::object& name, const py::object& positions,
                                    const py::object& m_arg, const py::object& n_arg,
                                    const py::object& family_arg, const py::object& out_arg) {
  const ModelArgs margs{model,     builtin,    base,      activation, str_arg(name, "name"),
                        positions, py::none(), py::none()};
  const int m = optional_int_arg(m_arg, "m", 1, kMaxModelWidth).value_or(0);  // 0: the model's
  const int n = int_arg<int>(n_arg, "n");
  std::string out;
  if (!out_arg.is_none()) out = path_argument(out_arg, "out");
  std::unique_ptr<Model> loaded;
  Counterexample result;
  std::string task;
  if (!family_arg.is_none()) {
    std::string path;
    const Family family = family_argument(family_arg, path);
    loaded = load_python_model(margs, family.m, family.n);
    py::gil_scoped_release release;
    result = find_counterexample(*loaded, family, CounterexampleOptions{family.n});
    task = "family " + path;
  } else {
    loaded = load_python_model(margs, m, n);
    py::gil_scoped_release release;
    result = find_counterexample(*loaded, CounterexampleOptions{n});
    task = "T(" + std::to_string(loaded->width()) + "," + std::to_string(n) + ")";
  }
  PyCounterexample c;
  c.path = to_string(result.path);
  c.failing = result.failing ? py::cast(to_instance(*result.failing)) : py::none();
  c.construction = result.failing ? result.construction : std::string();
  c.explanation = result.explanation;
  c.fallback_reason = result.fallback_reason;
  c.kernel_entries = result.kernel_entries;
  c.solves = !result.failing && result.exhaustive_solves;
  c.task = task;
  c.model = loaded->description();
  c.out = py::none();
  if (result.failing && !out.empty()) {
    const Family one{result.failing->instance.width(),
                     result.failing->instance.length(),
                     {result.failing->instance}};
    write_file_atomically(out, family_to_text(one));
    c.out = py::str(out);
  }
  return c;
}

constexpr std::size_t kMaxGenerated = 10'000'000;  // as `kernelrank generate`

// As run_counterexample: m and n are checked by the library, as for the CLI.
PyGenerated run_generate(const py::object& m, const py::object& n, const py::object& mode,
                         const py::object& code_arg, const py::object& golay_arg,
                         const py::object& seed, const py::object& train_arg,
                         const py::object& test_arg, const py::object& out_arg,
                         const py::object& format_arg) {
  const std::string format = str_arg(format_arg, "format");
  if (format != "family" && format != "csv" && format != "jsonl" && format != "all")
    raise_usage("format must be family, csv, jsonl or all");
  if (!code_arg.is_none() && !golay_arg.is_none()) raise_usage("code= excludes golay=");
  const std::size_t train = int_arg<std::size_t>(train_arg, "train");
  const std::size_t test = int_arg<std::size_t>(test_arg, "test");
  GenerateOptions options;
  options.m = int_arg<int>(m, "m");
  options.n = int_arg<int>(n, "n");
  options.mode = parse_query_mode(str_arg(mode, "mode"));
  options.seed = int_arg<std::uint64_t>(seed, "seed");
  options.train = train;
  options.test = test;
  std::string source = "uniformly random tokens";
  std::string prefix;
  if (!out_arg.is_none()) prefix = path_argument(out_arg, "out");
  GeneratedSets sets;
  std::vector<std::string> written;
  {
    const std::string code_path =
        code_arg.is_none() ? std::string() : path_argument(code_arg, "code");
    const std::string golay = optional_str_arg(golay_arg, "golay").value_or("");
    py::gil_scoped_release release;
    if (!code_path.empty()) {
      const Code code = read_code(code_path);
      options.tokens = code.words;
      options.m = code.m;
      source = "the words of " + code_path;
    } else if (!golay_arg.is_none()) {
      if (golay != "octads" && golay != "dodecads") raise_usage("golay must be octads or dodecads");
      options.tokens = (golay == "octads" ? golay_octads() : golay_dodecads()).words;
      options.m = 24;
      source = "the Golay " + golay;
    }
    for (const std::size_t count : {train, test})
      if (count > kMaxGenerated)
        throw ResourceError("train and test take at most " + std::to_string(kMaxGenerated) +
                            " instances each, not " + std::to_string(count));
    if (options.n >= 1 && options.m >= 1) {
      require_family_file_size(train > test ? train : test, options.n, options.m, "generate");
      require_instance_memory(train + test, options.n, options.m, 2, "generate");
    }
    sets = generate_instances(options);
    if (!prefix.empty()) {
      for (const auto& [split, family] :
           {std::pair<std::string, const Family*>{"train", &sets.train},
            std::pair<std::string, const Family*>{"test", &sets.test}}) {
        if (format == "family" || format == "all") {
          write_file_atomically(prefix + "-" + split + ".family", family_to_text(*family));
          written.push_back(prefix + "-" + split + ".family");
        }
        if (format == "csv" || format == "all") {
          write_file_atomically(prefix + "-" + split + ".csv", family_to_csv(*family));
          written.push_back(prefix + "-" + split + ".csv");
        }
        if (format == "jsonl" || format == "all") {
          write_file_atomically(prefix + "-" + split + ".jsonl", family_to_jsonl(*family));
          written.push_back(prefix + "-" + split + ".jsonl");
        }
      }
    }
  }
  PyGenerated g;
  for (const Instance& instance : sets.train.instances)
    g.train.append(py::cast(to_instance(instance)));
  for (const Instance& instance : sets.test.instances)
    g.test.append(py::cast(to_instance(instance)));
  for (const std::string& path : written) g.files.append(path);
  g.m = options.m;
  g.n = options.n;
  g.source = source;
  return g;
}

}  // namespace

void register_tasks(py::module_& module) {
  py::class_<PyCounterexample>(
      module, "Counterexample",
      "What `kernelrank counterexample` finds: a failing instance (or why there is none).")
      .def_readonly("path", &PyCounterexample::path,
                    "How it was found: 'proof-guided', 'exhaustive' or 'none'")
      .def_readonly("failing", &PyCounterexample::failing,
                    "The failing Instance (exact output and error), or None")
      .def_readonly("construction", &PyCounterexample::construction,
                    "Rows the proof-guided path used")
      .def_readonly("explanation", &PyCounterexample::explanation,
                    "The violated ratio, chain link and inequality")
      .def_readonly("fallback_reason", &PyCounterexample::fallback_reason,
                    "Why the proof-guided path did not decide ('' if it did)")
      .def_readonly("kernel_entries", &PyCounterexample::kernel_entries,
                    "Kernel values the proof-guided path evaluated")
      .def_readonly("solves", &PyCounterexample::solves,
                    "True when an exhaustive search proved that none exists")
      .def_readonly("task", &PyCounterexample::task, "The task searched, e.g. 'T(24,3)'")
      .def_readonly("model", &PyCounterexample::model, "The model's description")
      .def_readonly("out", &PyCounterexample::out,
                    "The one-line family file written (out=), or None")
      .def("__repr__", &counterexample_repr);

  module.def(
      "counterexample", &run_counterexample, py::arg("model") = py::none(), py::kw_only(),
      py::arg("builtin") = py::none(), py::arg("base") = py::none(),
      py::arg("activation") = py::none(), py::arg("name") = "<dict>",
      py::arg("positions") = py::none(), py::arg("m") = py::none(), py::arg("n") = 3,
      py::arg("family") = py::none(), py::arg("out") = py::none(),
      R"doc(Find a failing instance for a model, guided by the proof; returns a Counterexample.

As `kernelrank counterexample`: the model is a path, builtin=NAME (with m, base), a dict
of arrays or a module with state_dict() (see evaluate). The task is T(m,n) (m in 1..4096, None: the model's width), or
family=PATH. out=PATH writes the failing instance as a one-line family file (atomically).

Example:
  >>> c = kernelrank.counterexample(builtin="softmax", base=2, m=6)
  >>> c.failing.fails
  True
)doc");

  py::class_<PyGenerated>(
      module, "GeneratedSets",
      "Disjoint train and test instance sets, as `kernelrank generate` draws them.")
      .def_readonly("train", &PyGenerated::train,
                    "Training instances (list of Instance, with targets)")
      .def_readonly("test", &PyGenerated::test,
                    "Test instances (list of Instance), disjoint from train")
      .def_readonly("files", &PyGenerated::files, "The files written (out=), in the CLI's order")
      .def_readonly("m", &PyGenerated::m, "Token width")
      .def_readonly("n", &PyGenerated::n, "Sequence length")
      .def_readonly("source", &PyGenerated::source, "Where the tokens come from")
      .def("__repr__", [](const PyGenerated& g) {
        return "GeneratedSets(m=" + std::to_string(g.m) + ", n=" + std::to_string(g.n) +
               ", train=" + std::to_string(py::len(g.train)) +
               ", test=" + std::to_string(py::len(g.test)) + ")";
      });

  module.def(
      "generate_family", &run_generate, py::arg("m") = 24, py::kw_only(), py::arg("n") = 3,
      py::arg("mode") = "first", py::arg("code") = py::none(), py::arg("golay") = py::none(),
      py::arg("seed") = 1, py::arg("train") = 1000, py::arg("test") = 1000,
      py::arg("out") = py::none(), py::arg("format") = "all",
      R"doc(Seeded, disjoint train/test instance sets with Min-IP targets; returns GeneratedSets.

As `kernelrank generate`: tokens uniformly random of width m, or the words of code=PATH,
or golay="octads" | "dodecads". mode "all" draws a random query position. With out=PREFIX
(the CLI's output prefix) the same files are written, atomically: PREFIX-train.family,
PREFIX-train.csv, PREFIX-train.jsonl and the same for test (format= "family", "csv",
"jsonl" or "all"). The sets depend only on the arguments (seed included: 0..2**64-1);
train and test take at most 10,000,000 instances each.

Example:
  >>> g = kernelrank.generate_family(8, train=5, test=5, seed=7)
  >>> len(g.train), g.train[0].target
)doc");
}

}  // namespace kernelrank::python
