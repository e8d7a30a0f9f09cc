// The coverage decision of the dependence rule, on covers built by hand. A brute-force
// oracle written here (each pattern against each cover, straight from the definition, not
// the checker's downward closure) confirms what is covered.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "check/dependence_rule.hpp"
#include "test_support.hpp"

using krcheck::decide_dependence_covers;

namespace {

char negated(char sign) { return sign == '+' ? '-' : sign == '-' ? '+' : '0'; }

// c covers t when c, or -c, equals t wherever t is nonzero.
bool covers(const std::string& c, const std::string& t) {
  bool same = true;
  bool opposite = true;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '0') continue;
    same = same && c[i] == t[i];
    opposite = opposite && c[i] == negated(t[i]);
  }
  return same || opposite;
}

// Every sign pattern of `length` in lexicographic order '0' < '+' < '-', the zero one first.
std::vector<std::string> all_patterns(std::size_t length) {
  std::vector<std::string> out = {""};
  for (std::size_t i = 0; i < length; ++i) {
    std::vector<std::string> longer;
    for (const auto& prefix : out)
      for (const char sign : {'0', '+', '-'}) longer.push_back(prefix + sign);
    out = longer;
  }
  return out;
}

bool mixed(const std::string& t) {
  return t.find('+') != std::string::npos && t.find('-') != std::string::npos;
}

// The first required pattern no cover covers, or "" when all are covered.
std::string oracle(std::size_t length, const std::vector<std::string>& cover_signs, bool family) {
  for (const auto& t : all_patterns(length)) {
    if (t.find_first_not_of('0') == std::string::npos || (!family && !mixed(t))) continue;
    bool hit = false;
    for (const auto& c : cover_signs) hit = hit || covers(c, t);
    if (!hit) return t;
  }
  return "";
}

// The m = 8 construction: queries q_i = the i-th pair of coordinates. For t mixed with its
// first nonzero '+', B = union of the q_i with '+', A = union of those with '-'.
struct Cover {
  std::string signs, a, b;
};
std::vector<Cover> disjoint_pair_covers(std::size_t queries, bool full_only) {
  std::vector<Cover> out;
  for (const auto& t : all_patterns(queries)) {
    const auto first = t.find_first_not_of('0');
    if (first == std::string::npos || t[first] != '+' || !mixed(t)) continue;
    if (full_only && t.find('0') != std::string::npos) continue;
    Cover cover{t, std::string(2 * queries, '0'), std::string(2 * queries, '0')};
    for (std::size_t i = 0; i < queries; ++i) {
      if (t[i] == '0') continue;
      std::string& side = t[i] == '+' ? cover.b : cover.a;
      side[2 * i] = side[2 * i + 1] = '1';
    }
    out.push_back(cover);
  }
  return out;
}

std::vector<std::string> signs_of(const std::vector<Cover>& covers) {
  std::vector<std::string> out;
  for (const auto& cover : covers) out.push_back(cover.signs);
  return out;
}

std::string pair_query(std::size_t i, std::size_t queries) {
  std::string q(2 * queries, '0');
  q[2 * i] = q[2 * i + 1] = '1';
  return q;
}

int naive_overlap(const std::string& x, const std::string& z) {
  int count = 0;
  for (std::size_t k = 0; k < x.size(); ++k) count += x[k] == '1' && z[k] == '1';
  return count;
}

// The certificate text of the construction at m = 2 * queries, n = 3, steps k = 1.
std::string pair_certificate(std::size_t queries, const std::vector<Cover>& covers, int claim) {
  std::string steps;
  std::string lines;
  int id = 0;
  for (const Cover& cover : covers) {
    std::string ids;
    for (std::size_t i = 0; i < queries; ++i) {
      if (cover.signs[i] == '0') continue;
      const std::string q = pair_query(i, queries);
      const bool plus = cover.signs[i] == '+';
      const std::string& a = plus ? cover.a : cover.b;
      const std::string& b = plus ? cover.b : cover.a;
      CHECK(naive_overlap(q, b) - naive_overlap(q, a) == 2);  // f = (3-1-1)(2-1)/1 = 1
      steps += "step " + std::to_string(++id) + " pos=1 q=" + q + " a=" + a + " b=" + b + " k=1\n";
      ids += " " + std::to_string(id);
    }
    lines += "cover " + cover.signs + " " + cover.a + " " + cover.b + " :" + ids + "\n";
  }
  std::string text = "kernelrank-certificate 2\ntask cube m=" + std::to_string(2 * queries) +
                     " n=3 mode=first class=NK positions=independent\nrule dependence rank=" +
                     std::to_string(queries - 1) + "\nqueries " + std::to_string(queries) + "\n";
  for (std::size_t i = 0; i < queries; ++i) text += "query " + pair_query(i, queries) + "\n";
  return text + "steps " + std::to_string(id) + "\n" + steps + "covers " +
         std::to_string(covers.size()) + "\n" + lines + "claim r >= " + std::to_string(claim) +
         "\nend\n";
}

}  // namespace

