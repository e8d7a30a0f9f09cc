// The orientation decision of the order rule, on cores built by hand. A depth-first search
// written here (not the checker's Kahn algorithm) confirms which orientations are acyclic.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "check/order_rule.hpp"
#include "test_support.hpp"

using krcheck::OrderCore;

namespace {

// The orientation graph, built the way the format document describes it, and searched for
// a cycle by DFS with three colours.
bool has_cycle(const OrderCore& core, std::uint32_t orientation) {
  const std::size_t queries = core.query_count;
  std::vector<std::vector<std::size_t>> next(queries + core.pairs.size());
  for (std::size_t t = 0; t < core.pairs.size(); ++t) {
    const bool reversed = ((orientation >> t) & 1U) != 0;
    const auto& before = reversed ? core.pairs[t].second_above : core.pairs[t].first_above;
    const auto& after = reversed ? core.pairs[t].first_above : core.pairs[t].second_above;
    for (const auto q : before) next[q].push_back(queries + t);
    for (const auto q : after) next[queries + t].push_back(q);
  }
  std::vector<int> colour(next.size(), 0);  // 0 new, 1 on the path, 2 done
  std::function<bool(std::size_t)> visit = [&](std::size_t node) {
    colour[node] = 1;
    for (const auto target : next[node])
      if (colour[target] == 1 || (colour[target] == 0 && visit(target))) return true;
    colour[node] = 2;
    return false;
  };
  for (std::size_t node = 0; node < next.size(); ++node)
    if (colour[node] == 0 && visit(node)) return true;
  return false;
}

// Queries q1, q2, q3 (0, 1, 2). A keypair whose first key is above for two of them and the
// second for the third says that the third is not between the other two. All three such
// statements are impossible for three angles, any two hold (put the query that both leave
// free in the middle).
const OrderCore::Sides kNotBetween3{{0, 1}, {2}};  // q3 is not between q1 and q2
const OrderCore::Sides kNotBetween1{{1, 2}, {0}};  // q1 is not between q2 and q3
const OrderCore::Sides kNotBetween2{{0, 2}, {1}};  // q2 is not between q1 and q3

OrderCore core_of(std::vector<OrderCore::Sides> pairs, std::size_t queries) {
  OrderCore core;
  core.query_count = queries;
  core.pairs = std::move(pairs);
  return core;
}

int naive_overlap(const std::string& x, const std::string& z) {
  int count = 0;
  for (std::size_t k = 0; k < x.size(); ++k) count += x[k] == '1' && z[k] == '1';
  return count;
}

// The m = 5 core of the task description (T(5,3), rank 2): key pair, the queries for which
// its first key is above, those for which its second key is above.
struct CorePair {
  std::string x, y;
  std::vector<std::string> x_above, y_above;
};
const std::vector<CorePair> kM5Core = {
    {"00011", "11100", {"01100", "10100", "11000", "11100", "11101", "11110"}, {"00011"}},
    {"00110", "11001", {"01001", "10001", "11000", "11001", "11011", "11101"}, {"00110"}},
    {"00111", "11000", {"11000"}, {"00011", "00101", "00110", "00111", "01111", "10111"}},
    {"01001", "10110", {"00110", "10010", "10100", "10110", "10111", "11110"}, {"01001"}},
    {"01011", "10100", {"10100"}, {"00011", "01001", "01010", "01011", "01111", "11011"}},
};

OrderCore m5_core_without(std::size_t skipped) {
  OrderCore core;
  std::map<std::string, std::uint32_t> index;
  const auto number = [&](const std::string& q) {
    const auto [entry, added] = index.emplace(q, static_cast<std::uint32_t>(index.size()));
    return entry->second;
  };
  for (std::size_t t = 0; t < kM5Core.size(); ++t) {
    if (t == skipped) continue;
    const CorePair& pair = kM5Core[t];
    OrderCore::Sides sides;
    // "x above y for q" is an L2 step a = x, b = y: it needs <q,y> - <q,x> >= 2.
    for (const auto& q : pair.x_above) {
      CHECK(naive_overlap(q, pair.y) - naive_overlap(q, pair.x) >= 2);
      sides.first_above.push_back(number(q));
    }
    for (const auto& q : pair.y_above) {
      CHECK(naive_overlap(q, pair.x) - naive_overlap(q, pair.y) >= 2);
      sides.second_above.push_back(number(q));
    }
    core.pairs.push_back(sides);
  }
  core.query_count = index.size();
  return core;
}

}  // namespace

TEST_CASE("order rule: rank 1 is contradicted by one keypair with both directions") {
  const auto one = krcheck::decide_order_core(1, core_of({{{0}, {1}}}, 2));
  CHECK(one.contradictory);
  CHECK(one.orientations_examined == 0);  // nothing to enumerate at rank 1
  CHECK_FALSE(krcheck::decide_order_core(1, core_of({}, 0)).contradictory);
  // At rank 2 one keypair is always consistent: q1 < threshold < q2.
  const auto at_rank_2 = krcheck::decide_order_core(2, core_of({{{0}, {1}}}, 2));
  CHECK_FALSE(at_rank_2.contradictory);
  CHECK(at_rank_2.consistent_orientation == 0);
}

