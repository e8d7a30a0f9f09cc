// Tests for the constant-weight codes and the extended Golay code.
//
// Expected values come from outside the code under test: binomial
// coefficients from Pascal's triangle, greedy codes from a brute force over
// the whole cube written here, small lexicodes worked by hand, Golay facts
// from its theory (weight enumerator 1/759/2576/759/1, the Steiner system
// S(5,8,24)), and pair statistics from naive loops over the 0/1 strings.
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/token.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace kernelrank;

namespace {

// Pascal's triangle up to row `rows` (every entry below row 68 fits in 64 bits).
std::vector<std::vector<std::uint64_t>> pascal(int rows) {
  std::vector<std::vector<std::uint64_t>> c(static_cast<std::size_t>(rows) + 1);
  for (int n = 0; n <= rows; ++n) {
    c[n].assign(static_cast<std::size_t>(n) + 1, 1);
    for (int k = 1; k < n; ++k) c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
  }
  return c;
}

std::vector<std::string> strings_of(const Code& code) {
  std::vector<std::string> out;
  for (const Token& t : code.words) out.push_back(t.to_string());
  return out;
}

int string_weight(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '1'));
}

int string_distance(const std::string& a, const std::string& b) {
  int d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d += a[i] != b[i] ? 1 : 0;
  return d;
}

// The width-m 0/1 string of `index`, most significant bit first.
std::string binary_string(int m, std::uint64_t index) {
  std::string s(static_cast<std::size_t>(m), '0');
  for (int i = m - 1; i >= 0; --i, index >>= 1)
    if (index & 1U) s[static_cast<std::size_t>(i)] = '1';
  return s;
}

// Independent greedy: all weight-w strings in increasing numeric order (the
// whole cube filtered), kept when at distance >= d from every kept string.
std::vector<std::string> brute_force_lexicode(int m, int w, int d) {
  std::vector<std::string> kept;
  for (std::uint64_t index = 0; index < (std::uint64_t{1} << m); ++index) {
    const std::string s = binary_string(m, index);
    if (string_weight(s) != w) continue;
    bool ok = true;
    for (const std::string& k : kept) ok = ok && string_distance(s, k) >= d;
    if (ok) kept.push_back(s);
  }
  return kept;
}

// 24-bit masks (bit i = character i) built from the strings, not from Token internals.
std::vector<std::uint32_t> masks_of(const std::vector<Token>& words) {
  std::vector<std::uint32_t> out;
  for (const Token& t : words) {
    const std::string s = t.to_string();
    REQUIRE(s.size() == 24);
    std::uint32_t mask = 0;
    for (std::size_t i = 0; i < 24; ++i)
      if (s[i] == '1') mask |= 1U << i;
    out.push_back(mask);
  }
  return out;
}

int naive_min_distance(const std::vector<std::uint32_t>& masks) {
  int best = std::numeric_limits<int>::max();
  for (std::size_t i = 0; i < masks.size(); ++i)
    for (std::size_t j = i + 1; j < masks.size(); ++j)
      best = std::min(best, std::popcount(masks[i] ^ masks[j]));
  return best;
}

// Distance distribution by a naive loop over the strings.
std::map<int, std::uint64_t> naive_distribution(const Code& code) {
  const auto s = strings_of(code);
  std::map<int, std::uint64_t> dist;
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t j = i + 1; j < s.size(); ++j) ++dist[string_distance(s[i], s[j])];
  return dist;
}

template <class Error, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "<nothing thrown>";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The line an InputError names, or -1 when nothing is thrown.
long input_error_line(const std::string& contents) {
  try {
    parse_code("test.code", contents);
  } catch (const InputError& e) {
    CHECK(e.file() == "test.code");
    return static_cast<long>(e.line());
  }
  return -1;
}

}  // namespace

// ---- Johnson ------------------------------------------------------------------

