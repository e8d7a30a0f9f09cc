// Construction search and row-subset heuristic for certified rank bounds.
#include "kernelrank/bounds/bound_search.hpp"
#include "kernelrank/core/binomial.hpp"

#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/structured_codes.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kernelrank {
namespace {

constexpr std::uint8_t kSelf = 255;
constexpr std::size_t kMaxCertifiedPool = 20'000;
// Structured codes (structured_codes.hpp) above this many words are certified on an evenly
// spread subset, which keeps the exact certification and the checker within minutes.
constexpr std::size_t kMaxStructuredRows = 100'000;

// 1/R_n(G)^2 in double precision, for the heuristic only.
std::vector<double> heuristic_weights(int n, int m) {
  const AmplificationTable table(n, m);
  std::vector<double> weights(static_cast<std::size_t>(m) + 1, 0.0);
  for (int g = 2; g <= m; ++g) {
    const double r = table.at(g)->factor.convert_to<double>();
    weights[static_cast<std::size_t>(g)] = std::isfinite(r) ? 1.0 / (r * r) : 0.0;
  }
  return weights;
}

class SubsetSearch {
 public:
  SubsetSearch(const std::vector<BoundRow>& rows, int n, bool swaps)
      : N_(rows.size()), swaps_(swaps) {
    const int m = rows.front().own.width();
    weight_ = heuristic_weights(n, std::min(m, 254));
    gap_.assign(N_ * N_, kSelf);
    for (std::size_t i = 0; i < N_; ++i) {
      const int base = inner(rows[i].query, rows[i].own);
      for (std::size_t j = 0; j < N_; ++j)
        if (i != j)
          gap_[i * N_ + j] = static_cast<std::uint8_t>(
              std::clamp(inner(rows[i].query, rows[j].own) - base, 0, 254));
    }
    in_.assign(N_, true);
    c_.assign(N_, 0.0);
    share_.assign(N_, 1.0);
  }

  // Two starts (greedy growth from empty; the whole pool minus conflicts),
  // each refined by batched removals and additions; the better one wins.
  std::vector<std::size_t> run() {
    std::fill(in_.begin(), in_.end(), false);
    recompute_c();
    grow_greedily();
    refine();
    const std::vector<bool> grown = in_;
    const double grown_value = objective();

    std::fill(in_.begin(), in_.end(), true);
    remove_conflicts();
    recompute_c();
    refine();
    if (grown_value > objective()) {
      in_ = grown;
      recompute_c();
    }
    std::vector<std::size_t> chosen;
    for (std::size_t i = 0; i < N_; ++i)
      if (in_[i]) chosen.push_back(i);
    return chosen;
  }

 private:
  double w(std::size_t i, std::size_t j) const { return weight_[gap_[i * N_ + j]]; }
  // share_[j] = 1 / (1 + c_[j]), j's term of the objective, kept beside c_ so that the gain
  // loops divide once per member (the same double as computing it there).
  void set_c(std::size_t j, double value) {
    c_[j] = value;
    share_[j] = 1.0 / (1.0 + value);
  }
  bool conflict(std::size_t i, std::size_t j) const {
    return gap_[i * N_ + j] < 2 || gap_[j * N_ + i] < 2;
  }

  void refine() {
    for (int round = 0; round < 60; ++round) {
      const bool removed = improve(true);
      const bool added = improve(false);
      const bool swapped = !removed && !added && swaps_ && swap_round();
      if (!removed && !added && !swapped) break;
    }
  }

  // Swaps: a non-member l blocked by exactly one member k replaces k when that helps (the
  // moves above cannot make it: adding l is forbidden, removing k alone may not pay). This
  // is how the search chooses between alternative own tokens, e.g. suffixes of one word.
  bool swap_round() {
    std::vector<std::pair<double, std::size_t>> candidates;
    for (std::size_t l = 0; l < N_; ++l)
      if (!in_[l] && blocked_[l] == 1) {
        const double g = swap_gain(blocker_of(l), l);
        if (g > 1e-12) candidates.emplace_back(g, l);
      }
    std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    bool any = false;
    for (const auto& [stale, l] : candidates) {
      if (in_[l] || blocked_[l] != 1) continue;
      const std::size_t k = blocker_of(l);
      if (swap_gain(k, l) <= 1e-12) continue;
      toggle(k);
      toggle(l);
      any = true;
    }
    return any;
  }

