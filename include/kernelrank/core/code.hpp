// Constant-weight binary codes: construction, file format and verification.
//
// Codes index the rows and columns of the rank-bound matrices (theory.md L4).
// Constructions: all weight-w words (Johnson scheme), the greedy lexicode, a
// seeded randomised greedy code, and the extended Golay code's octads and
// dodecads, generated from the code's definition.
#pragma once

#include "kernelrank/core/token.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kernelrank {

struct Code {
  int m = 0;
  std::vector<Token> words;
  std::string construction;  // e.g. "lexicode m=12 w=4 d=4"
};

// Every word of width m and weight w, in lexicographic order of the 0/1 strings.
// Throws ResourceError when C(m, w) exceeds `limit`, UsageError unless
// 1 <= m <= kMaxTokenWidth and 0 <= w <= m.
Code johnson_code(int m, int w, std::uint64_t limit = 10'000'000);

// Greedy lexicode: scan the weight-w words in lexicographic order, keep each
// word at distance >= d from all kept words. Needs C(m,w) <= limit and
// 1 <= d <= m. The words come out in lexicographic order.
Code lexicode(int m, int w, int d, std::uint64_t limit = 50'000'000);

// Randomised greedy: draw uniformly random weight-w words from a seeded
// generator (std::mt19937_64, portable), keep those at distance >= d from all
// kept words, stop after `max_failures` consecutive rejections or when
// `max_words` words are kept. Deterministic for a given seed; the words come
// out in the order they were kept (a prefix is the code for a smaller max_words).
Code random_greedy_code(int m, int w, int d, std::uint64_t seed, int max_failures = 2000,
                        std::size_t max_words = 100'000);

// The extended binary Golay code [24, 12, 8]: all 4096 codewords, built from
// the quadratic-residue code of length 23 (generator from the residues mod 23)
// extended by a parity bit (coordinate 24), in lexicographic order.
std::vector<Token> golay_codewords();
Code golay_octads();    // the 759 weight-8 codewords
Code golay_dodecads();  // the 2576 weight-12 codewords

// Code text format: one 0/1 word per line, '#' comments, all widths equal, at
// least one word; errors are InputError naming the line. Duplicates are allowed
// (code_statistics reports them). code_to_text starts with "# <construction>".
Code read_code(const std::string& path);
Code parse_code(const std::string& name, const std::string& contents);
std::string code_to_text(const Code& code);

struct CodeStatistics {
  std::size_t size = 0;
  int m = 0;
  bool constant_weight = false;
  int min_weight = 0;
  int max_weight = 0;
  int min_distance = 0;  // 0 when fewer than two words (or duplicates exist)
  bool has_duplicates = false;
  std::map<int, std::uint64_t> distance_distribution;  // distance -> unordered pairs
};

// Exact statistics by checking every pair.
CodeStatistics code_statistics(const Code& code);

}  // namespace kernelrank