TEST_CASE("code: johnson sizes are binomial coefficients, words sorted and of weight w") {
  const auto c = pascal(14);
  for (int m = 1; m <= 14; ++m) {
    for (int w = 0; w <= m; ++w) {
      const Code code = johnson_code(m, w);
      CHECK(code.m == m);
      REQUIRE(code.words.size() == c[m][w]);
      const auto s = strings_of(code);
      for (const std::string& word : s) {
        CHECK(word.size() == static_cast<std::size_t>(m));
        CHECK(string_weight(word) == w);
      }
      // Strictly increasing strings: sorted and pairwise distinct.
      for (std::size_t i = 1; i < s.size(); ++i) CHECK(s[i - 1] < s[i]);
    }
  }
}

TEST_CASE("code: johnson order equals the weight-w filter of the cube in numeric order") {
  for (int m = 1; m <= 10; ++m) {
    for (int w = 0; w <= m; ++w) {
      std::vector<std::string> expected;
      for (std::uint64_t index = 0; index < (std::uint64_t{1} << m); ++index) {
        const std::string s = binary_string(m, index);
        if (string_weight(s) == w) expected.push_back(s);
      }
      CHECK(strings_of(johnson_code(m, w)) == expected);
    }
  }
}

TEST_CASE("code: johnson beyond 64 coordinates") {
  const auto c = pascal(70);
  const Code code = johnson_code(70, 2);
  REQUIRE(code.words.size() == c[70][2]);  // 2415
  const auto s = strings_of(code);
  CHECK(s.front() == std::string(68, '0') + "11");
  CHECK(s.back() == "11" + std::string(68, '0'));
  for (std::size_t i = 1; i < s.size(); ++i) CHECK(s[i - 1] < s[i]);
  for (const std::string& word : s) CHECK(string_weight(word) == 2);
}

TEST_CASE("code: johnson limit is exact and saturates instead of overflowing") {
  const auto c = pascal(67);
  REQUIRE(c[10][5] == 252);
  CHECK(johnson_code(10, 5, 252).words.size() == 252);
  CHECK_THROWS_AS(johnson_code(10, 5, 251), ResourceError);
  // C(67,33) is just below 2^64: one less than it must be refused.
  CHECK_THROWS_AS(johnson_code(67, 33, c[67][33] - 1), ResourceError);
  // C(68,34) and C(1000,500) exceed 2^64; a wrapped count could slip under the limit.
  CHECK_THROWS_AS(johnson_code(68, 34, std::numeric_limits<std::uint64_t>::max() - 1),
                  ResourceError);
  CHECK_THROWS_AS(johnson_code(1000, 500, std::numeric_limits<std::uint64_t>::max() - 1),
                  ResourceError);
  CHECK_THROWS_AS(johnson_code(64, 32), ResourceError);
}

TEST_CASE("code: invalid parameters are usage errors naming the parameter") {
  CHECK(contains(message_of<UsageError>([] { johnson_code(0, 0); }), "width m"));
  CHECK(contains(message_of<UsageError>([] { johnson_code(5, -1); }), "weight w"));
  CHECK(contains(message_of<UsageError>([] { johnson_code(5, 6); }), "weight w"));
  CHECK(contains(message_of<UsageError>([] { lexicode(5, 2, 0); }), "distance d"));
  CHECK(contains(message_of<UsageError>([] { lexicode(5, 2, 6); }), "distance d"));
  CHECK(contains(message_of<UsageError>([] { lexicode(-3, 2, 2); }), "width m"));
  CHECK(contains(message_of<UsageError>([] { random_greedy_code(8, 9, 2, 1); }), "weight w"));
  CHECK(contains(message_of<UsageError>([] { random_greedy_code(8, 4, 0, 1); }), "distance d"));
  CHECK(
      contains(message_of<UsageError>([] { random_greedy_code(8, 4, 2, 1, 0); }), "max_failures"));
  CHECK(
      contains(message_of<UsageError>([] { random_greedy_code(8, 4, 2, 1, 10, 0); }), "max_words"));
}

// ---- Lexicode -----------------------------------------------------------------

