// Gap histograms and the cube rules; see cube_rule.hpp.
#include "check/cube_rule.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <vector>

#include "check/amplification.hpp"
#include "check/conclusion.hpp"
#include "check/parallel.hpp"
#include "check/status.hpp"

// The histogram loop is nothing but popcounts. Baseline x86-64 has no popcnt instruction,
// so GCC builds a second copy of the loop for CPUs that have one and picks it at load time.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define KRCHECK_POPCOUNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define KRCHECK_POPCOUNT_CLONES
#endif

namespace krcheck {
namespace {

// For every t except `skip`: ++histogram[<fixed, tokens_t> - offsets[t]]. `histogram`
// points at the slot of gap 0 and must be valid for gaps -m..m.
KRCHECK_POPCOUNT_CLONES
void count_gaps(const std::uint64_t* fixed, const TokenMatrix& tokens, const int* offsets,
                std::size_t skip, std::uint32_t* histogram) {
  const std::size_t words = tokens.words();
  const std::size_t count = tokens.size();
  const std::uint64_t* data = tokens.data();
  int skipped_overlap = 0;
  if (words == 1) {
    const std::uint64_t x = fixed[0];
    for (std::size_t t = 0; t < count; ++t) ++histogram[std::popcount(x & data[t]) - offsets[t]];
    skipped_overlap = std::popcount(x & data[skip]);
  } else {
    for (std::size_t t = 0; t < count; ++t) {
      const std::uint64_t* z = data + t * words;
      int total = 0;
      for (std::size_t w = 0; w < words; ++w) total += std::popcount(fixed[w] & z[w]);
      ++histogram[total - offsets[t]];
    }
    skipped_overlap = overlap(fixed, data + skip * words, words);
  }
  --histogram[skipped_overlap - offsets[skip]];  // the diagonal was counted above
}

std::vector<int> own_overlaps(const Certificate& cert) {
  std::vector<int> own(cert.row_count());
  for (std::size_t i = 0; i < own.size(); ++i)
    own[i] = overlap(cert.query.row(i), cert.own.row(i), cert.query.words());
  return own;
}

int gap(const Certificate& cert, const std::vector<int>& own, std::size_t i, std::size_t j) {
  return overlap(cert.query.row(i), cert.own.row(j), cert.query.words()) - own[i];
}

// Called once some gap is known to be < 2: names the first such pair in row order.
[[noreturn]] void fail_first_small_gap(const Certificate& cert, const std::vector<int>& own,
                                       std::size_t first_row) {
  for (std::size_t i = first_row; i < cert.row_count(); ++i)
    for (std::size_t j = 0; j < cert.row_count(); ++j) {
      if (i == j) continue;
      const int g = gap(cert, own, i, j);
      if (g >= 2) continue;
      fail_check(cert.file, cert.row_lines[i],
                 "rows " + std::to_string(i + 1) + " and " + std::to_string(j + 1) +
                     ": gap G = <q_i,c_j> - <q_i,c_i> = " + std::to_string(g + own[i]) + " - " +
                     std::to_string(own[i]) + " = " + std::to_string(g) + " < 2 (row " +
                     std::to_string(j + 1) + " is on line " + std::to_string(cert.row_lines[j]) +
                     ")");
    }
  throw std::logic_error("a gap below 2 was counted but not found again");
}

bool has_small_gap(const std::vector<std::uint32_t>& histogram, int m) {
  // Slots m + gap for gap = -m .. 1.
  return std::any_of(histogram.begin(), histogram.begin() + m + 2,
                     [](std::uint32_t count) { return count != 0; });
}

}  // namespace

BigInt cube_trace_sum(const Certificate& cert, int threads) {
  const int m = cert.m;
  const std::vector<int> own = own_overlaps(cert);
  const std::size_t columns = cert.row_count();
  std::vector<BigInt> terms(columns);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> small_gap{false};
  constexpr std::size_t kColumnsPerTask = 16;
  const std::size_t tasks = (columns + kColumnsPerTask - 1) / kColumnsPerTask;
  const int workers = static_cast<int>(std::min<std::size_t>(
      static_cast<std::size_t>(resolve_threads(threads)), std::max<std::size_t>(tasks, 1)));
  run_workers(workers, [&](int) {
    AmplificationTable amplification(cert.n);  // grows on demand: one per worker
    std::vector<std::uint32_t> histogram(static_cast<std::size_t>(2 * m + 1));
    while (!small_gap.load(std::memory_order_relaxed)) {
      const std::size_t task = next.fetch_add(1, std::memory_order_relaxed);
      if (task >= tasks) break;
      const std::size_t end = std::min(columns, (task + 1) * kColumnsPerTask);
      for (std::size_t j = task * kColumnsPerTask; j < end; ++j) {
        // Column j: the rows i != j, G_ij = <q_i, c_j> - <q_i, c_i>.
        std::fill(histogram.begin(), histogram.end(), 0);
        count_gaps(cert.own.row(j), cert.query, own.data(), j, histogram.data() + m);
        if (has_small_gap(histogram, m)) {
          small_gap.store(true, std::memory_order_relaxed);
          return;
        }
        Rational one_plus_c = 1;
        for (int g = 2; g <= m; ++g) {
          const std::uint32_t count = histogram[static_cast<std::size_t>(m + g)];
          if (count != 0) one_plus_c += Rational(BigInt(count), amplification.factor_squared(g));
        }
        terms[j] = trace_term(one_plus_c, cert.precision);
      }
    }
  });
  // Named by a scan of all pairs in row order, whichever column a worker stopped at.
  if (small_gap.load()) fail_first_small_gap(cert, own, 0);
  BigInt total = 0;
  for (const BigInt& term : terms) total += term;
  return total;
}

Rational cube_dominance_max_row_sum(const Certificate& cert) {
  const int m = cert.m;
  const std::vector<int> own = own_overlaps(cert);
  const std::vector<int> no_offsets(cert.row_count(), 0);
  AmplificationTable amplification(cert.n);
  std::vector<std::uint32_t> histogram(static_cast<std::size_t>(2 * m + 1));
  Rational largest = 0;
  for (std::size_t i = 0; i < cert.row_count(); ++i) {
    // Row i: the columns j != i. Counting raw overlaps <q_i, c_j> into a histogram shifted
    // by the constant <q_i, c_i> puts each at the slot of its gap.
    std::fill(histogram.begin(), histogram.end(), 0);
    count_gaps(cert.query.row(i), cert.own, no_offsets.data(), i, histogram.data() + m - own[i]);
    if (has_small_gap(histogram, m)) fail_first_small_gap(cert, own, i);
    Rational row_sum = 0;
    for (int g = 2; g <= m; ++g) {
      const std::uint32_t count = histogram[static_cast<std::size_t>(m + g)];
      if (count != 0) row_sum += Rational(BigInt(count), amplification.factor(g));
    }
    if (row_sum > 1)
      fail_check(cert.file, cert.row_lines[i],
                 "row " + std::to_string(i + 1) + ": sum over j != i of 1/R_N(G_ij) = " +
                     to_text(row_sum) + " > 1, not diagonally dominant");
    largest = std::max(largest, row_sum);
  }
  return largest;
}

}  // namespace krcheck