TEST_CASE("dependence rule: at rank 1 the cover +- is enough for the cube, not for a family") {
  const auto cube = decide_dependence_covers(2, {"+-"}, false);
  CHECK(cube.all_covered);
  CHECK(cube.required == 1);
  const auto family = decide_dependence_covers(2, {"+-"}, true);
  CHECK_FALSE(family.all_covered);
  CHECK(family.required == 4);      // +0, 0+, ++, +- up to negation
  CHECK(family.uncovered == "++");  // +0 and 0+ agree with +- (or -+) on their support
  CHECK(decide_dependence_covers(2, {"+-", "++"}, true).all_covered);
  CHECK(decide_dependence_covers(2, {"-+", "--"}, true).all_covered);  // negations count
  const auto one_signed = decide_dependence_covers(2, {"++", "+0", "0+"}, false);
  CHECK_FALSE(one_signed.all_covered);
  CHECK(one_signed.uncovered == "+-");
  CHECK(decide_dependence_covers(2, {}, false).uncovered == "+-");
}

TEST_CASE("dependence rule: rank 2 without exactly one mixed pattern is refused") {
  // The mixed patterns up to negation: 0+-, +0-, +-0, ++-, +-+, +--; the three without a
  // zero cover the other three.
  CHECK(decide_dependence_covers(3, {"++-", "+-+", "+--"}, false).all_covered);
  CHECK(decide_dependence_covers(3, {"++-", "+-+", "+--"}, false).required == 6);
  const auto missing = decide_dependence_covers(3, {"++-", "+--"}, false);
  CHECK_FALSE(missing.all_covered);
  CHECK(missing.uncovered == "+-+");
  // A cover with zeros covers only patterns with zeros in the same places or more.
  const auto zeros = decide_dependence_covers(3, {"++-", "+--", "+-0", "0-+", "+0+"}, false);
  CHECK(zeros.uncovered == "+-+");
  CHECK(decide_dependence_covers(3, {"++-", "+--", "-+-"}, false).all_covered);  // -(+-+)
}

TEST_CASE("dependence rule: the closure agrees with the definition on every cover set of rank 2") {
  // The 13 nonzero patterns of length 3 with first nonzero '+'; all 2^13 subsets as covers.
  std::vector<std::string> base;
  for (const auto& t : all_patterns(3)) {
    const auto first = t.find_first_not_of('0');
    if (first != std::string::npos && t[first] == '+') base.push_back(t);
  }
  REQUIRE(base.size() == 13);
  for (std::uint32_t subset = 0; subset < (1U << base.size()); ++subset) {
    std::vector<std::string> chosen;
    for (std::size_t t = 0; t < base.size(); ++t)
      if ((subset >> t) & 1U)
        chosen.push_back(t % 2 == 0 ? base[t]
                                    : std::string({negated(base[t][0]), negated(base[t][1]),
                                                   negated(base[t][2])}));
    for (const bool family : {false, true}) {
      const auto decision = decide_dependence_covers(3, chosen, family);
      const std::string expected = oracle(3, chosen, family);
      if (decision.uncovered != expected) {
        CAPTURE(subset);
        CAPTURE(family);
        CHECK(decision.uncovered == expected);
      }
      CHECK(decision.all_covered == expected.empty());
    }
  }
}

