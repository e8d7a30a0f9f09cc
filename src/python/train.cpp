// kernelrank.train: `kernelrank train` run as the trainer executable, kernelrank-train
// (app/trainer_process.hpp), since the module links no torch; its DIR/report.json read back
// as plain objects, the exact values as Fractions.
#include "bindings.hpp"

#include "core/progress.hpp"
#include "kernelrank/app/trainer_process.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#ifndef KERNELRANK_TRAIN_PATH
#define KERNELRANK_TRAIN_PATH "kernelrank-train"
#endif

namespace kernelrank::python {
namespace {

// One split of one model (report.json's "train" or "test" record).
struct PySplit {
  py::object instances, float_failing, float_error_rate, float_accuracy;
  std::string method, verdict;
  bool solves = false;
  py::object failing, undefined, undecided;        // int
  py::object error_rate, max_error, max_error_lo;  // Fraction (or None)
  py::object first_failure;                        // dict or None
  py::object disagreements;                        // int
  py::list disagreement_list;                      // dicts
};

struct PyTrainedModel {
  std::string name, feature;
  py::object r, seed, d, positions, epochs, lr, final_loss;
  py::dict recipe, files, timing;
  py::object safetensors, model;  // paths of the written files (model: None for softmax)
  PySplit train;
  py::object test;  // PySplit or None
};

struct PyTrainResult {
  std::string out, report_path;
  py::object train_family, test_family;
  py::list models;
};

// A "p/q" string of the report as a Fraction; None stays None.
py::object exact_value(const py::object& value) {
  if (value.is_none()) return py::none();
  return to_fraction(parse_rational(value.cast<std::string>()));
}

py::object int_of(const py::object& text) { return py::int_(text); }

PySplit split_of(const py::dict& split) {
  PySplit s;
  s.instances = split["instances"];
  s.float_failing = split["float_failing"];
  s.float_error_rate = split["float_error_rate"];
  s.float_accuracy = split["float_accuracy"];
  const py::dict exact = split["exact"].cast<py::dict>();
  s.method = exact["method"].cast<std::string>();
  s.verdict = exact["verdict"].cast<std::string>();
  s.solves = s.verdict.rfind("solves", 0) == 0;
  s.failing = int_of(exact["failing"]);
  s.undefined = int_of(exact["undefined"]);
  s.undecided = int_of(exact["undecided"]);
  s.error_rate = exact_value(exact["error_rate"]);
  s.max_error = exact_value(exact["max_error"]);
  s.max_error_lo = exact.contains("max_error_lo") ? exact_value(exact["max_error_lo"]) : py::none();
  // Exact verdicts give the failing output as "p/q"; ball arithmetic as a decimal enclosure.
  const bool rational = !exact.contains("max_error_lo");
  py::object first = exact["first_failure"];
  if (!first.is_none() && rational) {
    py::dict copy(first);
    copy["output"] = exact_value(copy["output"]);
    first = copy;
  }
  s.first_failure = first;
  s.disagreements = split["disagreements"];
  for (const py::handle item : split["disagreement_list"].cast<py::list>()) {
    py::dict copy(item.cast<py::dict>());
    if (copy.contains("exact_output")) copy["exact_output"] = exact_value(copy["exact_output"]);
    s.disagreement_list.append(copy);
  }
  return s;
}

PyTrainedModel model_of(const py::dict& record, const std::string& out) {
  PyTrainedModel m;
  m.name = record["name"].cast<std::string>();
  m.feature = record["feature"].cast<std::string>();
  m.r = record["r"];
  m.seed = record["seed"];
  m.d = record["d"];
  m.positions = record["positions"];
  m.epochs = record["epochs"];
  m.lr = record["lr"];
  m.final_loss = record["final_loss"];
  m.recipe = record["recipe"].cast<py::dict>();
  m.files = record["files"].cast<py::dict>();
  m.timing = record["timing"].cast<py::dict>();
  const auto path_of = [&](const char* key) -> py::object {
    if (!m.files.contains(key)) return py::none();
    return py::str((std::filesystem::path(out) / m.files[key].cast<std::string>()).string());
  };
  m.safetensors = path_of("safetensors");
  m.model = path_of("model");
  m.train = split_of(record["train"].cast<py::dict>());
  m.test = record.contains("test") ? py::cast(split_of(record["test"].cast<py::dict>()))
                                   : py::object(py::none());
  return m;
}

// The trainer: $KERNELRANK_TRAIN, else the one built next to the module's library.
std::string trainer_path() {
  const char* given = std::getenv("KERNELRANK_TRAIN");
  const std::string path = given != nullptr && *given != '\0' ? given : KERNELRANK_TRAIN_PATH;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    raise_usage(trainer_missing_message(path, std::strerror(ENOENT)));
  return path;
}

template <typename T>
std::vector<T> list_arg(const py::object& value, const char* name, T lo, T hi) {
  std::vector<T> values;
  if (value.is_none()) return values;
  if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value))
    return {int_arg<T>(value, name, lo, hi)};
  for (const py::handle item : value) values.push_back(int_arg<T>(item, name, lo, hi));
  if (values.empty()) raise_usage(std::string(name) + " needs at least one value");
  return values;
}