TEST_CASE("code: lexicode small cases worked by hand") {
  // m=4 w=2 d=4: order 0011 0101 0110 1001 1010 1100; 0011 kept, the next four
  // share a one with it (distance 2), 1100 is disjoint (distance 4).
  CHECK(strings_of(lexicode(4, 2, 4)) == std::vector<std::string>{"0011", "1100"});
  // m=5 w=2 d=4: 00011, then 01100 (first pair disjoint from it); every later
  // pair meets one of them.
  CHECK(strings_of(lexicode(5, 2, 4)) == std::vector<std::string>{"00011", "01100"});
  // m=6 w=3 d=4 (triples meeting in at most one point): {4,5,6}, {2,3,6},
  // {1,3,5}, {1,2,4}; every other triple meets one of them twice.
  CHECK(strings_of(lexicode(6, 3, 4)) ==
        std::vector<std::string>{"000111", "011001", "101010", "110100"});
}

TEST_CASE("code: lexicode equals an independent brute-force greedy for m <= 10") {
  for (int m = 1; m <= 10; ++m)
    for (int w = 0; w <= m; ++w)
      for (int d = 1; d <= m; ++d) {
        CAPTURE(m);
        CAPTURE(w);
        CAPTURE(d);
        CHECK(strings_of(lexicode(m, w, d)) == brute_force_lexicode(m, w, d));
      }
}

TEST_CASE("code: lexicode sizes that theory fixes") {
  const auto c = pascal(40);
  for (int m = 2; m <= 40; ++m) {
    // Distinct words of equal weight are at distance >= 2, so d = 2 keeps all.
    if (m <= 16) CHECK(lexicode(m, m / 2, 2).words.size() == c[m][m / 2]);
    // w=2, d=4 keeps pairwise disjoint pairs; a maximal family of disjoint
    // pairs leaves at most one coordinate uncovered, so it has floor(m/2) pairs,
    // which is also the maximum A(m,4,2).
    if (m >= 4) CHECK(lexicode(m, 2, 4).words.size() == static_cast<std::size_t>(m / 2));
    // Likewise disjoint triples (w=3, d=6) leave at most two coordinates uncovered.
    if (m >= 6) CHECK(lexicode(m, 3, 6).words.size() == static_cast<std::size_t>(m / 3));
  }
  // The same beyond 64 coordinates (packed words).
  CHECK(lexicode(100, 2, 4).words.size() == 50);
  CHECK(lexicode(100, 3, 6).words.size() == 33);
  // d above 2 min(w, m-w), the largest possible distance, leaves one word.
  CHECK(lexicode(12, 3, 7).words.size() == 1);
  CHECK(lexicode(12, 9, 8).words.size() == 1);
}

// Checks the greedy rule against the finished code: a weight-w word belongs to
// the code exactly when no earlier code word is within distance < d. Uses
// Token's own comparison and distance, not the code module's packed loops.
void check_greedy_rule(int m, int w, int d) {
  const Code code = lexicode(m, w, d);
  const Code all = johnson_code(m, w);
  std::set<std::string> members;
  for (const Token& t : code.words) members.insert(t.to_string());
  CHECK(members.size() == code.words.size());
  std::size_t wrong = 0;
  for (const Token& x : all.words) {
    bool blocked = false;
    for (const Token& y : code.words) {
      if (!(y < x)) break;  // the code is in increasing order
      if (distance(x, y) < d) {
        blocked = true;
        break;
      }
    }
    wrong += members.count(x.to_string()) == (blocked ? 0U : 1U) ? 0U : 1U;
  }
  CHECK(wrong == 0);
}

TEST_CASE("code: lexicode obeys the greedy rule at m=16 and beyond 64 coordinates") {
  check_greedy_rule(16, 6, 6);
  check_greedy_rule(66, 2, 4);
  check_greedy_rule(66, 3, 4);
  check_greedy_rule(130, 2, 2);
}

TEST_CASE("code: lexicode refuses an enumeration above the limit") {
  CHECK_THROWS_AS(lexicode(64, 32, 20), ResourceError);
  CHECK_THROWS_AS(lexicode(10, 5, 4, 251), ResourceError);
  CHECK(lexicode(10, 5, 4, 252).words.size() == brute_force_lexicode(10, 5, 4).size());
}

// ---- Random greedy ------------------------------------------------------------

