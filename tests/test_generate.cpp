// Generated train/test pools: seeded, disjoint, with right targets.
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/generate.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>

using namespace kernelrank;

TEST_CASE("generate: pools are deterministic, disjoint and distinct") {
  GenerateOptions options;
  options.m = 24;
  options.tokens = golay_octads().words;
  options.train = 300;
  options.test = 200;
  options.seed = 9;
  const GeneratedSets a = generate_instances(options);
  const GeneratedSets b = generate_instances(options);
  CHECK(a.train.instances == b.train.instances);
  CHECK(a.test.instances == b.test.instances);
  CHECK(a.train.instances.size() == 300);
  CHECK(a.test.instances.size() == 200);
  std::set<std::pair<int, std::vector<Token>>> train, test;
  for (const Instance& i : a.train.instances) train.insert({i.query, i.tokens});
  for (const Instance& i : a.test.instances) test.insert({i.query, i.tokens});
  CHECK(train.size() == 300);
  CHECK(test.size() == 200);
  for (const auto& t : test) CHECK(train.count(t) == 0);
  options.seed = 10;
  CHECK(generate_instances(options).train.instances != a.train.instances);
}

TEST_CASE("generate: CSV and JSONL carry the Min-IP target") {
  Family family{3, 3, {{{parse_token("110"), parse_token("011"), parse_token("111")}, 0}}};
  // <110,011> = 1, <110,111> = 2, |110| = 2: target 1.
  CHECK(family_to_csv(family) == "query,x1,x2,x3,target\n1,110,011,111,1\n");
  CHECK(family_to_jsonl(family) ==
        "{\"query\":1,\"target\":1,\"tokens\":[\"110\",\"011\",\"111\"]}\n");
}

TEST_CASE("generate: more instances than exist is refused before drawing") {
  GenerateOptions options;
  options.m = 1;
  options.n = 2;
  options.train = 5;  // T(1,2) has only 4 instances with the query first
  options.test = 0;
  CHECK_THROWS_AS(generate_instances(options), DomainError);
  options.train = 4;  // all of them: drawn without a miss
  CHECK(generate_instances(options).train.instances.size() == 4);
}

TEST_CASE("generate --weight: every token has the weight, each weight-W word is drawn") {
  GenerateOptions options;
  options.m = 6;
  options.n = 3;
  options.weight = 2;  // C(6,2) = 15 words
  options.mode = QueryMode::All;
  options.train = 1500;
  options.test = 500;
  options.seed = 4;
  const GeneratedSets sets = generate_instances(options);
  std::map<Token, int> seen;
  std::set<std::pair<int, std::vector<Token>>> train;
  for (const Instance& i : sets.train.instances) train.insert({i.query, i.tokens});
  CHECK(train.size() == 1500);
  for (const Family* f : {&sets.train, &sets.test})
    for (const Instance& i : f->instances) {
      CHECK(train.count({i.query, i.tokens}) == (f == &sets.train ? 1 : 0));
      for (const Token& x : i.tokens) {
        REQUIRE(x.weight() == 2);
        ++seen[x];
      }
    }
  // 6,000 tokens over 15 words: 400 each on average; a word drawn less than half or more
  // than twice as often as the others would mean a biased draw (the draw is seeded, so this
  // is a fixed check, not a flaky one).
  CHECK(seen.size() == 15);
  for (const auto& [word, times] : seen) {
    CHECK(times > 200);
    CHECK(times < 800);
  }
  // Every query position occurs (mode all).
  std::set<int> queries;
  for (const Instance& i : sets.train.instances) queries.insert(i.query);
  CHECK(queries == std::set<int>{0, 1, 2});
}

TEST_CASE("generate: the count of distinct instances") {
  GenerateOptions options;
  options.m = 4;
  options.n = 3;
  options.weight = 2;
  CHECK(distinct_instance_count(options) == 216);  // C(4,2)^3
  options.mode = QueryMode::All;
  CHECK(distinct_instance_count(options) == 648);  // and 3 query positions
  options.weight = 4;  // one word: (1111, 1111, 1111), queried at 3 positions
  CHECK(distinct_instance_count(options) == 3);
  options.train = 3;
  options.test = 1;
  CHECK_THROWS_AS(generate_instances(options), DomainError);
  options.weight.reset();
  options.mode = QueryMode::First;
  CHECK(distinct_instance_count(options) == 4096);  // (2^4)^3
  options.tokens = {parse_token("0011"), parse_token("0011"), parse_token("0101")};
  CHECK(distinct_instance_count(options) == 8);  // 2 distinct words
}

TEST_CASE("generate --weight: out-of-range weights and a weight with a code are refused") {
  GenerateOptions options;
  options.m = 5;
  options.weight = 6;
  CHECK_THROWS_AS(generate_instances(options), DomainError);
  options.weight = -1;
  CHECK_THROWS_AS(generate_instances(options), DomainError);
  options.weight = 0;  // the zero word only: 1 instance with the query first
  options.n = 1;
  options.train = 1;
  options.test = 0;
  CHECK(generate_instances(options).train.instances.at(0).tokens.at(0).weight() == 0);
  options.weight = 2;
  options.tokens = {parse_token("00011")};
  CHECK_THROWS_AS(generate_instances(options), UsageError);
}