std::vector<std::string> feature_arg(const py::object& value) {
  if (value.is_none()) return {};
  if (py::isinstance<py::str>(value)) return {value.cast<std::string>()};
  if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value))
    throw py::type_error("feature must be a str or a list of str, not " +
                         py::str(py::type::of(value).attr("__name__")).cast<std::string>());
  std::vector<std::string> values;
  for (const py::handle item : value) values.push_back(str_arg(item, "feature"));
  if (values.empty()) raise_usage("feature needs at least one value");
  return values;
}

template <typename T>
std::optional<T> optional_of(const py::object& value, T (*convert)(const py::handle&, const char*),
                             const char* name) {
  if (value.is_none()) return std::nullopt;
  return convert(value, name);
}

std::optional<std::string> optional_str(const py::object& value, const char* name) {
  return optional_str_arg(value, name);
}

// The request from the call's arguments (by keyword, in `a`), with the CLI's ranges.
TrainerRequest request_of(const py::dict& a) {
  TrainerRequest q;
  const auto path = [&](const char* key) {
    const py::object v = a[key];
    return v.is_none() ? std::string() : path_argument(v, key);
  };
  q.family = path("family");
  q.train = path("train");
  q.test = path("test");
  q.out = path("out");
  if (q.out.empty()) raise_usage("out is required: the directory for the models and report.json");
  q.r = list_arg<int>(a["r"], "r", 1, 4096);
  q.feature = feature_arg(a["feature"]);
  q.seed = list_arg<std::uint64_t>(a["seed"], "seed", 0, UINT64_MAX);
  q.recipe = optional_str(a["recipe"], "recipe");
  q.bumps = optional_str(a["bumps"], "bumps");
  q.loss = optional_str(a["loss"], "loss");
  q.init = optional_str(a["init"], "init");
  q.epochs = optional_int_arg<int>(a["epochs"], "epochs", 0, 10'000'000);
  q.batch = optional_int_arg<std::uint64_t>(a["batch"], "batch", 0, 10'000'000);
  q.d = optional_int_arg<int>(a["d"], "d", 0, 4096);
  q.constant_features = optional_int_arg<int>(a["constant_features"], "constant_features", 0, 4096);
  q.polish = optional_int_arg<int>(a["polish"], "polish", 0, 1'000'000);
  q.threads = optional_int_arg<unsigned>(a["threads"], "threads");
  q.disagreements = optional_int_arg<std::uint64_t>(a["disagreements"], "disagreements");
  q.lr = optional_of<double>(a["lr"], float_arg, "lr");
  q.band = optional_of<double>(a["band"], float_arg, "band");
  q.init_noise = optional_of<double>(a["init_noise"], float_arg, "init_noise");
  q.constant_query_bias =
      optional_of<double>(a["constant_query_bias"], float_arg, "constant_query_bias");
  q.temperature = optional_of<double>(a["temperature"], float_arg, "temperature");
  q.epsilon = optional_of<double>(a["epsilon"], float_arg, "epsilon");
  q.freeze_constant_features =
      optional_of<bool>(a["freeze_constant_features"], bool_arg, "freeze_constant_features");
  q.position_dependent = bool_arg(a["position_dependent"], "position_dependent");
  q.last_step = bool_arg(a["last_step"], "last_step");
  q.progress = Progress::allowed();
  q.trainer = trainer_path();  // after the arguments: their errors come first
  return q;
}

PyTrainResult run_train_call(const py::dict& arguments) {
  const TrainerRequest request = request_of(arguments);
  TrainerRun run;
  {
    py::gil_scoped_release release;
    run = run_trainer(request);
  }
  const py::dict report = py::module_::import("json").attr("loads")(run.report).cast<py::dict>();
  PyTrainResult result;
  result.out = request.out;
  result.report_path = run.report_path;
  result.train_family = report["train_family"];
  result.test_family = report["test_family"];
  for (const py::handle record : report["models"].cast<py::list>())
    result.models.append(py::cast(model_of(record.cast<py::dict>(), request.out)));
  return result;
}

