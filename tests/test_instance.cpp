// Instances, targets, enumeration and the family file format.
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/instance.hpp"

#include <doctest/doctest.h>

#include <set>

using namespace kernelrank;

namespace {
Instance make(std::initializer_list<const char*> tokens, int query) {
  Instance instance;
  for (const char* t : tokens) instance.tokens.push_back(parse_token(t));
  instance.query = query;
  return instance;
}
}  // namespace

TEST_CASE("instance: Min-IP targets worked by hand") {
  // q = 1101: <q,q> = 3, <q,0110> = 1, <q,0010> = 0.
  CHECK(min_ip_target(make({"1101", "0110", "0010"}, 0)) == 0);
  CHECK(min_ip_target(make({"1101", "0110", "1111"}, 0)) == 1);
  // The query itself is included: a length-1 instance has target |x|.
  CHECK(min_ip_target(make({"1101"}, 0)) == 3);
  // Query at the last position: q = 0110, overlaps 1 (with 1101), 2 (itself).
  CHECK(min_ip_target(make({"1101", "0110"}, 1)) == 1);
  CHECK(to_string(make({"10", "01"}, 1)) == "q=2 10 01");
}

TEST_CASE("instance: query modes") {
  CHECK(query_positions(QueryMode::First, 4) == std::vector<int>{0});
  CHECK(query_positions(QueryMode::Last, 4) == std::vector<int>{3});
  CHECK(query_positions(QueryMode::All, 3) == std::vector<int>{0, 1, 2});
  CHECK(parse_query_mode("last") == QueryMode::Last);
  CHECK_THROWS_AS(parse_query_mode("middle"), UsageError);
}

TEST_CASE("instance: enumeration visits every sequence once per query") {
  for (QueryMode mode : {QueryMode::First, QueryMode::Last, QueryMode::All}) {
    std::set<std::pair<std::vector<std::uint32_t>, int>> seen;
    for_each_sequence(3, 3, mode, [&](const std::vector<std::uint32_t>& seq, int query) {
      CHECK(seen.insert({seq, query}).second);
      return true;
    });
    const std::size_t expected = 27U * (mode == QueryMode::All ? 3U : 1U);
    CHECK(seen.size() == expected);
    CHECK(count_instances(3, 3, mode, 1000) == expected);
  }
  // Early stop.
  int visits = 0;
  for_each_sequence(4, 2, QueryMode::First,
                    [&](const std::vector<std::uint32_t>&, int) { return ++visits < 5; });
  CHECK(visits == 5);
}

TEST_CASE("instance: instance counts beyond the limit are refused") {
  CHECK_THROWS_AS(count_instances(256, 5, QueryMode::First, 1ULL << 34), ResourceError);
  CHECK(count_instances(256, 4, QueryMode::First, 1ULL << 34) == (1ULL << 32));
  CHECK_THROWS_AS(count_instances(2, 0, QueryMode::First, 10), UsageError);
}

TEST_CASE("family: parse, targets and round trip") {
  const std::string text =
      "# a comment line\n"
      "kernelrank-family 1 m=3 n=3\n"
      "1 110 011 001   # q = 110: overlaps 2, 1, 0\n"
      "\n"
      "3 111 100 010\r\n";
  const Family family = parse_family("f.txt", text);
  REQUIRE(family.instances.size() == 2);
  CHECK(family.m == 3);
  CHECK(family.n == 3);
  CHECK(min_ip_target(family.instances[0]) == 0);
  CHECK(family.instances[1].query == 2);
  CHECK(min_ip_target(family.instances[1]) == 0);  // <010,100> = 0
  const Family again = parse_family("g.txt", family_to_text(family));
  CHECK(again.instances == family.instances);
}

namespace {
void expect_family_error(const std::string& text, std::size_t line, const std::string& phrase) {
  try {
    parse_family("bad.txt", text);
    FAIL("expected an InputError for: " << text);
  } catch (const InputError& e) {
    CHECK(e.file() == "bad.txt");
    CHECK(e.line() == line);
    CHECK_MESSAGE(e.message().find(phrase) != std::string::npos, e.what());
  }
}
}  // namespace

TEST_CASE("family: malformed files name the line and what was expected") {
  expect_family_error("", 1, "header");
  expect_family_error("kernelrank-famly 1 m=3 n=2\n", 1, "header");
  expect_family_error("kernelrank-family 2 m=3 n=2\n", 1, "version 1");
  expect_family_error("kernelrank-family 1 n=2 m=3\n", 1, "m=<value>");
  expect_family_error("kernelrank-family 1 m=0 n=2\n", 1, "width m");
  expect_family_error("kernelrank-family 1 m=3 n=x\n", 1, "length n");
  expect_family_error("kernelrank-family 1 m=3 n=2 extra\n", 1, "unexpected field");
  // Wrong token width on line 3.
  expect_family_error("kernelrank-family 1 m=3 n=2\n1 101 011\n1 101 0111\n", 3, "width 3");
  // Query position out of range.
  expect_family_error("kernelrank-family 1 m=3 n=2\n3 101 011\n", 2, "query position");
  expect_family_error("kernelrank-family 1 m=3 n=2\n0 101 011\n", 2, "query position");
  // Wrong number of tokens.
  expect_family_error("kernelrank-family 1 m=3 n=2\n1 101\n", 2, "3 fields");
  // Not a token.
  expect_family_error("kernelrank-family 1 m=3 n=2\n1 101 0a1\n", 2, "'0' or '1'");
  // Binary garbage.
  static const char kBinary[] = "kernelrank-family 1 m=3 n=2\n1 1\0 1 011\n";
  expect_family_error(std::string(kBinary, sizeof kBinary - 1), 2, "NUL");
}
