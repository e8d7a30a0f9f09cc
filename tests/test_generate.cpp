// Generated train/test pools: seeded, disjoint, with right targets.
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/generate.hpp"

#include <doctest/doctest.h>

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

TEST_CASE("generate: too few distinct instances is a resource error") {
  GenerateOptions options;
  options.m = 1;
  options.n = 2;
  options.train = 5;  // T(1,2) has only 4 instances with the query first
  options.test = 0;
  CHECK_THROWS_AS(generate_instances(options), ResourceError);
}
