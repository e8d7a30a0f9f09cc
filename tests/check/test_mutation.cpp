// Mutation test: every number and every token bit of a valid cube certificate is changed
// in turn, and the checker must reject the result unless the change provably cannot
// matter, in which case it must verify with the same claim.
//
// The expectations come from this file's own oracle, which shares nothing with the
// checker's algorithm: overlaps counted character by character, R_N by brute force over
// compositions, and the trace sum summed pair by pair (no histograms) in exact rationals.
#include <doctest/doctest.h>

#include <boost/multiprecision/gmp.hpp>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

namespace mp = boost::multiprecision;
using Integer = mp::number<mp::gmp_int, mp::et_off>;
using Fraction = mp::number<mp::gmp_rational, mp::et_off>;
using krcheck::Status;

// m = 10: four weight-4 words on coordinates 1..8 (pairwise distance 4, except c1 and c4
// at distance 8), coordinates 9 and 10 zero in every own token; q_i = complement of c_i.
// Gaps: G_ij = |c_j \ c_i| = 2, except G_14 = G_41 = 4. With n = 3, R(2) = 1, R(4) = 3:
// c_1 = c_4 = 1 + 1 + 1/9 = 19/9, c_2 = c_3 = 3. P = 32 (computed with Python fractions):
// terms floor(2^32 * 9/28) = 1380525202 (twice) and 2^32/4 = 1073741824 (twice),
// S = 4908534052, T = 1.14..., bound 2.
const std::vector<std::string> kBaseLines = {
    "kernelrank-certificate 1",
    "task cube m=10 n=3 mode=first class=NK positions=independent",
    "construction 4 words of weight 4 and 2 spare coordinates",
    "rule trace precision=32",
    "rows 4",
    "row 1111000000 0000111111",
    "row 1100110000 0011001111",
    "row 1010101000 0101010111",
    "row 0000111100 1111000011",
    "sum 4908534052",
    "claim r >= 2",
    "end",
};

std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

struct Row {
  std::string own;
  std::string query;
};

int naive_overlap(const std::string& x, const std::string& z) {
  int count = 0;
  for (std::size_t k = 0; k < x.size(); ++k) count += x[k] == '1' && z[k] == '1';
  return count;
}

std::vector<std::vector<int>> gap_matrix(const std::vector<Row>& rows) {
  std::vector<std::vector<int>> gaps(rows.size(), std::vector<int>(rows.size(), 0));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < rows.size(); ++j)
      gaps[i][j] =
          naive_overlap(rows[i].query, rows[j].own) - naive_overlap(rows[i].query, rows[i].own);
  return gaps;
}

// Whether a certificate with these parts should verify, decided pair by pair.
bool oracle_verifies(const std::vector<Row>& rows, int n, int precision, const Integer& sum,
                     const Integer& claim) {
  const auto gaps = gap_matrix(rows);
  const Integer scale = Integer(1) << precision;
  Integer total = 0;
  for (std::size_t j = 0; j < rows.size(); ++j) {
    Fraction one_plus_c = 1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (i == j) continue;
      if (gaps[i][j] < 2) return false;
      const Integer r = krcheck_test::brute_force_amplification(n, gaps[i][j]);
      one_plus_c += Fraction(Integer(1), r * r);
    }
    total += scale * mp::denominator(one_plus_c) / mp::numerator(one_plus_c);
  }
  const Integer bound = rows.size() >= 2 ? total / scale + 1 : Integer(1);
  return total == sum && claim <= bound;
}

std::vector<Row> base_rows() {
  std::vector<Row> rows;
  for (std::size_t line = 5; line <= 8; ++line)
    rows.push_back({kBaseLines[line].substr(4, 10), kBaseLines[line].substr(15, 10)});
  return rows;
}

struct Parameters {
  int n = 3;
  int precision = 32;
  Integer sum{"4908534052"};
  Integer claim = 2;
};

krcheck_test::Run run(const std::vector<std::string>& lines) {
  return krcheck_test::run_text(join(lines));
}

}  // namespace

TEST_CASE("mutation: the base certificate verifies, by the oracle and by the checker") {
  CHECK(oracle_verifies(base_rows(), 3, 32, Integer("4908534052"), 2));
  CHECK_FALSE(oracle_verifies(base_rows(), 3, 32, Integer("4908534052"), 3));
  const auto result = run(kBaseLines);
  CHECK(result.status() == Status::verified);
  CHECK(result.result.claim == "2");
}