  std::size_t blocker_of(std::size_t l) const {
    for (std::size_t j : members_)
      if (conflict(j, l)) return j;
    return N_;
  }

  // Change in the objective when member k leaves and non-member l joins.
  double swap_gain(std::size_t k, std::size_t l) const {
    double delta = -share_[k] + 1.0 / (1.0 + c_[l] - w(k, l));
    for (std::size_t j : members_) {
      if (j == k) continue;
      delta += 1.0 / (1.0 + c_[j] - w(k, j) + w(l, j)) - share_[j];
    }
    return delta;
  }

  // Adds the best non-conflicting word while that helps. Lazy evaluation: a
  // candidate's stale gain is recomputed only when it reaches the top.
  void grow_greedily() {
    std::vector<std::pair<double, std::size_t>> heap;
    for (std::size_t k = 0; k < N_; ++k) heap.emplace_back(gain(k, false), k);
    std::make_heap(heap.begin(), heap.end());
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end());
      auto [stale, k] = heap.back();
      heap.pop_back();
      if (in_[k] || !can_add(k)) continue;
      const double fresh = gain(k, false);
      if (fresh <= 1e-12) continue;
      if (!heap.empty() && fresh < heap.front().first) {
        heap.emplace_back(fresh, k);
        std::push_heap(heap.begin(), heap.end());
        continue;
      }
      toggle(k);
    }
  }

  void remove_conflicts() {
    std::vector<std::size_t> count(N_, 0);
    for (std::size_t i = 0; i < N_; ++i)
      for (std::size_t j = i + 1; j < N_; ++j)
        if (conflict(i, j)) ++count[i], ++count[j];
    while (true) {
      std::size_t worst = N_;
      for (std::size_t i = 0; i < N_; ++i)
        if (in_[i] && count[i] > 0 && (worst == N_ || count[i] > count[worst])) worst = i;
      if (worst == N_) return;
      in_[worst] = false;
      for (std::size_t j = 0; j < N_; ++j)
        if (in_[j] && j != worst && conflict(worst, j)) --count[j];
    }
  }

  // Rebuilds c, the member list and the conflict counts from in_.
  void recompute_c() {
    std::fill(c_.begin(), c_.end(), 0.0);
    blocked_.assign(N_, 0);
    members_.clear();
    for (std::size_t i = 0; i < N_; ++i) {
      if (!in_[i]) continue;
      members_.push_back(i);
      for (std::size_t j = 0; j < N_; ++j) {
        if (j != i) c_[j] += w(i, j);
        if (j != i && conflict(i, j)) ++blocked_[j];
      }
    }
    for (std::size_t j = 0; j < N_; ++j) set_c(j, c_[j]);
  }

  double objective() const {
    double total = 0;
    for (std::size_t j : members_) total += share_[j];
    return total;
  }

  // Change in the objective when k leaves (removal) or joins (addition) S.
  // Not inlined: in its own frame the running sum stays in a register.
  [[gnu::noinline]] double gain(std::size_t k, bool removal) const {
    double delta = removal ? -share_[k] : share_[k];
    const std::uint8_t* gaps = &gap_[k * N_];
    for (std::size_t j : members_) {
      if (j == k) continue;
      const double shifted = removal ? c_[j] - weight_[gaps[j]] : c_[j] + weight_[gaps[j]];
      delta += 1.0 / (1.0 + shifted) - share_[j];
    }
    return delta;
  }

  void toggle(std::size_t k) {
    in_[k] = !in_[k];
    if (in_[k]) {
      members_.push_back(k);
    } else {
      members_.erase(std::find(members_.begin(), members_.end(), k));
    }
    const double sign = in_[k] ? 1.0 : -1.0;
    for (std::size_t j = 0; j < N_; ++j) {
      if (j != k) set_c(j, c_[j] + sign * w(k, j));
      if (conflict(k, j)) blocked_[j] += in_[k] ? 1 : -1;
    }
  }

  bool can_add(std::size_t k) const { return blocked_[k] == 0; }

  // One batch of the best positive moves; keeps the batch only if it helps.
  bool improve(bool removal) {
    std::vector<std::pair<double, std::size_t>> gains;
    for (std::size_t k = 0; k < N_; ++k) {
      if (in_[k] != removal) continue;
      if (!removal && !can_add(k)) continue;
      const double g = gain(k, removal);
      if (g > 1e-12) gains.emplace_back(g, k);
    }
    if (gains.empty()) return false;
    std::sort(gains.begin(), gains.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::size_t active = 0;
    for (bool x : in_) active += x;
    const std::size_t batch = std::max<std::size_t>(1, std::min(gains.size(), active / 100));
    const double before = objective();
    std::vector<std::size_t> moved;
    for (std::size_t b = 0; b < batch; ++b) {
      const std::size_t k = gains[b].second;
      if (!removal && !can_add(k)) continue;
      toggle(k);
      moved.push_back(k);
    }
    if (objective() > before + 1e-12) return true;
    for (auto it = moved.rbegin(); it != moved.rend(); ++it) toggle(*it);
    toggle(gains.front().second);  // fall back to the single best move
    if (objective() > before + 1e-12) return true;
    toggle(gains.front().second);
    return false;
  }

  std::size_t N_;
  bool swaps_ = false;
  std::vector<double> weight_;
  std::vector<std::uint8_t> gap_;
  std::vector<bool> in_;
  std::vector<double> c_;
  std::vector<double> share_;
  std::vector<std::size_t> members_;
  std::vector<int> blocked_;  // members in conflict with each word
};

