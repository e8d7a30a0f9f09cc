// Candidate models of the rank search and their exact re-verification (see rank_model.hpp).
#include "kernelrank/search/rank_model.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/exact_rank.hpp"

#include <algorithm>
#include <set>

namespace kernelrank {

RationalMatrix kernel_table(const RankModel& model) {
  const std::size_t size = model.query_features.size();
  RationalMatrix kernel(size, RationalVector(size));
  for (std::size_t q = 0; q < size; ++q)
    for (std::size_t z = 0; z < size; ++z) {
      Rational sum = 0;
      for (int k = 0; k < model.r; ++k)
        sum += model.query_features[q][static_cast<std::size_t>(k)] *
               model.key_features[z][static_cast<std::size_t>(k)];
      kernel[q][z] = sum;
    }
  return kernel;
}

TabularModel to_tabular_model(const RankTask& task, const RankModel& model) {
  return TabularModel(task.m, task.tokens, kernel_table(model), model.readout);
}

std::string features_model_text(const RankTask& task, const RankModel& model,
                                const std::string& comment) {
  const std::size_t size = task.tokens.size();
  std::string out;
  for (std::size_t start = 0; start < comment.size();) {
    const std::size_t end = comment.find('\n', start);
    out += "# " +
           comment.substr(start, end == std::string::npos ? std::string::npos : end - start) + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  out +=
      "# Feature form of the same model: alpha(q,z) = <phiQ(q), phiK(z)>, v(z) = one-hot of z,\n";
  out += "# c(q) = the readout row F_q, e = 0, so F_q(z) = <c(q), v(z)>.\n";
  out += "kernelrank-model 1 kind=features m=" + std::to_string(task.m) +
         " r=" + std::to_string(model.r) + " d=" + std::to_string(size) + "\n";
  for (std::size_t i = 0; i < size; ++i) {
    out += "token " + task.tokens[i].to_string() + " phiQ";
    for (const Rational& x : model.query_features[i]) out += " " + to_string(x);
    out += " phiK";
    for (const Rational& x : model.key_features[i]) out += " " + to_string(x);
    out += " v";
    for (std::size_t j = 0; j < size; ++j) out += j == i ? " 1" : " 0";
    out += " c";
    for (const Rational& x : model.readout[i]) out += " " + to_string(x);
    out += " e 0\n";
  }
  return out;
}

namespace {

void check_shape(const RankTask& task, const RankModel& model) {
  const std::size_t size = task.tokens.size();
  const auto r = static_cast<std::size_t>(model.r);
  bool ok = model.r >= 1 && model.query_features.size() == size &&
            model.key_features.size() == size && model.readout.size() == size;
  for (std::size_t i = 0; ok && i < size; ++i)
    ok = model.query_features[i].size() == r && model.key_features[i].size() == r &&
         model.readout[i].size() == size;
  if (!ok) throw InternalError("rank model has the wrong shape for the task");
}

void check_class(const RankTask& task, const RankModel& model, const RationalMatrix& kernel,
                 SearchClass search_class, ModelCheck& check) {
  if (search_class == SearchClass::Signed) {
    check.class_ok = true;
    check.class_detail = "signed: no sign condition on the kernel";
    return;
  }
  if (search_class == SearchClass::PF) {
    for (std::size_t i = 0; i < task.tokens.size(); ++i)
      for (int k = 0; k < model.r; ++k)
        for (const RationalMatrix* table : {&model.query_features, &model.key_features}) {
          const Rational& x = (*table)[i][static_cast<std::size_t>(k)];
          if (x < 0) {
            check.class_ok = false;
            check.class_detail = std::string(table == &model.query_features ? "phiQ(" : "phiK(") +
                                 task.tokens[i].to_string() + ")[" + std::to_string(k + 1) +
                                 "] = " + to_string(x) + " < 0";
            return;
          }
        }
    check.class_ok = true;
    check.class_detail =
        "PF: all " + std::to_string(2 * task.tokens.size() * static_cast<std::size_t>(model.r)) +
        " feature entries are >= 0";
    return;
  }
  const auto used = task.used_keys();
  std::size_t pairs = 0;
  for (std::size_t q = 0; q < used.size(); ++q)
    for (std::uint32_t z : used[q]) {
      ++pairs;
      if (kernel[q][z] < 0) {
        check.class_ok = false;
        check.class_detail = "alpha(" + task.tokens[q].to_string() + ", " +
                             task.tokens[z].to_string() + ") = " + to_string(kernel[q][z]) +
                             " < 0 on a used pair";
        return;
      }
    }
  check.class_ok = true;
  check.class_detail =
      "NK: kernel >= 0 on all " + std::to_string(pairs) + " used (query, key) pairs";
}

}  // namespace

ModelCheck verify_rank_model(const RankTask& task, const RankModel& model,
                             SearchClass search_class) {
  check_shape(task, model);
  ModelCheck check;
  const RationalMatrix kernel = kernel_table(model);
  const TabularModel tabular(task.m, task.tokens, kernel, model.readout);
  EvalOptions options;
  options.mode = task.mode;
  check.report = task.cube ? evaluate_cube(tabular, task.m, task.n, options)
                           : evaluate_family(tabular, *task.family, options);
  check.solves = check.report.solves();
  check.kernel_rank = exact_rank(kernel);
  check.rank_ok = check.kernel_rank <= static_cast<std::size_t>(model.r);
  check_class(task, model, kernel, search_class, check);
  return check;
}

ModelCheck verify_rank_model_on(const RankTask& task, const std::vector<std::size_t>& instance_ids,
                                const RankModel& model, SearchClass search_class) {
  check_shape(task, model);
  ModelCheck check;
  const RationalMatrix kernel = kernel_table(model);
  const TabularModel tabular(task.m, task.tokens, kernel, model.readout);
  check.report = evaluate_family(tabular, subset_family(task, instance_ids), EvalOptions{});
  check.solves = check.report.solves();
  check.kernel_rank = exact_rank(kernel);
  check.rank_ok = check.kernel_rank <= static_cast<std::size_t>(model.r);
  // The class is checked on the pairs the subset uses.
  RankTask sub = task;
  sub.instances.clear();
  for (std::size_t id : instance_ids) sub.instances.push_back(task.instances.at(id));
  check_class(sub, model, kernel, search_class, check);
  return check;
}

}  // namespace kernelrank
