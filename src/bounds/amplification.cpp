#include "kernelrank/bounds/amplification.hpp"

#include "kernelrank/core/errors.hpp"

namespace kernelrank {

Rational gap_domination_factor(int n, int gap, int k) {
  if (n < 3) throw UsageError("gap domination needs n >= 3");
  if (k < 1 || k > n - 2) throw UsageError("S3_k needs 1 <= k <= n-2");
  if (gap < 2) throw UsageError("gap domination needs a gap >= 2");
  return Rational(static_cast<long>(n - 1 - k) * (gap - 1), k);
}

AmplificationTable::AmplificationTable(int n, int max_gap) : n_(n) {
  if (n < 3) throw UsageError("amplification needs n >= 3");
  if (max_gap < 0) throw UsageError("max gap must be >= 0");
  best_.resize(static_cast<std::size_t>(max_gap) + 1);
  best_[0] = Amplification{Integer(1), {}};
  for (int total = 2; total <= max_gap; ++total) {
    std::optional<Amplification> best;
    // Last part g; ties keep the split with the largest last part found first,
    // which makes the recorded split deterministic.
    for (int g = total; g >= 2; --g) {
      const auto& rest = best_[static_cast<std::size_t>(total - g)];
      if (!rest) continue;
      Integer candidate = rest->factor * Integer(static_cast<long>(n - 2) * (g - 1));
      if (!best || candidate > best->factor) {
        best = Amplification{candidate, rest->parts};
        best->parts.push_back(g);
      }
    }
    best_[static_cast<std::size_t>(total)] = std::move(best);
  }
}

const std::optional<Amplification>& AmplificationTable::at(int gap) const {
  static const std::optional<Amplification> none;
  if (gap < 0 || gap > max_gap()) return none;
  return best_[static_cast<std::size_t>(gap)];
}

DominationStep domination_step(const Token& q, const Token& a, const Token& b, int n, int k) {
  if (n < 3) throw UsageError("domination steps need n >= 3");
  if (k < 1 || k > n - 2) throw UsageError("S3_k needs 1 <= k <= n-2");
  DominationStep step{q, a, b, k, {}, {}, {}};
  auto build = [&](int count_a) {
    Instance instance;
    instance.query = 0;
    instance.tokens.push_back(q);
    for (int i = 0; i < count_a; ++i) instance.tokens.push_back(a);
    for (int i = count_a; i < n - 1; ++i) instance.tokens.push_back(b);
    return instance;
  };
  step.s1 = build(n - 1);
  step.s2 = build(0);
  step.s3 = build(k);
  return step;
}

std::vector<Token> cube_chain(const Token& q, const Token& from, const Token& to,
                              const std::vector<int>& parts) {
  int total = 0;
  for (int p : parts) total += p;
  const int start = inner(q, from);
  if (start + total != inner(q, to))
    throw UsageError("cube_chain: the parts do not add up to the overlap difference");
  // Intermediates: `from` plus the first few coordinates of q it lacks.
  std::vector<int> missing;
  for (int i = 0; i < q.width(); ++i)
    if (q.get(i) && !from.get(i)) missing.push_back(i);
  std::vector<Token> chain{from};
  Token current = from;
  std::size_t used = 0;
  for (std::size_t s = 0; s + 1 < parts.size(); ++s) {
    for (int added = 0; added < parts[s]; ++added) current.set(missing[used++], true);
    chain.push_back(current);
  }
  if (!parts.empty()) chain.push_back(to);
  return chain;
}

}  // namespace kernelrank