// best_rank_bound without the dominance pass when it cannot apply: the trace pass's gap
// histogram gives the sum of 1/rho over all ordered pairs, and if that exceeds N some row's
// sum exceeds 1. Same result as best_rank_bound, one O(N^2) pass fewer for large pools.
RankBoundResult best_bound(const std::vector<BoundRow>& rows, int n) {
  RankBoundResult trace = certify_rank_bound(rows, n, BoundRule::Trace);
  if (!trace.applicable) return trace;
  const AmplificationTable table(n, rows.front().own.width());
  Rational total = 0;
  for (const auto& [g, count] : trace.gap_histogram)
    total += make_rational(Integer(count), table.at(g)->factor);
  if (total > static_cast<long>(rows.size())) return trace;
  RankBoundResult dominance = certify_rank_bound(rows, n, BoundRule::Dominance);
  return dominance.applicable && dominance.bound > trace.bound ? dominance : trace;
}

}  // namespace

std::vector<std::size_t> optimise_row_subset(const std::vector<BoundRow>& rows, int n,
                                             std::size_t max_pool, bool swaps) {
  if (rows.empty()) return {};
  if (rows.size() > max_pool) {
    std::vector<std::size_t> all(rows.size());
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
  return SubsetSearch(rows, n, swaps).run();
}

BoundSearchEntry certify_pool(const std::string& construction, const std::vector<Token>& pool,
                              int n, bool subset_search, BoundCandidate* rows_out, bool swaps) {
  BoundSearchEntry entry;
  entry.construction = construction;
  entry.pool = pool.size();
  std::vector<BoundRow> rows = complement_rows(pool);
  if (subset_search) {
    std::vector<BoundRow> chosen;
    for (std::size_t i : optimise_row_subset(rows, n, 12'000, swaps)) chosen.push_back(rows[i]);
    if (!chosen.empty()) rows = std::move(chosen);
  }
  entry.rows = rows.size();
  entry.bound = best_bound(rows, n);
  if (rows_out) *rows_out = BoundCandidate{construction, std::move(rows)};
  return entry;
}

std::optional<BoundSearchResult> find_rank_bound(const BoundSearchOptions& options,
                                                 std::string* why_not) {
  const int m = options.m, n = options.n;
  if (m < 2 || m > 4096) throw DomainError("{m} must be in 2..4096");
  if (n < 3 || n > 1000) throw DomainError("{n} must be in 3..1000 (rank 1 suffices below 3)");
  BoundSearchResult result;
  bool have_best = false;
  auto consider = [&](const std::string& construction, const std::vector<Token>& pool,
                      bool swaps = false) {
    if (pool.empty()) return;
    if (options.log) options.log(construction + " (" + std::to_string(pool.size()) + " words)");
    BoundCandidate rows;
    BoundSearchEntry entry =
        certify_pool(construction, pool, n, options.subset_search, &rows, swaps);
    if (entry.bound.applicable && (!have_best || entry.bound.bound > result.bound.bound)) {
      have_best = true;
      result.best = std::move(rows);
      result.bound = entry.bound;
    }
    result.tried.push_back(std::move(entry));
  };
  if (!options.code_file.empty()) {
    const Code code = read_code(options.code_file);
    if (code.m != m)
      throw DomainError("the code in " + ParameterMessage::literal(options.code_file) +
                        " has width " + std::to_string(code.m) + ", not {m} " + std::to_string(m));
    consider("code " + options.code_file, code.words);
  } else {
    if (m == 24) {
      consider("golay octads", golay_octads().words);
      consider("golay dodecads", golay_dodecads().words);
    }
    const int half = m / 2;
    // Johnson subsets: small scheme, the subset search picks the rows.
    for (int w : {half, half - 1}) {
      if (w < 2) continue;
      if (binomial_saturating(m, w) <= 3000)
        consider("johnson m=" + std::to_string(m) + " w=" + std::to_string(w),
                 johnson_code(m, w).words);
    }
    for (int d = 4; d <= std::min(m, 2 * half); d += 2) {
      for (int w : {half, half + 1, half - 1}) {
        if (w < 2 || w > m || d > 2 * std::min(w, m - w)) continue;
        // Small distances give huge lexicodes whose bound is no better than
        // the d >= 6 ones; they are skipped to keep the search in seconds.
        if (binomial_saturating(m, w) <= 3'000'000 && (d >= 6 || m <= 16)) {
          const Code code = lexicode(m, w, d);
          if (code.words.size() >= 2 && code.words.size() <= kMaxCertifiedPool)
            consider(code.construction, code.words);
        }
      }
    }
    if (m > 16) {
      for (int s = 0; s < options.effort; ++s) {
        const std::uint64_t seed = options.seed + static_cast<std::uint64_t>(s);
        std::vector<int> distances;
        for (int d : {m / 4, m / 3, (3 * m) / 8}) {
          const int even_d = std::max(4, d - d % 2);
          if (std::find(distances.begin(), distances.end(), even_d) == distances.end())
            distances.push_back(even_d);
        }
        for (int even_d : distances) {
          const Code code = random_greedy_code(m, half, even_d, seed, 2000, 12'000);
          if (code.words.size() >= 2) consider(code.construction, code.words);
        }
      }
    }
    // Structured codes (m = 24..48): Hadamard, RM(2,5), dual BCH, QR(48) and their shortened
    // and extended variants; tried last, so the constructions above keep their rows on ties.
    // Their subset search also swaps rows (own tokens), which the older constructions' rows
    // never did (kept so their certificates stay byte-identical).
    for (const StructuredCode& s : structured_bound_codes(m, kMaxStructuredRows))
      consider(s.construction, s.code.words, true);
  }
  if (!have_best) {
    if (why_not) *why_not = "no construction gave a certified bound for m=" + std::to_string(m);
    return std::nullopt;
  }
  return result;
}

BoundSearchResult search_rank_bound(const BoundSearchOptions& options) {
  std::string why_not;
  std::optional<BoundSearchResult> result = find_rank_bound(options, &why_not);
  if (!result) throw UsageError(why_not);
  return std::move(*result);
}

BoundSearchOptions default_bound_search_options(int m, int n) {
  BoundSearchOptions options;
  options.m = m;
  options.n = n;
  return options;
}

}  // namespace kernelrank