std::string split_repr(const PySplit& s) {
  return "TrainedSplit(verdict=" + py::repr(py::str(s.verdict)).cast<std::string>() +
         ", failing=" + py::str(s.failing).cast<std::string>() +
         ", max_error=" + py::repr(s.max_error).cast<std::string>() + ")";
}

void register_train_types(py::module_& module) {
  py::class_<PySplit>(module, "TrainedSplit",
                      "One split (train or test) of a trained model: the float figures and "
                      "the decided verdict, as report.json records it")
      .def_readonly("instances", &PySplit::instances, "Instances (int)")
      .def_readonly("float_failing", &PySplit::float_failing, "Failing in floating point (int)")
      .def_readonly("float_error_rate", &PySplit::float_error_rate, "float")
      .def_readonly("float_accuracy", &PySplit::float_accuracy, "float")
      .def_readonly("method", &PySplit::method, "How the verdict was decided")
      .def_readonly("verdict", &PySplit::verdict, "The decided verdict")
      .def_readonly("solves", &PySplit::solves, "The verdict says the head solves the split")
      .def_readonly("failing", &PySplit::failing, "Decided failing instances (int)")
      .def_readonly("undefined", &PySplit::undefined, "Zero denominators (int)")
      .def_readonly("undecided", &PySplit::undecided, "Undecided (softmax; int)")
      .def_readonly("error_rate", &PySplit::error_rate, "Decided error rate (Fraction)")
      .def_readonly("max_error", &PySplit::max_error,
                    "Max error (Fraction; softmax: an upper bound), or None")
      .def_readonly("max_error_lo", &PySplit::max_error_lo,
                    "softmax: the lower end of the max error's enclosure (Fraction), else None")
      .def_readonly("first_failure", &PySplit::first_failure,
                    "dict instance, target, output (Fraction; softmax: str), or None")
      .def_readonly("disagreements", &PySplit::disagreements, "Float/decided disagreements (int)")
      .def_readonly("disagreement_list", &PySplit::disagreement_list,
                    "The listed disagreements (dicts, exact outputs as Fraction)")
      .def("__bool__", [](const PySplit& s) { return s.solves; })
      .def("__repr__", &split_repr);
  py::class_<PyTrainedModel>(module, "TrainedModel", "One trained model of report.json")
      .def_readonly("name", &PyTrainedModel::name, "e.g. 'relu-r8-s1'")
      .def_readonly("feature", &PyTrainedModel::feature, "Feature map: relu, square, softmax")
      .def_readonly("r", &PyTrainedModel::r, "Features (int)")
      .def_readonly("seed", &PyTrainedModel::seed, "Seed (int)")
      .def_readonly("d", &PyTrainedModel::d, "Value width")
      .def_readonly("positions", &PyTrainedModel::positions, "Positions (0: shared maps)")
      .def_readonly("epochs", &PyTrainedModel::epochs, "Epochs at most")
      .def_readonly("lr", &PyTrainedModel::lr, "Learning rate")
      .def_readonly("final_loss", &PyTrainedModel::final_loss, "Final training loss (float)")
      .def_readonly("recipe", &PyTrainedModel::recipe, "The recipe record (dict)")
      .def_readonly("files", &PyTrainedModel::files, "File names in out (dict)")
      .def_readonly("timing", &PyTrainedModel::timing, "Seconds of training and verification")
      .def_readonly("safetensors", &PyTrainedModel::safetensors, "Path of the weights")
      .def_readonly("model", &PyTrainedModel::model, "Path of the .model file, or None")
      .def_readonly("train", &PyTrainedModel::train, "The training split (TrainedSplit)")
      .def_readonly("test", &PyTrainedModel::test, "The test split (TrainedSplit), or None")
      .def("__repr__", [](const PyTrainedModel& m) {
        return "TrainedModel(name=" + py::repr(py::str(m.name)).cast<std::string>() +
               ", train=" + split_repr(m.train) + ")";
      });
  py::class_<PyTrainResult>(module, "TrainResult", "What `kernelrank train` wrote to out")
      .def_readonly("out", &PyTrainResult::out, "The output directory")
      .def_readonly("report_path", &PyTrainResult::report_path, "out/report.json")
      .def_readonly("train_family", &PyTrainResult::train_family, "The training family")
      .def_readonly("test_family", &PyTrainResult::test_family, "The test family, or None")
      .def_readonly("models", &PyTrainResult::models, "One TrainedModel per model of the grid")
      .def("__repr__", [](const PyTrainResult& t) {
        return "TrainResult(out=" + py::repr(py::str(t.out)).cast<std::string>() +
               ", models=" + std::to_string(t.models.size()) + ")";
      });
}

}  // namespace

