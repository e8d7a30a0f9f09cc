// Covers, sign patterns and the dependence rule; see dependence_rule.hpp.
#include "check/dependence_rule.hpp"

#include "check/conclusion.hpp"
#include "check/family_chains.hpp"
#include "check/status.hpp"

namespace krcheck {
namespace {

// A pattern is a base-3 number, the first query its most significant digit: 0 for '0',
// 1 for '+', 2 for '-'. Increasing numbers are then the lexicographic order of the texts.
int digit_of(char sign) { return sign == '+' ? 1 : sign == '-' ? 2 : 0; }

// Checks that every cover names, for its j-th nonzero sign at query i, a step for q_i in the
// direction the sign asserts: '+' a = A, b = B; '-' a = B, b = A.
void check_cover_steps(const Certificate& cert) {
  const auto text = [&](const Token& token) {
    return token_text(token, static_cast<std::size_t>(cert.m));
  };
  for (const CoverLine& cover : cert.covers) {
    const std::string name = "cover " + cover.signs + " " + text(cover.a) + " " + text(cover.b);
    std::size_t next = cover.first_step;
    for (std::size_t i = 0; i < cover.signs.size(); ++i) {
      if (cover.signs[i] == '0') continue;
      const std::uint32_t id = cert.cover_steps[next++];
      const Step& step = cert.steps[id];
      const std::string which =
          "step " + std::to_string(id + 1) + " (line " + std::to_string(step.line) + ")";
      const Token& query = cert.dependence_queries[i];
      if (step.query != query)
        fail_check(cert.file, cover.line,
                   name + ": " + which + " has q=" + text(step.query) + ", but sign " +
                       std::to_string(i + 1) + " is for query " + text(query) + " (line " +
                       std::to_string(cert.query_lines[i]) + ")");
      const bool plus = cover.signs[i] == '+';
      const Token& above = plus ? cover.a : cover.b;
      const Token& below = plus ? cover.b : cover.a;
      if (step.a != above || step.b != below)
        fail_check(cert.file, cover.line,
                   name + ": " + which + " says a=" + text(step.a) + " is above b=" + text(step.b) +
                       ", but sign " + std::to_string(i + 1) + " ('" + cover.signs[i] +
                       "') needs a=" + text(above) + " above b=" + text(below));
    }
  }
}

}  // namespace

DependenceDecision decide_dependence_covers(std::size_t length,
                                            const std::vector<std::string>& covers,
                                            bool one_signed_required) {
  std::vector<std::uint64_t> weight(length);  // 3^(length - 1 - i)
  std::uint64_t total = 1;
  for (std::size_t i = length; i-- > 0;) {
    weight[i] = total;
    total *= 3;
  }
  // Each cover and its negation, then closed downwards: zeroing a nonzero digit of a
  // covered pattern gives a covered pattern. One pass per digit gives every subset of the
  // support, 3^L * L steps in all instead of 2^(support) per cover.
  std::vector<std::uint8_t> covered(total, 0);
  for (const std::string& cover : covers) {
    std::uint64_t index = 0;
    std::uint64_t negated = 0;
    for (std::size_t i = 0; i < length; ++i) {
      const int digit = digit_of(cover[i]);
      index += static_cast<std::uint64_t>(digit) * weight[i];
      negated += static_cast<std::uint64_t>(digit == 0 ? 0 : 3 - digit) * weight[i];
    }
    covered[index] = 1;
    covered[negated] = 1;
  }
  for (std::size_t i = 0; i < length; ++i)
    for (std::uint64_t pattern = 0; pattern < total; ++pattern) {
      const std::uint64_t digit = pattern / weight[i] % 3;
      if (digit != 0 && covered[pattern] != 0) covered[pattern - digit * weight[i]] = 1;
    }
  DependenceDecision decision;
  for (std::uint64_t pattern = 1; pattern < total; ++pattern) {
    bool plus = false;
    bool minus = false;
    for (std::size_t i = 0; i < length; ++i) {
      const std::uint64_t digit = pattern / weight[i] % 3;
      plus = plus || digit == 1;
      minus = minus || digit == 2;
    }
    if (!one_signed_required && !(plus && minus)) continue;  // impossible in the cube
    ++decision.required;
    if (covered[pattern] == 0 && decision.uncovered.empty())
      for (std::size_t i = 0; i < length; ++i) decision.uncovered += "0+-"[pattern / weight[i] % 3];
  }
  decision.required /= 2;  // t and -t are both required or neither
  decision.all_covered = decision.uncovered.empty();
  return decision;
}

BigInt check_dependence_rule(const Certificate& cert, const Family* family, std::ostream& out) {
  check_fact_steps(cert, family, "dependence", out);
  check_cover_steps(cert);
  const std::size_t length = cert.dependence_queries.size();
  out << "c covers: " << cert.covers.size() << " over " << length
      << " query tokens, every step in the direction of its sign\n";
  std::vector<std::string> signs;
  signs.reserve(cert.covers.size());
  for (const CoverLine& cover : cert.covers) signs.push_back(cover.signs);
  const DependenceDecision decision = decide_dependence_covers(length, signs, family != nullptr);
  if (!decision.all_covered)
    fail_check(cert.file, cert.covers_line,
               "the covers miss the sign pattern " + decision.uncovered +
                   ": no cover agrees with it, or with its negation, wherever it is nonzero" +
                   (family != nullptr ? " (a family task needs every nonzero pattern, one-signed "
                                        "ones too)"
                                      : ""));
  out << "c dependence rule at rank " << cert.dependence_rank << ": all " << decision.required
      << (family != nullptr ? " nonzero" : " mixed")
      << " sign patterns (up to negation) are covered\n";
  const BigInt bound = cert.dependence_rank + 1;
  check_claim(cert, bound, "dependence rule at rank " + std::to_string(cert.dependence_rank), out);
  return bound;
}

}  // namespace krcheck