void check_weight_and_distance(const Code& code, int w, int d) {
  const auto s = strings_of(code);
  std::size_t wrong_weight = 0;
  std::size_t too_close = 0;
  std::size_t not_canonical = 0;  // stray bits beyond the width
  for (const std::string& word : s) wrong_weight += string_weight(word) == w ? 0U : 1U;
  for (const Token& t : code.words) not_canonical += t == parse_token(t.to_string()) ? 0U : 1U;
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t j = i + 1; j < s.size(); ++j)
      too_close += string_distance(s[i], s[j]) >= d ? 0U : 1U;
  CHECK(wrong_weight == 0);
  CHECK(too_close == 0);
  CHECK(not_canonical == 0);
}

TEST_CASE("code: random greedy is deterministic per seed and seeds differ") {
  const Code a = random_greedy_code(64, 32, 24, 7);
  const Code b = random_greedy_code(64, 32, 24, 7);
  const Code other = random_greedy_code(64, 32, 24, 8);
  CHECK(a.words == b.words);
  CHECK(a.words != other.words);
  CHECK(a.words.size() > 1);
  check_weight_and_distance(a, 32, 24);
  check_weight_and_distance(other, 32, 24);
  const Code wide_a = random_greedy_code(100, 40, 44, 3, 500, 1000);
  const Code wide_b = random_greedy_code(100, 40, 44, 3, 500, 1000);
  CHECK(wide_a.words == wide_b.words);
  CHECK(wide_a.words != random_greedy_code(100, 40, 44, 4, 500, 1000).words);
  CHECK(wide_a.words.size() > 1);
  check_weight_and_distance(wide_a, 40, 44);
}

TEST_CASE("code: random greedy stops at max_words and keeps draw order") {
  const Code full = random_greedy_code(64, 32, 24, 11);
  // Two random weight-32 words meet in 16 +- 2 places; distance < 24 needs
  // more than 20, so the first ten draws almost surely all survive.
  REQUIRE(full.words.size() >= 10);
  const Code ten = random_greedy_code(64, 32, 24, 11, 2000, 10);
  REQUIRE(ten.words.size() == 10);
  CHECK(std::equal(ten.words.begin(), ten.words.end(), full.words.begin()));
}

TEST_CASE("code: random greedy reaches every word when d = 2") {
  // With d = 2 every new word is kept. Missing one of C(m,w) words would need
  // 1000 consecutive draws avoiding it: probability below C*(1-1/C)^1000, about
  // 1e-20 here, unless the draws are not uniform over all words.
  const auto c = pascal(10);
  for (const auto& [m, w] : std::vector<std::pair<int, int>>{{6, 3}, {10, 8}, {7, 1}}) {
    const Code code = random_greedy_code(m, w, 2, 5, 1000);
    CHECK(code.words.size() == c[m][w]);
    std::set<std::string> distinct;
    for (const Token& t : code.words) distinct.insert(t.to_string());
    CHECK(distinct.size() == c[m][w]);
    check_weight_and_distance(code, w, 2);
  }
  // Weight 0 and weight m have a single word.
  CHECK(strings_of(random_greedy_code(5, 0, 1, 1, 50)) == std::vector<std::string>{"00000"});
  CHECK(strings_of(random_greedy_code(5, 5, 1, 1, 50)) == std::vector<std::string>{"11111"});
}

TEST_CASE("code: random greedy at m = 4096") {
  const Code code = random_greedy_code(4096, 2048, 2040, 1, 100, 30);
  CHECK(code.m == 4096);
  CHECK(code.words.size() >= 2);
  check_weight_and_distance(code, 2048, 2040);
  const Code light = random_greedy_code(4096, 3, 6, 2, 100, 50);  // pairwise disjoint triples
  CHECK(light.words.size() == 50);
  check_weight_and_distance(light, 3, 6);
}

// ---- Statistics ---------------------------------------------------------------