TEST_CASE("dependence rule: the m=8 disjoint pairs cover every mixed pattern, each needed") {
  const auto all_mixed = disjoint_pair_covers(4, false);
  REQUIRE(all_mixed.size() == 25);  // (3^4 - 2 * 2^4 + 1) / 2
  const auto decision = decide_dependence_covers(4, signs_of(all_mixed), false);
  CHECK(decision.all_covered);
  CHECK(decision.required == 25);
  // Of the 40 nonzero patterns up to negation they cover 39: ++++ would need a cover
  // without a '-', which the cube does not require (and a family would).
  const auto as_family = decide_dependence_covers(4, signs_of(all_mixed), true);
  CHECK(as_family.required == 40);
  CHECK(as_family.uncovered == "++++");
  int covered_of_40 = 0;
  for (const auto& t : all_patterns(4)) {
    const auto first = t.find_first_not_of('0');
    if (first == std::string::npos || t[first] != '+') continue;
    bool hit = false;
    for (const auto& c : signs_of(all_mixed)) hit = hit || covers(c, t);
    covered_of_40 += hit ? 1 : 0;
  }
  CHECK(covered_of_40 == 39);
  // A cover with a zero is implied by any cover that fills its zeros with a sign, so only
  // the seven without zeros are needed: without any one of them its own pattern is missed.
  const auto minimal = disjoint_pair_covers(4, true);
  REQUIRE(minimal.size() == 7);
  CHECK(decide_dependence_covers(4, signs_of(minimal), false).all_covered);
  for (std::size_t skipped = 0; skipped < minimal.size(); ++skipped) {
    CAPTURE(skipped);
    auto fewer = signs_of(minimal);
    fewer.erase(fewer.begin() + static_cast<long>(skipped));
    const auto result = decide_dependence_covers(4, fewer, false);
    CHECK(result.uncovered == minimal[skipped].signs);
    CHECK(oracle(4, fewer, false) == minimal[skipped].signs);
  }
  for (std::size_t skipped = 0; skipped < all_mixed.size(); ++skipped) {
    auto fewer = signs_of(all_mixed);
    fewer.erase(fewer.begin() + static_cast<long>(skipped));
    const bool needed = all_mixed[skipped].signs.find('0') == std::string::npos;
    CHECK(decide_dependence_covers(4, fewer, false).all_covered == !needed);
  }
}

TEST_CASE("dependence rule: the m=8 construction as a certificate gives r >= 4") {
  const auto minimal = disjoint_pair_covers(4, true);
  const auto run = krcheck_test::run_text(pair_certificate(4, minimal, 4));
  CHECK(run.status() == krcheck::Status::verified);
  CHECK(run.result.bound == "4");
  CHECK(run.out.find("c dependence rule at rank 3: all 25 mixed sign patterns (up to negation) "
                     "are covered\n") != std::string::npos);
  CHECK(krcheck_test::run_text(pair_certificate(4, minimal, 5)).status() ==
        krcheck::Status::not_verified);
  auto fewer = minimal;
  fewer.erase(fewer.begin() + 3);
  const auto missing = krcheck_test::run_text(pair_certificate(4, fewer, 4));
  CHECK(missing.status() == krcheck::Status::not_verified);
  CHECK(missing.err.find("error: the covers miss the sign pattern " + minimal[3].signs + ":") !=
        std::string::npos);
  // All 25 covers, and the m = 6 and m = 4 members of the family of constructions.
  CHECK(krcheck_test::run_text(pair_certificate(4, disjoint_pair_covers(4, false), 4)).status() ==
        krcheck::Status::verified);
  CHECK(krcheck_test::run_text(pair_certificate(3, disjoint_pair_covers(3, false), 3)).status() ==
        krcheck::Status::verified);
  CHECK(krcheck_test::run_text(pair_certificate(2, disjoint_pair_covers(2, false), 2)).status() ==
        krcheck::Status::verified);
}

TEST_CASE("dependence rule: rank 12 scans all 3^13 patterns") {
  // Every pattern without zeros, first sign '+': 2^12 covers, all nonzero patterns covered.
  std::vector<std::string> full;
  for (std::uint32_t bits = 0; bits < (1U << 12); ++bits) {
    std::string t = "+";
    for (int i = 0; i < 12; ++i) t += ((bits >> i) & 1U) != 0 ? '-' : '+';
    full.push_back(t);
  }
  const auto family = decide_dependence_covers(13, full, true);
  CHECK(family.all_covered);
  CHECK(family.required == 797161);  // (3^13 - 1) / 2
  full.erase(full.begin() + 1);      // +-+++++++++++: it and its negation lose their only cover
  const auto cube = decide_dependence_covers(13, full, false);
  CHECK(cube.required == 788970);  // (3^13 - 2 * 2^13 + 1) / 2
  CHECK(cube.uncovered == "+-+++++++++++");
  CHECK(decide_dependence_covers(13, {std::string(13, '+')}, false).uncovered == "00000000000+-");
}