TEST_CASE("mutation: every number incremented and decremented") {
  int mutations = 0;
  int verified = 0;
  for (std::size_t line = 0; line < kBaseLines.size(); ++line) {
    const std::string& text = kBaseLines[line];
    if (text.rfind("row ", 0) == 0) continue;  // tokens: see the bit-flip test
    const std::string keyword = text.substr(0, text.find(' '));
    for (std::size_t start = 0; start < text.size();) {
      if (!std::isdigit(static_cast<unsigned char>(text[start]))) {
        ++start;
        continue;
      }
      std::size_t stop = start;
      while (stop < text.size() && std::isdigit(static_cast<unsigned char>(text[stop]))) ++stop;
      const Integer value(text.substr(start, stop - start));
      const std::string key = start >= 2 ? text.substr(start - 2, 2) : "";
      for (const int delta : {+1, -1}) {
        if (value == 0 && delta < 0) continue;
        const Integer changed = value + delta;
        std::vector<std::string> lines = kBaseLines;
        lines[line] = text.substr(0, start) + changed.str() + text.substr(stop);
        CAPTURE(lines[line]);
        ++mutations;
        const auto result = run(lines);
        // Which status the grammar and the oracle demand.
        Parameters p;
        Status expected = Status::not_verified;
        if (keyword == "kernelrank-certificate" && changed == 2) {
          expected = Status::verified;  // format 2 reads the rules of format 1 unchanged
        } else if (keyword == "kernelrank-certificate" || keyword == "rows" || key == "m=") {
          expected = Status::malformed;  // version, row count and token width must match
        } else if (keyword == "construction") {
          expected = Status::verified;  // informational text, not checked by definition
        } else {
          if (key == "n=") p.n = static_cast<int>(changed);
          if (keyword == "rule") p.precision = static_cast<int>(changed);
          if (keyword == "sum") p.sum = changed;
          if (keyword == "claim") p.claim = changed;
          if (p.n < 3)
            expected = Status::malformed;
          else if (oracle_verifies(base_rows(), p.n, p.precision, p.sum, p.claim))
            expected = Status::verified;
        }
        CHECK(result.status() == expected);
        if (expected == Status::verified) {
          ++verified;
          // Only a weaker claim, the free text or format 2 may leave a certificate valid.
          CHECK((keyword == "construction" || (keyword == "claim" && delta < 0) ||
                 (keyword == "kernelrank-certificate" && changed == 2)));
          CHECK(result.result.claim == (keyword == "claim" ? changed.str() : std::string("2")));
        }
      }
      start = stop;
    }
  }
  // Numbers: version 1, m 10, n 3, construction 4 and 2 and 4 (weight 4 words, 2 spare),
  // precision 32, rows 4, sum, claim 2 -> 10 numbers, 20 mutations; verified: the three
  // construction numbers both ways (6), claim 1 (1) and version 2 (1).
  CHECK(mutations == 20);
  CHECK(verified == 8);
}

TEST_CASE("mutation: every token bit flipped") {
  const auto base_gaps = gap_matrix(base_rows());
  int flips = 0;
  int unchanged = 0;
  for (std::size_t row = 0; row < 4; ++row)
    for (const bool own_token : {true, false})
      for (std::size_t bit = 0; bit < 10; ++bit) {
        std::vector<Row> rows = base_rows();
        std::string& token = own_token ? rows[row].own : rows[row].query;
        token[bit] = token[bit] == '1' ? '0' : '1';
        std::vector<std::string> lines = kBaseLines;
        lines[5 + row] = "row " + rows[row].own + " " + rows[row].query;
        CAPTURE(lines[5 + row]);
        ++flips;
        const auto result = run(lines);
        // A change to the tokens matters to the checker only through the gaps: if the gap
        // matrix is unchanged, so is everything the rule computes.
        if (gap_matrix(rows) == base_gaps) {
          ++unchanged;
          CHECK(oracle_verifies(rows, 3, 32, Integer("4908534052"), 2));
          CHECK(result.status() == Status::verified);
          CHECK(result.result.claim == "2");
        } else {
          // The oracle confirms that the changed gaps break the gap condition or the sum.
          CHECK_FALSE(oracle_verifies(rows, 3, 32, Integer("4908534052"), 2));
          CHECK(result.status() == Status::not_verified);
        }
      }
  // 4 rows x 2 tokens x 10 bits. By hand: the gaps stay the same exactly for a query bit at
  // coordinate 9 or 10, where every own token is 0 (4 rows x 2 coordinates = 8 flips); any
  // own-token flip changes <q_i,c_i> (a new 1 under q_i's 1) or <q_k,c_i> for the rows k
  // whose query has a 1 there, and any query flip on 1..8 changes <q_i,c_j> for some c_j.
  CHECK(flips == 80);
  CHECK(unchanged == 8);
}
