// One long main() (a dispatch over survey modes, over 100 lines): a research script run by hand.
// Survey behind docs/bounds.md ("Past the ceiling"): for structured constant-weight codes,
// the gap distribution and the column-weighted trace value T = sum_j 1/(1 + c_j),
// c_j = sum_{i != j} R_3(G_ij)^-2, in double precision (exact over all columns for small
// codes, else averaged over evenly spaced sample columns and scaled by N). Only a survey:
// the table's rows come from `kernelrank bound`, certified exactly and checked.
//
//   cmake --build build-codes --target kernelrank_core
//   g++ -O2 -std=c++20 -march=native -Iinclude -o /tmp/survey
//       scripts/research/structured_code_survey.cpp src/core/structured_codes.cpp
//       build-codes/libkernelrank_core.a -lgmp          (one command line)
//   /tmp/survey all
#include "kernelrank/core/structured_codes.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace kernelrank;

namespace {

std::vector<double> r3(int m) {
  std::vector<double> best(static_cast<std::size_t>(m) + 1, -1);
  best[0] = 1;
  for (int g = 2; g <= m; ++g)
    for (int part = 2; part <= g; ++part)
      if (best[static_cast<std::size_t>(g - part)] > 0)
        best[static_cast<std::size_t>(g)] =
            std::max(best[static_cast<std::size_t>(g)],
                     best[static_cast<std::size_t>(g - part)] * (part - 1));
  return best;
}

bool shifted_survey = false;

void survey(const std::string& label, int m, const std::vector<std::uint64_t>& words,
            std::size_t samples = 400) {
  const std::size_t N = words.size();
  if (N < 2) {
    std::printf("%-60s m=%d N=%zu (too few)\n", label.c_str(), m, N);
    return;
  }
  const std::vector<double> R = r3(m);
  std::vector<double> f(static_cast<std::size_t>(m) + 1, 0);
  for (int g = 2; g <= m; ++g)
    f[static_cast<std::size_t>(g)] =
        1 / (R[static_cast<std::size_t>(g)] * R[static_cast<std::size_t>(g)]);
  const std::size_t step = N <= samples ? 1 : N / samples;
  std::map<int, double> hist;
  std::vector<std::vector<std::uint64_t>> column_histograms;
  double term_sum = 0, cmin = 1e300, cmax = 0;
  std::size_t columns = 0, bad = 0;
  for (std::size_t j = 0; j < N; j += step) {
    double c = 0;
    std::vector<std::uint64_t> h(static_cast<std::size_t>(m) + 1, 0);
    for (std::size_t i = 0; i < N; ++i) {
      if (i == j) continue;
      ++h[static_cast<std::size_t>(std::popcount(words[j] & ~words[i]))];
    }
    for (int g = 0; g <= m; ++g) {
      if (h[static_cast<std::size_t>(g)] == 0) continue;
      hist[g] += static_cast<double>(h[static_cast<std::size_t>(g)]);
      if (g < 2) bad += h[static_cast<std::size_t>(g)];
      c += static_cast<double>(h[static_cast<std::size_t>(g)]) * f[static_cast<std::size_t>(g)];
    }
    term_sum += 1 / (1 + c);
    column_histograms.push_back(h);
    cmin = std::min(cmin, c);
    cmax = std::max(cmax, c);
    ++columns;
  }
  const double T = term_sum / static_cast<double>(columns) * static_cast<double>(N);
  double pairs = 0, e = 0;
  for (auto [g, count] : hist) {
    pairs += count;
    if (g >= 2) e += count * f[static_cast<std::size_t>(g)];
  }
  std::printf("%-60s m=%d N=%zu T=%.2f 1/E=%.2f c=[%.1f,%.1f]%s gaps:", label.c_str(), m, N, T,
              pairs / e, cmin, cmax, bad ? " CONFLICTS" : "");
  for (auto [g, count] : hist) std::printf(" %d:%.4f", g, count / pairs);
  std::printf("\n");
  if (shifted_survey) {
    // The shifted trace rule (docs/bounds.md): W = alpha J + beta G costs rank 1 (beta = 0) or
    // m + 1; T_W = sum_j (1-alpha)^2 / ((1-alpha)^2 + sum_i e_ij^2), e = max(|W|, |1/R - W|).
    auto shifted = [&](double alpha, double beta) {
      double total = 0;
      for (const auto& h : column_histograms) {
        double C = 0;
        for (int g = 2; g <= m; ++g) {
          if (h[static_cast<std::size_t>(g)] == 0) continue;
          const double W = alpha + beta * g, eps = 1 / R[static_cast<std::size_t>(g)];
          const double bound = std::max(std::fabs(W), std::fabs(eps - W));
          C += static_cast<double>(h[static_cast<std::size_t>(g)]) * bound * bound;
        }
        const double d = (1 - alpha) * (1 - alpha);
        total += d / (d + C);
      }
      return total / static_cast<double>(column_histograms.size()) * static_cast<double>(N);
    };
    double best_t = 0, best_tv = 0, best_a = 0, best_b = 0, best_av = 0;
    for (int a = 0; a < 400; ++a) {
      const double v = shifted(a / 2000.0, 0);
      if (v > best_tv) best_tv = v, best_t = a / 2000.0;
    }
    for (int a = 0; a < 300; a += 2)
      for (int b = 0; b < 200; b += 2) {
        const double v = shifted(a / 1000.0, -b / 20000.0);
        if (v > best_av) best_av = v, best_a = a / 1000.0, best_b = -b / 20000.0;
      }
    std::printf(
        "    shifted: t=%.4f -> T-1 = %.1f; affine alpha=%.3f beta=%.5f -> T-(m+1) = %.1f\n",
        best_t, best_tv - 1, best_a, best_b, best_av - (m + 1));
  }
  std::fflush(stdout);
}

std::vector<int> identity_table(std::size_t k) {
  std::vector<int> t(std::size_t{1} << k);
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<int>(i);
  return t;
}

// The first s coordinates fixed to a pattern with `ones` ones (the lowest ones coordinates).
std::vector<std::uint64_t> shortened(const std::vector<std::uint64_t>& words, int m, int s,
                                     int ones) {
  const std::uint64_t fixed = (std::uint64_t{1} << s) - 1, pattern = (std::uint64_t{1} << ones) - 1;
  return restrict_words(words, m, fixed, pattern);
}

// Suffix bits as a table F of parities <a_k, x>: the cells of (phi_1..phi_K) get suffixes
// F(cell) in {0,1}^t. Cell-pair gap histograms make the (cell-averaged) trace value of a table
// cheap; hill climbing with restarts (fixed LCG) picks F, then the code is surveyed.
void table_search(const std::string& label, const std::vector<std::uint64_t>& words, int m0,
                  const std::vector<std::uint64_t>& masks, int t) {
  const std::size_t K = masks.size(), cells_n = std::size_t{1} << K,
                    G = static_cast<std::size_t>(m0) + 1;
  auto cell = [&](std::uint64_t x) {
    std::size_t c = 0;
    for (std::size_t k = 0; k < K; ++k)
      c |= static_cast<std::size_t>(std::popcount(x & masks[k]) & 1) << k;
    return c;
  };
  std::vector<std::size_t> cells;
  for (std::uint64_t x : words) cells.push_back(cell(x));
  std::vector<double> H(cells_n * cells_n * G, 0), count(cells_n, 0);
  for (std::size_t j = 0; j < words.size(); ++j) {
    ++count[cells[j]];
    for (std::size_t i = 0; i < words.size(); ++i)
      if (i != j)
        H[(cells[i] * cells_n + cells[j]) * G +
          static_cast<std::size_t>(std::popcount(words[j] & ~words[i]))] += 1;
  }
  const std::vector<double> R = r3(m0 + t);
  auto value = [&](const std::vector<int>& F) {
    double T = 0;
    for (std::size_t v = 0; v < cells_n; ++v) {
      if (count[v] == 0) continue;
      double c = 0;
      for (std::size_t u = 0; u < cells_n; ++u) {
        const int shift = std::popcount(static_cast<unsigned>(F[v] & ~F[u]));
        for (std::size_t g = 2; g < G; ++g) {
          const double h = H[(u * cells_n + v) * G + g];
          if (h != 0)
            c += h /
                 (R[g + static_cast<std::size_t>(shift)] * R[g + static_cast<std::size_t>(shift)]);
        }
        if (H[(u * cells_n + v) * G + 1] + H[(u * cells_n + v) * G] != 0 && shift + 1 < 2)
          c += 1e9;  // conflicts
      }
      T += count[v] / (1 + c / count[v]);
    }
    return T;
  };
  std::uint64_t state = 7;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  std::vector<int> best;
  double best_value = 0;
  for (int restart = 0; restart < 30; ++restart) {
    std::vector<int> F(cells_n);
    for (int& x : F) x = static_cast<int>(next() % (1U << t));
    double v = value(F);
    for (bool improved = true; improved;) {
      improved = false;
      for (std::size_t cv = 0; cv < cells_n; ++cv)
        for (int s = 0; s < (1 << t); ++s) {
          const int old = F[cv];
          if (s == old) continue;
          F[cv] = s;
          const double w = value(F);
          if (w > v + 1e-9) {
            v = w;
            improved = true;
          } else {
            F[cv] = old;
          }
        }
    }
    if (v > best_value) best_value = v, best = F;
  }
  std::printf("%s t=%d masks:", label.c_str(), t);
  for (std::uint64_t a : masks) std::printf(" %llx", static_cast<unsigned long long>(a));
  std::printf(" table:");
  for (int x : best) std::printf(" %d", x);
  std::printf("  (cell-averaged T=%.2f)\n", best_value);
  survey(label + " + table suffix t=" + std::to_string(t), m0 + t,
         extend_by_parity_table(words, m0, masks, best, t), 3000);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "all";
  shifted_survey = argc > 2 && std::strcmp(argv[2], "shifted") == 0;
  auto want = [&](const char* name) { return what == "all" || what == name; };
  if (want("m32")) {
    const LinearCode rm = reed_muller_code(2, 5);
    survey("RM(2,5) weight 16", 32, codewords_of_weight(rm, 16), 36518);
    survey("dual BCH [32,11,12] weight 16", 32, codewords_of_weight(dual_bch_code(5), 16));
    survey("QR(32) weight 16", 32, codewords_of_weight(extended_qr_code(31), 16));
    survey("RM(1,5) weight 16 (Sylvester Hadamard)", 32,
           codewords_of_weight(reed_muller_code(1, 5), 16));
    survey("Paley q=31", 32, paley_hadamard_words(31));
  }
  if (want("paley")) {
    for (int q : {23, 31, 43, 47})
      survey("Paley q=" + std::to_string(q), q + 1, paley_hadamard_words(q));
  }
  if (want("qr42")) {
    const LinearCode qr = extended_qr_code(41);
    survey("QR(42) weight 21", 42, codewords_of_weight(qr, 21), 300);
    survey("QR(42) weight 20", 42, codewords_of_weight(qr, 20), 300);
    survey("QR(42) weight 22", 42, codewords_of_weight(qr, 22), 300);
  }
  if (want("qr48")) {
    const std::vector<std::uint64_t> w24 = codewords_of_weight(extended_qr_code(47), 24);
    survey("QR(48) weight 24 (all)", 48, w24, 200);
    for (std::size_t n : {12000, 50000, 100000, 200000})
      survey("QR(48) weight 24, evenly spread " + std::to_string(n), 48,
             evenly_spread_subset(w24, n), 200);
  }
  if (want("short")) {
    const std::vector<std::uint64_t> w24 = codewords_of_weight(extended_qr_code(47), 24);
    for (int m = 47; m >= 30; --m) {
      const int s = 48 - m;
      for (int ones : {s / 2, (s + 1) / 2}) {
        if (ones != s / 2 && s % 2 == 0) continue;
        std::vector<std::uint64_t> words = shortened(w24, 48, s, ones);
        const std::size_t n = words.size();
        if (n > 200000) words = evenly_spread_subset(words, 200000);
        survey("QR(48) w24 fix " + std::to_string(s) + " (" + std::to_string(ones) + " ones) of " +
                   std::to_string(n),
               m, words, 200);
      }
    }
  }
  if (want("rmshort")) {
    const std::vector<std::uint64_t> w16 = codewords_of_weight(reed_muller_code(2, 5), 16);
    for (int m = 31; m >= 26; --m) {
      const int s = 32 - m;
      for (int ones : {s / 2, (s + 1) / 2}) {
        if (ones != s / 2 && s % 2 == 0) continue;
        survey("RM(2,5) w16 fix " + std::to_string(s) + " (" + std::to_string(ones) + " ones)", m,
               shortened(w16, 32, s, ones), 2000);
      }
    }
  }
  if (want("golayext")) {
    // The dodecads extended by suffix bits, widths 25..27.
    std::vector<std::uint64_t> dodecads;
    for (const Token& t : golay_dodecads().words) dodecads.push_back(t.words()[0]);
    std::uint64_t state = 999;
    auto next = [&] {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return state >> 40;
    };
    for (int layout = 0; layout < 4; ++layout)
      for (int trial = 0; trial < 4; ++trial) {
        const std::uint64_t a = next(), b = next(), c = next();
        std::vector<std::uint64_t> words;
        for (std::uint64_t x : dodecads) {
          const std::uint64_t pa = std::popcount(x & a) & 1, pb = std::popcount(x & b) & 1,
                              pc = std::popcount(x & c) & 1;
          std::uint64_t y = x;
          if (layout == 0) y |= pa << 24;
          if (layout == 1) y |= pa << 24 | (1 - pa) << 25;
          if (layout == 2) y |= pa << 24 | pb << 25;
          if (layout == 3) y |= pa << 24 | pb << 25 | pc << 26;
          words.push_back(y);
        }
        const int t = layout == 0 ? 1 : layout == 3 ? 3 : 2;
        survey("dodecads + suffix layout " + std::to_string(layout) + " trial " +
                   std::to_string(trial),
               24 + t, words, 2576);
      }
  }
  if (want("rmmasks")) {
    // Principled suffix masks for RM(2,5): supports of cubic (and higher) monomials on GF(2)^5.
    const std::vector<std::uint64_t> w16 = codewords_of_weight(reed_muller_code(2, 5), 16);
    auto support = [](std::uint32_t vars) {
      std::uint64_t a = 0;
      for (std::uint32_t x = 0; x < 32; ++x)
        if ((x & vars) == vars) a |= std::uint64_t{1} << x;
      return a;
    };
    auto hexs = [](const std::vector<std::uint64_t>& ms) {
      std::string s;
      char buf[32];
      for (std::uint64_t a : ms) {
        std::snprintf(buf, sizeof buf, " %llx", static_cast<unsigned long long>(a));
        s += buf;
      }
      return s;
    };
    const std::vector<std::vector<std::uint64_t>> choices = {
        {support(7)},
        {support(7) ^ support(28)},
        {support(7) ^ support(28) ^ support(19)},
        {1},
        {support(15)},
        {support(31)},
        {support(7), support(28)},
        {support(7), support(25)},
        {support(7) ^ support(28), support(14) ^ support(19)},
        {1, 2},
        {support(7), support(28), support(19)},
        {support(7), support(25), support(14)},
        {support(7) ^ support(28), support(14) ^ support(19), support(11) ^ support(21)},
        {1, 2, 4},
    };
    for (const auto& ms : choices)
      survey("RM(2,5) w16 + parities" + hexs(ms), 32 + static_cast<int>(ms.size()),
             extend_by_parity_table(w16, 32, ms, identity_table(ms.size()),
                                    static_cast<int>(ms.size())),
             300);
  }
  if (want("rmtable")) {
    const std::vector<std::uint64_t> w16 = codewords_of_weight(reed_muller_code(2, 5), 16);
    auto support = [](std::uint32_t vars) {
      std::uint64_t a = 0;
      for (std::uint32_t x = 0; x < 32; ++x)
        if ((x & vars) == vars) a |= std::uint64_t{1} << x;
      return a;
    };
    const std::vector<std::uint64_t> masks = {support(7) ^ support(28), support(14) ^ support(19),
                                              support(11) ^ support(21), support(13) ^ support(22)};
    for (int t = 1; t <= 3; ++t) table_search("RM(2,5) w16", w16, 32, masks, t);
  }
  if (want("golaytable")) {
    std::vector<std::uint64_t> dodecads;
    for (const Token& tok : golay_dodecads().words) dodecads.push_back(tok.words()[0]);
    std::uint64_t state = 99;
    auto next = [&] {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return (state >> 40) & 0xFFFFFF;
    };
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<std::uint64_t> masks;
      for (int k = 0; k < 4; ++k) masks.push_back(next());
      for (int t = 1; t <= 3; ++t)
        table_search("dodecads trial " + std::to_string(trial), dodecads, 24, masks, t);
    }
  }
  if (want("product")) {
    // m = 40: RM(2,5) weight-16 words x the 14 weight-4 words of the extended Hamming [8,4,4]
    // code (RM(1,3)) on 8 more coordinates: weight 20, gaps (d + d')/2.
    const std::vector<std::uint64_t> w16 = codewords_of_weight(reed_muller_code(2, 5), 16);
    const std::vector<std::uint64_t> w4 = codewords_of_weight(reed_muller_code(1, 3), 4);
    std::vector<std::uint64_t> words;
    for (std::uint64_t x : w16)
      for (std::uint64_t y : w4) words.push_back(x | y << 32);
    survey("RM(2,5) w16 x RM(1,3) w4", 40, words, 300);
  }
  if (want("rmext")) {
    // RM(2,5) weight-16 words x extended by suffix bits <a_k, x> mod 2 (or their complements),
    // for widths 33..35; the masks a_k are seeded random 32-bit sets.
    const std::vector<std::uint64_t> w16 = codewords_of_weight(reed_muller_code(2, 5), 16);
    std::uint64_t state = 12345;
    auto next = [&] {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return state >> 32;
    };
    for (const char* layout : {"a", "a~a", "ab", "a~ab", "abc"}) {
      const int t = static_cast<int>(std::strlen(layout)) - (std::strchr(layout, '~') ? 1 : 0);
      for (int trial = 0; trial < 6; ++trial) {
        std::uint64_t masks[3] = {next(), next(), next()};
        std::vector<std::uint64_t> words;
        for (std::uint64_t x : w16) {
          std::uint64_t y = x;
          int bit = 32, k = 0;
          for (const char* c = layout; *c; ++c) {
            if (*c == '~') {
              y |= static_cast<std::uint64_t>(1 - (std::popcount(x & masks[k - 1]) & 1)) << bit++;
              ++c;
              continue;
            }
            y |= static_cast<std::uint64_t>(std::popcount(x & masks[k]) & 1) << bit++;
            ++k;
          }
          words.push_back(y);
        }
        survey(std::string("RM(2,5) w16 + suffix ") + layout + " trial " + std::to_string(trial),
               32 + t, words, 300);
      }
    }
  }
  return 0;
}