TEST_CASE("code: statistics of hand-made codes") {
  // 0000 0011 0111 1111: distances 2,3,4 from 0000; 1,2 from 0011; 1 from 0111.
  const Code small = parse_code("small", "0000\n0011\n0111\n1111\n");
  const CodeStatistics s = code_statistics(small);
  CHECK(s.size == 4);
  CHECK(s.m == 4);
  CHECK_FALSE(s.constant_weight);
  CHECK(s.min_weight == 0);
  CHECK(s.max_weight == 4);
  CHECK(s.min_distance == 1);
  CHECK_FALSE(s.has_duplicates);
  CHECK(s.distance_distribution == std::map<int, std::uint64_t>{{1, 2}, {2, 2}, {3, 1}, {4, 1}});

  // Width 70: a = 0, b = ones at 1..66, c = ones at 66..70.
  // d(a,b) = 66, d(a,c) = 5, d(b,c) = 65 + 4 = 69.
  const std::string a(70, '0');
  const std::string b = std::string(66, '1') + std::string(4, '0');
  const std::string c = std::string(65, '0') + std::string(5, '1');
  const CodeStatistics w = code_statistics(parse_code("wide", a + "\n" + b + "\n" + c + "\n"));
  CHECK(w.m == 70);
  CHECK(w.min_distance == 5);
  CHECK(w.distance_distribution == std::map<int, std::uint64_t>{{5, 1}, {66, 1}, {69, 1}});

  const CodeStatistics one = code_statistics(parse_code("one", "0110\n"));
  CHECK(one.size == 1);
  CHECK(one.constant_weight);
  CHECK(one.min_weight == 2);
  CHECK(one.min_distance == 0);
  CHECK(one.distance_distribution.empty());
}

TEST_CASE("code: duplicates parse but are reported") {
  const Code dup = parse_code("dup", "0101\n0011\n0101\n");
  REQUIRE(dup.words.size() == 3);
  const CodeStatistics s = code_statistics(dup);
  CHECK(s.has_duplicates);
  CHECK(s.min_distance == 0);
  CHECK(s.distance_distribution == std::map<int, std::uint64_t>{{0, 1}, {2, 2}});
  CHECK_FALSE(code_statistics(parse_code("nodup", "0101\n0011\n")).has_duplicates);
}

TEST_CASE("code: statistics agree with a naive pair loop") {
  for (const Code& code : {random_greedy_code(64, 32, 22, 1, 300, 400),
                           random_greedy_code(100, 50, 40, 2, 300, 300), lexicode(12, 5, 4)}) {
    const CodeStatistics s = code_statistics(code);
    const auto expected = naive_distribution(code);
    CHECK(s.distance_distribution == expected);
    CHECK(s.min_distance == expected.begin()->first);
    std::uint64_t pairs = 0;
    for (const auto& [distance_value, count] : s.distance_distribution) pairs += count;
    CHECK(pairs == code.words.size() * (code.words.size() - 1) / 2);
  }
}

// ---- Text format --------------------------------------------------------------

TEST_CASE("code: text format round trip, comments, blank lines and CRLF") {
  const Code code = lexicode(9, 3, 4);
  const std::string text = code_to_text(code);
  CHECK(text.rfind("# lexicode m=9 w=3 d=4\n", 0) == 0);
  const Code back = parse_code("round-trip", text);
  CHECK(back.m == 9);
  CHECK(back.words == code.words);
  const Code loose = parse_code("loose", "# a code\n\n  0110  # first\r\n\t1001\n\n");
  CHECK(strings_of(loose) == std::vector<std::string>{"0110", "1001"});
  CHECK(loose.m == 4);
}

TEST_CASE("code: malformed code files name the line") {
  CHECK(input_error_line("0101\n0011\n011\n") == 3);          // wrong width on line 3
  CHECK(input_error_line("# header\n\n0101\n01011\n") == 4);  // comments count as lines
  CHECK(input_error_line("0101\n0121\n") == 2);               // not a 0/1 character
  CHECK(input_error_line("0101\n0011 1100\n") == 2);          // two fields
  CHECK(input_error_line("0101\nabcd\n") == 2);
  CHECK(input_error_line("") == 0);  // no words at all
  CHECK(input_error_line("# only a comment\n\n") == 0);
  CHECK(input_error_line("0101\n") == -1);
  CHECK(contains(message_of<InputError>([] { parse_code("f", "0101\n0121\n"); }), "'2'"));
  CHECK(contains(message_of<InputError>([] { parse_code("f", "0101\n011\n"); }), "width 4"));
  CHECK(contains(message_of<InputError>([] { parse_code("f", ""); }), "f:0: error: expected"));
}

