// What the shifted trace bound of docs/bounds.md ("A sharper rank inequality") would give on
// the rows of a cube certificate: the trace value T, the best constant shift W = tJ
// (bound ceil(T_t) - 1) and the best affine W = alpha + beta G (bound ceil(T_W) - (m+1)),
// in double precision, over all columns (N <= 20000) or 400 evenly spaced ones scaled by N.
// An estimate only: the certified numbers are the table's; this rule has no checker yet.
//
//   g++ -O2 -std=c++20 -o /tmp/shifted scripts/research/shifted_trace_estimate.cpp
//   xz -dc instances/bound-certificates/bound-m48-n3.cert.xz > /tmp/b.cert && /tmp/shifted
//   /tmp/b.cert
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::uint64_t mask_of(const std::string& s) {
  std::uint64_t x = 0;
  for (std::size_t p = 0; p < s.size(); ++p)
    if (s[p] == '1') x |= std::uint64_t{1} << p;
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CERT\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string line;
  std::vector<std::uint64_t> own, query;
  int m = 0, n = 3;
  while (std::getline(in, line)) {
    if (line.rfind("task cube", 0) == 0) {
      std::sscanf(line.c_str(), "task cube m=%d n=%d", &m, &n);
    } else if (line.rfind("row ", 0) == 0) {
      std::istringstream fields(line.substr(4));
      std::string c, q;
      fields >> c >> q;
      own.push_back(mask_of(c));
      query.push_back(mask_of(q));
    }
  }
  if (m < 1 || m > 64 || own.size() < 2) {
    std::fprintf(stderr, "needs a cube certificate with m <= 64 and at least two rows\n");
    return 2;
  }
  // R_n(G) = max over parts >= 2 of prod (n-2)(g_s - 1).
  std::vector<double> R(static_cast<std::size_t>(m) + 1, -1);
  R[0] = 1;
  for (int g = 2; g <= m; ++g)
    for (int part = 2; part <= g; ++part)
      if (R[static_cast<std::size_t>(g - part)] > 0)
        R[static_cast<std::size_t>(g)] =
            std::max(R[static_cast<std::size_t>(g)],
                     R[static_cast<std::size_t>(g - part)] * (n - 2) * (part - 1));
  const std::size_t N = own.size();
  const std::size_t step = N <= 20000 ? 1 : N / 400;
  std::vector<std::vector<double>> histograms;
  for (std::size_t j = 0; j < N; j += step) {
    std::vector<double> h(static_cast<std::size_t>(m) + 1, 0);
    for (std::size_t i = 0; i < N; ++i) {
      if (i == j) continue;
      const int g = std::popcount(query[i] & own[j]) - std::popcount(query[i] & own[i]);
      if (g < 2) {
        std::fprintf(stderr, "rows %zu, %zu: gap %d < 2\n", i + 1, j + 1, g);
        return 1;
      }
      h[static_cast<std::size_t>(g)] += 1;
    }
    histograms.push_back(h);
  }
  auto value = [&](double alpha, double beta) {
    double total = 0;
    for (const auto& h : histograms) {
      double C = 0;
      for (int g = 2; g <= m; ++g) {
        if (h[static_cast<std::size_t>(g)] == 0) continue;
        const double w = alpha + beta * g, eps = 1 / R[static_cast<std::size_t>(g)];
        const double e = std::max(std::fabs(w), std::fabs(eps - w));
        C += h[static_cast<std::size_t>(g)] * e * e;
      }
      const double d = (1 - alpha) * (1 - alpha);
      total += d / (d + C);
    }
    return total / static_cast<double>(histograms.size()) * static_cast<double>(N);
  };
  const double T = value(0, 0);
  double best_t = 0, best_tv = T;
  for (int a = 1; a < 1000; ++a) {
    const double v = value(a / 4000.0, 0);
    if (v > best_tv) best_tv = v, best_t = a / 4000.0;
  }
  double best_a = 0, best_b = 0, best_av = T;
  for (int a = 0; a < 400; a += 2)
    for (int b = 0; b < 1200; b += 3) {
      const double v = value(a / 1000.0, -b / 40000.0);
      if (v > best_av) best_av = v, best_a = a / 1000.0, best_b = -b / 40000.0;
    }
  std::printf(
      "m=%d N=%zu T=%.2f  shift t=%.4f: ceil(T_t)-1 = %.0f  affine alpha=%.3f beta=%.5f: "
      "ceil(T_W)-%d = %.0f\n",
      m, N, T, best_t, std::ceil(best_tv) - 1, best_a, best_b, m + 1, std::ceil(best_av) - (m + 1));
  return 0;
}