TEST_CASE("order rule: three 'not between' keypairs contradict rank 2, any two do not") {
  const OrderCore all3 = core_of({kNotBetween3, kNotBetween1, kNotBetween2}, 3);
  for (std::uint32_t orientation = 0; orientation < 8; ++orientation) {
    CAPTURE(orientation);
    CHECK(has_cycle(all3, orientation));
    CHECK_FALSE(krcheck::orientation_is_acyclic(all3, orientation));
  }
  const auto decision = krcheck::decide_order_core(2, all3);
  CHECK(decision.contradictory);
  CHECK(decision.orientations_examined == 8);

  // Two of them. By hand for (q3 not between q1,q2; q1 not between q2,q3): orientation 00
  // has q1 -> t1 -> q3 -> t2 -> q1; orientation 10 (the first reversed) is q3 -> t1 -> q2
  // -> t2 -> q1 with t1 -> q1 and q3 -> t2: acyclic, q3 < q2 < q1.
  const OrderCore first_two = core_of({kNotBetween3, kNotBetween1}, 3);
  CHECK_FALSE(krcheck::orientation_is_acyclic(first_two, 0));
  CHECK(krcheck::orientation_is_acyclic(first_two, 1));
  const auto two = krcheck::decide_order_core(2, first_two);
  CHECK_FALSE(two.contradictory);
  CHECK(two.consistent_orientation == 1);
  CHECK(two.orientations_examined == 2);
  CHECK(krcheck::orientation_text(two.consistent_orientation, 2) == "10");
  for (const auto& pairs : {std::vector<OrderCore::Sides>{kNotBetween3, kNotBetween2},
                            std::vector<OrderCore::Sides>{kNotBetween1, kNotBetween2}}) {
    const OrderCore core = core_of(pairs, 3);
    const auto result = krcheck::decide_order_core(2, core);
    CHECK_FALSE(result.contradictory);
    CHECK_FALSE(has_cycle(core, result.consistent_orientation));
  }
}

TEST_CASE("order rule: a query on both sides of one keypair is a cycle either way") {
  const OrderCore core = core_of({{{0, 1}, {1}}}, 2);
  CHECK_FALSE(krcheck::orientation_is_acyclic(core, 0));
  CHECK_FALSE(krcheck::orientation_is_acyclic(core, 1));
  CHECK(krcheck::decide_order_core(2, core).contradictory);
}

TEST_CASE("order rule: the m=5 core contradicts rank 2 and needs all five key pairs") {
  const OrderCore full = m5_core_without(kM5Core.size());
  CHECK(full.query_count == 20);
  for (std::uint32_t orientation = 0; orientation < 32; ++orientation)
    CHECK(has_cycle(full, orientation));
  const auto decision = krcheck::decide_order_core(2, full);
  CHECK(decision.contradictory);
  CHECK(decision.orientations_examined == 32);
  for (std::size_t skipped = 0; skipped < kM5Core.size(); ++skipped) {
    CAPTURE(skipped);
    const OrderCore core = m5_core_without(skipped);
    const auto result = krcheck::decide_order_core(2, core);
    REQUIRE_FALSE(result.contradictory);
    // The first acyclic orientation by the DFS is the one the checker reports.
    std::uint32_t first = 0;
    while (has_cycle(core, first)) ++first;
    CHECK(result.consistent_orientation == first);
    CHECK(result.orientations_examined == first + 1);
  }
}

TEST_CASE("order rule: 20 keypairs, all 2^20 orientations examined") {
  // Keypair 1 has query 0 on both sides, so every orientation has a cycle; the other 19
  // each separate two further queries.
  std::vector<OrderCore::Sides> pairs = {{{0}, {0}}};
  for (std::uint32_t t = 1; t < 20; ++t) pairs.push_back({{2 * t - 1}, {2 * t}});
  const auto decision = krcheck::decide_order_core(2, core_of(pairs, 39));
  CHECK(decision.contradictory);
  CHECK(decision.orientations_examined == (std::uint64_t{1} << 20));
}

TEST_CASE("order rule: the m=5 core as a certificate gives r >= 3 after 32 orientations") {
  std::string steps;
  std::string keypairs;
  int id = 0;
  for (const CorePair& pair : kM5Core) {
    std::string ids;
    const auto add = [&](const std::string& q, const std::string& a, const std::string& b) {
      steps += "step " + std::to_string(++id) + " pos=1 q=" + q + " a=" + a + " b=" + b + " k=1\n";
      ids += " " + std::to_string(id);
    };
    for (const auto& q : pair.x_above) add(q, pair.x, pair.y);
    for (const auto& q : pair.y_above) add(q, pair.y, pair.x);
    keypairs += "keypair " + pair.x + " " + pair.y + " :" + ids + "\n";
  }
  const std::string head =
      "kernelrank-certificate 2\ntask cube m=5 n=3 mode=first class=NK positions=independent\n"
      "rule order rank=2\nsteps " +
      std::to_string(id) + "\n" + steps + "core 5\n" + keypairs;
  const auto run = krcheck_test::run_text(head + "claim r >= 3\nend\n");
  CHECK(run.status() == krcheck::Status::verified);
  CHECK(run.result.bound == "3");
  CHECK(run.out.find("c order rule at rank 2: 32 orientations examined, every one has a cycle\n") !=
        std::string::npos);
  CHECK(krcheck_test::run_text(head + "claim r >= 4\nend\n").status() ==
        krcheck::Status::not_verified);
}
