// Version 2 certificate text: the order argument, inheritance, and the one-row r >= 1.
#include "kernelrank/refutation_certificate.hpp"

#include "kernelrank/errors.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace kernelrank {
namespace {

// Family instances by (query position, query token, sorted multiset of all tokens).
using Presence = std::set<std::tuple<int, std::string, std::vector<std::string>>>;

Presence family_presence(const Family& family) {
  Presence present;
  for (const Instance& inst : family.instances) {
    std::vector<std::string> keys;
    for (const Token& t : inst.tokens) keys.push_back(t.to_string());
    std::sort(keys.begin(), keys.end());
    present.emplace(inst.query, inst.tokens[static_cast<std::size_t>(inst.query)].to_string(), std::move(keys));
  }
  return present;
}

struct StepText {
  int position = 0;  // 0-based
  int k = 0;
};

// The first (k, position) at which S1, S2 and S3_k are all present with query q.
std::optional<StepText> family_step(const Presence& present, int n, const Token& q, const Token& a, const Token& b) {
  const int gap = inner(q, b) - inner(q, a);
  auto multiset = [&](int count_a) {
    std::vector<std::string> keys{q.to_string()};
    for (int i = 0; i < n - 1; ++i) keys.push_back(i < count_a ? a.to_string() : b.to_string());
    std::sort(keys.begin(), keys.end());
    return keys;
  };
  for (int k = 1; k <= n - 2 && (n - 1 - k) * (gap - 1) >= k; ++k)
    for (int p = 0; p < n; ++p) {
      const std::string qs = q.to_string();
      if (present.count({p, qs, multiset(n - 1)}) && present.count({p, qs, multiset(0)}) &&
          present.count({p, qs, multiset(k)}))
        return StepText{p, k};
    }
  return std::nullopt;
}

}  // namespace

CertificateTask certificate_task_of(const RankTask& task, SearchClass search_class) {
  CertificateTask c;
  c.m = task.m;
  c.n = task.n;
  c.mode = task.mode;
  c.positive_features = search_class == SearchClass::PF;
  return c;
}

std::optional<std::string> order_certificate(const RankTask& task, SearchClass search_class,
                                             const OrderArgument& order, int rank,
                                             const std::string& family_sha256, std::string& why_not) {
  if (!order.refuted || order.core.empty()) {
    why_not = "the order argument did not refute the task";
    return std::nullopt;
  }
  if (rank != 1 && rank != 2) throw UsageError("the order rule concerns rank 1 and 2 only");
  if (!task.cube && (!task.family || family_sha256.empty())) {
    why_not = "the task is a family without its file";
    return std::nullopt;
  }
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, int> cube_k;
  for (const DominationFact& f : domination_facts(task)) cube_k[{f.query, f.larger, f.smaller}] = f.k;
  const Presence present = task.cube ? Presence{} : family_presence(*task.family);
  const int cube_position = task.mode == QueryMode::Last ? task.n - 1 : 0;

  std::string steps, core;
  std::size_t step_count = 0;
  bool all_first = true, all_last = true;
  for (const PairSeparation& pair : order.core) {
    core += "keypair " + task.tokens[pair.a].to_string() + " " + task.tokens[pair.b].to_string() + " :";
    for (int side = 0; side < 2; ++side) {
      const std::uint32_t larger = side == 0 ? pair.a : pair.b, smaller = side == 0 ? pair.b : pair.a;
      for (std::uint32_t q : side == 0 ? pair.prefer_a : pair.prefer_b) {
        std::optional<StepText> step;
        if (task.cube) {
          const auto it = cube_k.find({q, larger, smaller});
          if (it != cube_k.end()) step = StepText{cube_position, it->second};
        } else {
          step = family_step(present, task.n, task.tokens[q], task.tokens[larger], task.tokens[smaller]);
        }
        if (!step) {
          why_not = "no query position carries S1, S2 and S3 of query " + task.tokens[q].to_string() + ", a = " +
                    task.tokens[larger].to_string() + ", b = " + task.tokens[smaller].to_string();
          return std::nullopt;
        }
        all_first = all_first && step->position == 0;
        all_last = all_last && step->position == task.n - 1;
        ++step_count;
        steps += "step " + std::to_string(step_count) + " pos=" + std::to_string(step->position + 1) +
                 " q=" + task.tokens[q].to_string() + " a=" + task.tokens[larger].to_string() +
                 " b=" + task.tokens[smaller].to_string() + " k=" + std::to_string(step->k) + "\n";
        core += " " + std::to_string(step_count);
      }
    }
    core += "\n";
  }
  CertificateTask ctask = certificate_task_of(task, search_class);
  if (!task.cube) ctask.mode = all_first ? QueryMode::First : (all_last ? QueryMode::Last : QueryMode::All);
  std::string text = "kernelrank-certificate 2\n";
  text += task.cube ? task_line(ctask, "cube") + "\n" : task_line(ctask, "family") + " sha256=" + family_sha256 + "\n";
  text += "construction order argument: " + std::to_string(order.core.size()) +
          " key pairs whose L2 separations no rank-" + std::to_string(rank) + " kernel meets\n";
  text += "rule order rank=" + std::to_string(rank) + "\n";
  text += "steps " + std::to_string(step_count) + "\n" + steps;
  text += "core " + std::to_string(order.core.size()) + "\n" + core;
  text += "claim r >= " + std::to_string(rank + 1) + "\nend\n";
  return text;
}

std::string inherit_certificate(const CertificateTask& task, const std::string& construction,
                                const std::string& embedded, const std::string& claim) {
  if (embedded.empty() || embedded.back() != '\n') throw InternalError("embedded certificate must end with a newline");
  return "kernelrank-certificate 2\n" + task_line(task, "cube") + "\nconstruction " + single_line(construction) +
         "\nrule inherit\nbegin-embedded\n" + embedded + "end-embedded\nclaim r >= " + claim + "\nend\n";
}

std::string one_row_certificate(const CertificateTask& task) {
  if (task.n < 3) throw UsageError("certificates need n >= 3");
  Token own(task.m), query(task.m);
  return "kernelrank-certificate 1\n" + task_line(task, "cube") +
         "\nconstruction one row: with no features every denominator is zero\nrule trace precision=0\nrows 1\nrow " +
         own.to_string() + " " + query.to_string() + "\nsum 1\nclaim r >= 1\nend\n";
}

}  // namespace kernelrank