TEST_CASE("code: read_code reads a file and reports a missing one") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("kernelrank_test_code_" + std::to_string(std::random_device{}()) + ".txt");
  {
    std::ofstream out(path);
    out << "# test\n110\n011\n";
  }
  const Code code = read_code(path.string());
  std::filesystem::remove(path);
  CHECK(strings_of(code) == std::vector<std::string>{"110", "011"});
  CHECK_THROWS_AS(read_code(path.string()), InputError);
}

// ---- Golay --------------------------------------------------------------------

TEST_CASE("golay: 4096 codewords, linear, weight enumerator 1/759/2576/759/1") {
  const std::vector<Token> words = golay_codewords();
  REQUIRE(words.size() == 4096);
  const auto masks = masks_of(words);
  std::vector<bool> member(std::size_t{1} << 24, false);
  for (std::uint32_t mask : masks) member[mask] = true;
  CHECK(std::count(member.begin(), member.end(), true) == 4096);  // distinct
  // Closed under XOR (all 4096^2 sums), so a binary linear code of dimension 12.
  std::size_t outside = 0;
  for (std::uint32_t a : masks)
    for (std::uint32_t b : masks) outside += member[a ^ b] ? 0U : 1U;
  CHECK(outside == 0);
  std::map<int, std::size_t> weights;
  for (std::uint32_t mask : masks) ++weights[std::popcount(mask)];
  CHECK(weights == std::map<int, std::size_t>{{0, 1}, {8, 759}, {12, 2576}, {16, 759}, {24, 1}});
  // For a linear code the pairs at distance i number 4096 * A_i / 2.
  Code all;
  all.m = 24;
  all.words = words;
  const CodeStatistics s = code_statistics(all);
  CHECK(s.min_distance == 8);
  CHECK(s.distance_distribution ==
        std::map<int, std::uint64_t>{
            {8, 4096 * 759 / 2}, {12, 4096 * 2576 / 2}, {16, 4096 * 759 / 2}, {24, 4096 / 2}});
}

TEST_CASE("golay: octads and dodecads") {
  const Code octads = golay_octads();
  const Code dodecads = golay_dodecads();
  CHECK(octads.construction == "golay octads");
  CHECK(dodecads.construction == "golay dodecads");
  CHECK(octads.m == 24);
  CHECK(dodecads.m == 24);
  REQUIRE(octads.words.size() == 759);
  REQUIRE(dodecads.words.size() == 2576);
  for (const Token& t : octads.words) CHECK(t.weight() == 8);
  for (const Token& t : dodecads.words) CHECK(t.weight() == 12);
  const auto octad_strings = strings_of(octads);
  const auto dodecad_strings = strings_of(dodecads);
  CHECK(std::is_sorted(octad_strings.begin(), octad_strings.end()));
  CHECK(std::is_sorted(dodecad_strings.begin(), dodecad_strings.end()));
  // Both are subsets of the full code.
  std::set<std::string> all;
  for (const Token& t : golay_codewords()) all.insert(t.to_string());
  for (const std::string& s : octad_strings) CHECK(all.count(s) == 1);
  for (const std::string& s : dodecad_strings) CHECK(all.count(s) == 1);

  const CodeStatistics so = code_statistics(octads);
  const CodeStatistics sd = code_statistics(dodecads);
  CHECK(so.min_distance == 8);
  CHECK(sd.min_distance == 8);
  CHECK_FALSE(so.has_duplicates);
  CHECK_FALSE(sd.has_duplicates);
  CHECK(naive_min_distance(masks_of(octads.words)) == 8);
  CHECK(naive_min_distance(masks_of(dodecads.words)) == 8);
}

TEST_CASE("golay: every 5-subset of the 24 coordinates lies in exactly one octad") {
  const auto octads = masks_of(golay_octads().words);
  const auto c = pascal(24);
  std::uint64_t subsets = 0;
  std::uint64_t bad = 0;
  for (std::uint32_t subset = 0; subset < (1U << 24); ++subset) {
    if (std::popcount(subset) != 5) continue;
    ++subsets;
    int containing = 0;
    for (std::uint32_t octad : octads) containing += (subset & ~octad) == 0 ? 1 : 0;
    bad += containing == 1 ? 0U : 1U;
  }
  CHECK(subsets == c[24][5]);  // 42504
  CHECK(bad == 0);
}