void register_train_command(py::module_& module) {
  register_train_types(module);
  module.def(
      "train",
      [](const py::object& family, const py::object& train, const py::object& test,
         const py::object& out, const py::object& r, const py::object& feature,
         const py::object& seed, const py::object& recipe, const py::object& epochs,
         const py::object& batch, const py::object& bumps, const py::object& lr,
         const py::object& d, const py::object& position_dependent, const py::object& loss,
         const py::object& band, const py::object& init, const py::object& init_noise,
         const py::object& constant_features, const py::object& freeze_constant_features,
         const py::object& constant_query_bias, const py::object& polish,
         const py::object& last_step, const py::object& temperature, const py::object& epsilon,
         const py::object& threads, const py::object& disagreements) {
        py::dict a;
        a["family"] = family;
        a["train"] = train;
        a["test"] = test;
        a["out"] = out;
        a["r"] = r;
        a["feature"] = feature;
        a["seed"] = seed;
        a["recipe"] = recipe;
        a["epochs"] = epochs;
        a["batch"] = batch;
        a["bumps"] = bumps;
        a["lr"] = lr;
        a["d"] = d;
        a["position_dependent"] = position_dependent;
        a["loss"] = loss;
        a["band"] = band;
        a["init"] = init;
        a["init_noise"] = init_noise;
        a["constant_features"] = constant_features;
        a["freeze_constant_features"] = freeze_constant_features;
        a["constant_query_bias"] = constant_query_bias;
        a["polish"] = polish;
        a["last_step"] = last_step;
        a["temperature"] = temperature;
        a["epsilon"] = epsilon;
        a["threads"] = threads;
        a["disagreements"] = disagreements;
        return run_train_call(a);
      },
      py::arg("family") = py::none(), py::kw_only(), py::arg("train") = py::none(),
      py::arg("test") = py::none(), py::arg("out") = py::none(), py::arg("r") = py::none(),
      py::arg("feature") = py::none(), py::arg("seed") = py::none(), py::arg("recipe") = py::none(),
      py::arg("epochs") = py::none(), py::arg("batch") = py::none(), py::arg("bumps") = py::none(),
      py::arg("lr") = py::none(), py::arg("d") = py::none(), py::arg("position_dependent") = false,
      py::arg("loss") = py::none(), py::arg("band") = py::none(), py::arg("init") = py::none(),
      py::arg("init_noise") = py::none(), py::arg("constant_features") = py::none(),
      py::arg("freeze_constant_features") = py::none(), py::arg("constant_query_bias") = py::none(),
      py::arg("polish") = py::none(), py::arg("last_step") = false,
      py::arg("temperature") = py::none(), py::arg("epsilon") = py::none(),
      py::arg("threads") = py::none(), py::arg("disagreements") = py::none(),
      R"doc(Train single heads with libtorch and decide each one exactly; returns a TrainResult.

Runs `kernelrank train` (the executable kernelrank-train, built when libtorch-dev is
installed; the environment variable KERNELRANK_TRAIN names another one) with these options
and reads the out/report.json it writes: one TrainedModel per (feature, r, seed), each split's
verdict exact for relu and square heads, rigorous (ball arithmetic) for softmax.
  family=PATH or train=PATH [test=PATH]   the families (as generate_family writes them)
  out=DIR        the output directory (required): weights, .model files, report.json
  r, seed        an int or a list of ints (r: 1..4096); feature: a str or a list of str
                 ("relu", "square", "softmax")
  recipe         "witness" or "ood"; it sets the defaults of epochs, batch, bumps,
                 init_noise, constant_query_bias and freeze_constant_features
  lr, d, position_dependent, loss, band, init, constant_features, polish, last_step,
  temperature, epsilon, threads, disagreements   as the CLI's options of the same names
Progress (set_progress): on, the trainer's stderr is copied to stderr; off, it runs quietly.
The trainer's errors raise the matching kernelrank exception with its message.

Example:
  >>> t = kernelrank.train(family="w.family", out="build/t", r=4, epochs=200)
  >>> m = t.models[0]; m.train.verdict, m.train.max_error
)doc");
}

}  // namespace kernelrank::python
