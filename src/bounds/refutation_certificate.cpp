// Version 2 certificate text: the order argument, inheritance, and the one-row r >= 1.
#include "kernelrank/bounds/refutation_certificate.hpp"

#include "kernelrank/core/errors.hpp"

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
    present.emplace(inst.query, inst.tokens[static_cast<std::size_t>(inst.query)].to_string(),
                    std::move(keys));
  }
  return present;
}

struct StepText {
  int position = 0;  // 0-based
  int k = 0;
};

// The first (k, position) at which S1, S2 and S3_k are all present with query q.
std::optional<StepText> family_step(const Presence& present, int n, const Token& q, const Token& a,
                                    const Token& b) {
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
                                             const std::string& family_sha256,
                                             std::string& why_not) {
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
  for (const DominationFact& f : domination_facts(task))
    cube_k[{f.query, f.larger, f.smaller}] = f.k;
  const Presence present = task.cube ? Presence{} : family_presence(*task.family);
  const int cube_position = task.mode == QueryMode::Last ? task.n - 1 : 0;

  std::string steps, core;
  std::size_t step_count = 0;
  bool all_first = true, all_last = true;
  for (const PairSeparation& pair : order.core) {
    core +=
        "keypair " + task.tokens[pair.a].to_string() + " " + task.tokens[pair.b].to_string() + " :";
    for (int side = 0; side < 2; ++side) {
      const std::uint32_t larger = side == 0 ? pair.a : pair.b,
                          smaller = side == 0 ? pair.b : pair.a;
      for (std::uint32_t q : side == 0 ? pair.prefer_a : pair.prefer_b) {
        std::optional<StepText> step;
        if (task.cube) {
          const auto it = cube_k.find({q, larger, smaller});
          if (it != cube_k.end()) step = StepText{cube_position, it->second};
        } else {
          step = family_step(present, task.n, task.tokens[q], task.tokens[larger],
                             task.tokens[smaller]);
        }
        if (!step) {
          why_not = "no query position carries S1, S2 and S3 of query " +
                    task.tokens[q].to_string() + ", a = " + task.tokens[larger].to_string() +
                    ", b = " + task.tokens[smaller].to_string();
          return std::nullopt;
        }
        all_first = all_first && step->position == 0;
        all_last = all_last && step->position == task.n - 1;
        ++step_count;
        steps += "step " + std::to_string(step_count) +
                 " pos=" + std::to_string(step->position + 1) + " q=" + task.tokens[q].to_string() +
                 " a=" + task.tokens[larger].to_string() +
                 " b=" + task.tokens[smaller].to_string() + " k=" + std::to_string(step->k) + "\n";
        core += " " + std::to_string(step_count);
      }
    }
    core += "\n";
  }
  CertificateTask ctask = certificate_task_of(task, search_class);
  if (!task.cube)
    ctask.mode = all_first ? QueryMode::First : (all_last ? QueryMode::Last : QueryMode::All);
  std::string text = "kernelrank-certificate 2\n";
  text += task.cube ? task_line(ctask, "cube") + "\n"
                    : task_line(ctask, "family") + " sha256=" + family_sha256 + "\n";
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
  if (embedded.empty() || embedded.back() != '\n')
    throw InternalError("embedded certificate must end with a newline");
  return "kernelrank-certificate 2\n" + task_line(task, "cube") + "\nconstruction " +
         single_line(construction) + "\nrule inherit\nbegin-embedded\n" + embedded +
         "end-embedded\nclaim r >= " + claim + "\nend\n";
}

std::string dependence_certificate(const CertificateTask& task) {
  const int queries = task.m / 2;  // R + 1
  if (queries < 2 || queries > 8) throw UsageError("the dependence certificate needs m in 4..17");
  if (task.n < 3 || task.position_dependent)
    throw UsageError("the dependence certificate needs n >= 3, positions independent");
  auto pair_token = [&](const std::vector<int>& members) {
    Token t(task.m);
    for (int i : members) {
      t.set(2 * i, true);
      t.set(2 * i + 1, true);
    }
    return t;
  };
  std::vector<Token> q;
  for (int i = 0; i < queries; ++i) q.push_back(pair_token({i}));
  const int position = task.mode == QueryMode::Last ? task.n : 1;
  std::string steps, covers;
  std::size_t step_count = 0, cover_count = 0;
  std::vector<int> signs(static_cast<std::size_t>(queries), 0);
  for (int index = 0; index < (1 << queries); ++index) {
    // Full patterns only: one agreeing with a partial pattern on its support covers it too.
    // Query 1 is the most significant digit; mixed ones only (the cube needs no one-signed
    // pattern), each once up to negation: query 1 is '+'.
    for (int j = queries - 1, rest = index; j >= 0; --j, rest /= 2)
      signs[static_cast<std::size_t>(j)] = rest % 2 ? -1 : 1;
    std::vector<int> plus, minus;
    for (int j = 0; j < queries; ++j)
      (signs[static_cast<std::size_t>(j)] > 0 ? plus : minus).push_back(j);
    if (plus.empty() || minus.empty() || plus.front() != 0) continue;
    const Token a = pair_token(minus), b = pair_token(plus);
    std::string line = "cover ";
    for (int j = 0; j < queries; ++j) line += signs[static_cast<std::size_t>(j)] > 0 ? '+' : '-';
    line += " " + a.to_string() + " " + b.to_string() + " :";
    for (int j = 0; j < queries; ++j) {
      const int s = signs[static_cast<std::size_t>(j)];
      // '+': alpha(q_j, A) > alpha(q_j, B), since <q_j,B> - <q_j,A> = 2; '-' the reverse.
      const Token& larger = s > 0 ? a : b;
      const Token& smaller = s > 0 ? b : a;
      ++step_count;
      steps += "step " + std::to_string(step_count) + " pos=" + std::to_string(position) +
               " q=" + q[static_cast<std::size_t>(j)].to_string() + " a=" + larger.to_string() +
               " b=" + smaller.to_string() + " k=1\n";
      line += " " + std::to_string(step_count);
    }
    covers += line + "\n";
    ++cover_count;
  }
  std::string text = "kernelrank-certificate 2\n" + task_line(task, "cube") + "\n";
  text += "construction linear dependence of " + std::to_string(queries) +
          " query rows with disjoint pairs of ones\n";
  text += "rule dependence rank=" + std::to_string(queries - 1) + "\n";
  text += "queries " + std::to_string(queries) + "\n";
  for (const Token& t : q) text += "query " + t.to_string() + "\n";
  text += "steps " + std::to_string(step_count) + "\n" + steps;
  text += "covers " + std::to_string(cover_count) + "\n" + covers;
  return text + "claim r >= " + std::to_string(queries) + "\nend\n";
}

std::string one_row_certificate(const CertificateTask& task) {
  if (task.n < 3) throw UsageError("certificates need n >= 3");
  Token own(task.m), query(task.m);
  return "kernelrank-certificate 1\n" + task_line(task, "cube") +
         "\nconstruction one row: with no features every denominator is zero\nrule trace "
         "precision=0\nrows 1\nrow " +
         own.to_string() + " " + query.to_string() + "\nsum 1\nclaim r >= 1\nend\n";
}

}  // namespace kernelrank
