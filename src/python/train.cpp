// kernelrank.train: the train job (app/train_job.hpp) run in the trainer executable,
// kernelrank-train (app/trainer_process.hpp), since the module links no torch; its report
// converted to objects, the exact values as Fractions.
#include "bindings.hpp"

#include "kernelrank/app/train_job.hpp"
#include "kernelrank/app/trainer_process.hpp"
#include "kernelrank/core/progress.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
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

PySplit split_of(const TrainedSplitReport& s) {
  PySplit p;
  p.instances = py::int_(s.instances);
  p.float_failing = py::int_(s.float_failing);
  p.float_error_rate = py::float_(s.float_error_rate());
  p.float_accuracy = py::float_(1.0 - s.float_error_rate());
  p.method = s.method;
  p.verdict = s.verdict;
  p.solves = s.solves();
  p.failing = to_python_int(s.failing);
  p.undefined = to_python_int(s.undefined);
  p.undecided = to_python_int(s.undecided);
  p.error_rate = to_fraction(s.error_rate);
  p.max_error = to_fraction(s.max_error);
  p.max_error_lo = to_fraction(s.max_error_lo);
  // The report's own JSON records, the exact outputs as Fractions (ball arithmetic's
  // enclosures stay text).
  const nlohmann::json record = train_split_to_json(s);
  p.first_failure = json_to_python(record["exact"]["first_failure"]);
  if (s.first_failure && s.exact) p.first_failure["output"] = to_fraction(s.first_failure->output);
  p.disagreements = py::int_(s.disagreement_count);
  p.disagreement_list = json_to_python(record["disagreement_list"]).cast<py::list>();
  if (s.exact)
    for (std::size_t i = 0; i < s.disagreements.size(); ++i)
      p.disagreement_list[i]["exact_output"] = to_fraction(s.disagreements[i].exact_output);
  return p;
}

PyTrainedModel model_of(const TrainedModelReport& m, const std::string& out) {
  PyTrainedModel p;
  p.name = m.name;
  p.feature = m.feature;
  p.r = py::int_(m.r);
  p.seed = py::int_(m.seed);
  p.d = py::int_(m.d);
  p.positions = py::int_(m.positions);
  p.epochs = py::int_(m.epochs);
  p.lr = py::float_(m.lr);
  p.final_loss = py::float_(m.final_loss);
  const nlohmann::json record = trained_model_to_json(m);
  p.recipe = json_to_python(record["recipe"]).cast<py::dict>();
  p.files = json_to_python(record["files"]).cast<py::dict>();
  p.timing = json_to_python(record["timing"]).cast<py::dict>();
  p.safetensors = py::str((std::filesystem::path(out) / m.safetensors).string());
  p.model = m.model ? py::object(py::str((std::filesystem::path(out) / *m.model).string()))
                    : py::object(py::none());
  p.train = split_of(m.train);
  p.test = m.test ? py::cast(split_of(*m.test)) : py::object(py::none());
  return p;
}

// The trainer: $KERNELRANK_TRAIN, else the one built next to the module's library.
std::string trainer_path() {
  const char* given = std::getenv("KERNELRANK_TRAIN");
  return given != nullptr && *given != '\0' ? given : KERNELRANK_TRAIN_PATH;
}

// An int or a list of ints (None: the default stays).
template <typename T>
void set_list(std::vector<T>& field, const py::object& value, const char* name) {
  if (value.is_none()) return;
  if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value)) {
    field = {int_arg<T>(value, name)};
    return;
  }
  field.clear();
  for (const py::handle item : value) field.push_back(int_arg<T>(item, name));
}

void set_features(std::vector<std::string>& field, const py::object& value) {
  if (value.is_none()) return;
  if (py::isinstance<py::str>(value)) {
    field = {value.cast<std::string>()};
    return;
  }
  if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value))
    throw py::type_error("feature must be a str or a list of str, not " +
                         py::str(py::type::of(value).attr("__name__")).cast<std::string>());
  field.clear();
  for (const py::handle item : value) field.push_back(str_arg(item, "feature"));
}

template <typename T>
void set_if(T& field, const std::optional<T>& value) {
  if (value) field = *value;
}

std::optional<double> optional_float(const py::object& value, const char* name) {
  if (value.is_none()) return std::nullopt;
  return float_arg(value, name);
}

// The request from the call's arguments (by keyword, in `a`): types converted here, every
// range checked by the job (app/train_job.hpp).
TrainRequest request_of(const py::dict& a) {
  TrainRequest q;
  const auto path = [&](const char* key) {
    const py::object v = a[key];
    return v.is_none() ? std::string() : path_argument(v, key);
  };
  q.family = path("family");
  q.train = path("train");
  q.test = path("test");
  q.out = path("out");
  set_list<int>(q.r, a["r"], "r");
  set_features(q.feature, a["feature"]);
  set_list<std::uint64_t>(q.seed, a["seed"], "seed");
  set_if(q.recipe, optional_str_arg(a["recipe"], "recipe"));
  q.bumps = optional_str_arg(a["bumps"], "bumps");
  set_if(q.loss, optional_str_arg(a["loss"], "loss"));
  set_if(q.init, optional_str_arg(a["init"], "init"));
  q.epochs = optional_int_arg<int>(a["epochs"], "epochs");
  q.batch = optional_int_arg<std::uint64_t>(a["batch"], "batch");
  set_if(q.d, optional_int_arg<int>(a["d"], "d"));
  set_if(q.constant_features, optional_int_arg<int>(a["constant_features"], "constant_features"));
  set_if(q.polish, optional_int_arg<int>(a["polish"], "polish"));
  set_if(q.threads, optional_int_arg<unsigned>(a["threads"], "threads"));
  set_if(q.disagreements, optional_int_arg<std::uint64_t>(a["disagreements"], "disagreements"));
  set_if(q.lr, optional_float(a["lr"], "lr"));
  set_if(q.band, optional_float(a["band"], "band"));
  q.init_noise = optional_float(a["init_noise"], "init_noise");
  q.constant_query_bias = optional_float(a["constant_query_bias"], "constant_query_bias");
  set_if(q.temperature, optional_float(a["temperature"], "temperature"));
  set_if(q.epsilon, optional_float(a["epsilon"], "epsilon"));
  if (!a["freeze_constant_features"].is_none())
    q.freeze_constant_features =
        bool_arg(a["freeze_constant_features"], "freeze_constant_features");
  q.position_dependent = bool_arg(a["position_dependent"], "position_dependent");
  q.last_step = bool_arg(a["last_step"], "last_step");
  q.progress = Progress::allowed();
  return q;
}

PyTrainResult run_train_call(const py::dict& arguments) {
  const TrainRequest request = request_of(arguments);
  const std::string trainer = trainer_path();
  TrainReport report;
  {
    py::gil_scoped_release release;
    report = run_trainer(trainer, request);
  }
  PyTrainResult result;
  result.out = request.out;
  result.report_path = train_report_path(request);
  result.train_family = py::str(report.train_family);
  result.test_family =
      report.test_family ? py::object(py::str(*report.test_family)) : py::object(py::none());
  for (const TrainedModelReport& m : report.models)
    result.models.append(py::cast(model_of(m, request.out)));
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
