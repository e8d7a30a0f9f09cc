// Exhaustive search behind docs/bounds.md ("Small m", linear dependence): is there a set of
// R+1 queries in {0,1}^m whose sign patterns can all be covered, i.e. for every nonzero
// t in {+,-,0}^(R+1) with both signs (the cube needs no one-signed pattern) some key
// difference x = b - a in {-1,0,1}^m has <q_i,x> >= 2 where t_i = '+' and <= -2 where
// t_i = '-'? Such a set refutes rank R for NK on T(m,3) (L2 with n = 3, k = 1).
// Query sets are enumerated up to coordinate permutations, as multisets of m columns.
//
//   g++ -O2 -std=c++17 -o /tmp/dependence_cover_search scripts/research/dependence_cover_search.cpp
//   /tmp/dependence_cover_search 6 3     # none (39,718 sets, a few seconds)
//   /tmp/dependence_cover_search 8 3     # the four disjoint pairs (431,313 sets, minutes)
// Add a third argument "all" to require the one-signed patterns too (as for families).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s M R [all]\n", argv[0]);
    return 2;
  }
  const int m = std::atoi(argv[1]), r = std::atoi(argv[2]), k = r + 1;
  const bool all_patterns = argc > 3 && std::strcmp(argv[3], "all") == 0;
  if (m < 1 || m > 10 || k < 2 || k > 6) {
    std::fprintf(stderr, "M must be in 1..10 and R in 1..5\n");
    return 2;
  }
  int nx = 1, np = 1;
  for (int i = 0; i < m; ++i) nx *= 3;
  for (int i = 0; i < k; ++i) np *= 3;
  std::vector<std::vector<int>> x(nx, std::vector<int>(m));
  for (int v = 0; v < nx; ++v)
    for (int j = 0, t = v; j < m; ++j, t /= 3) x[v][j] = t % 3 - 1;
  // A pattern t is encoded in base 3, query i as digit i: 0 -> '-', 1 -> '0', 2 -> '+'.
  std::vector<char> needed(np, 0);
  for (int p = 0; p < np; ++p) {
    bool pos = false, neg = false;
    for (int i = 0, t = p; i < k; ++i, t /= 3) pos |= t % 3 == 2, neg |= t % 3 == 0;
    needed[p] = all_patterns ? (pos || neg) : (pos && neg);
  }
  const int types = 1 << k;  // a column of the k x m query matrix
  std::vector<int> column(m, 0);
  long sets = 0, found = 0;
  while (true) {
    std::set<long> rows;
    bool nonzero = true;
    for (int i = 0; i < k; ++i) {
      long row = 0;
      for (int j = 0; j < m; ++j) row = 2 * row + ((column[j] >> i) & 1);
      nonzero = nonzero && row != 0;
      rows.insert(row);
    }
    if (nonzero && static_cast<int>(rows.size()) == k) {
      ++sets;
      std::vector<char> covered(np, 0);
      for (int v = 0; v < nx; ++v) {
        int sign[8];
        for (int i = 0; i < k; ++i) {
          int ip = 0;
          for (int j = 0; j < m; ++j) ip += ((column[j] >> i) & 1) * x[v][j];
          sign[i] = ip >= 2 ? 1 : (ip <= -2 ? -1 : 0);
        }
        // x covers every pattern that agrees with its signs wherever the pattern is nonzero.
        for (int keep = 0; keep < (1 << k); ++keep) {
          int p = 0;
          for (int i = k - 1; i >= 0; --i) p = 3 * p + 1 + (((keep >> i) & 1) ? sign[i] : 0);
          covered[p] = 1;
        }
      }
      bool all = true;
      for (int p = 0; p < np && all; ++p) all = !needed[p] || covered[p];
      if (all && ++found <= 3) {
        std::printf("covering set:");
        for (int i = 0; i < k; ++i) {
          std::printf(" ");
          for (int j = 0; j < m; ++j) std::printf("%d", (column[j] >> i) & 1);
        }
        std::printf("\n");
      }
    }
    int j = m - 1;  // next nondecreasing column sequence
    while (j >= 0 && column[j] == types - 1) --j;
    if (j < 0) break;
    ++column[j];
    for (int t = j + 1; t < m; ++t) column[t] = column[j];
  }
  std::printf(
      "m=%d R=%d: %ld query sets up to coordinate permutation, %ld cover every %s pattern\n", m, r,
      sets, found, all_patterns ? "nonzero" : "mixed");
  return 0;
}
