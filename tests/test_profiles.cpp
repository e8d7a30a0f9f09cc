// Overlap profiles (theory.md §5) against brute force, and their counting.
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/builtin_models.hpp"

#include <doctest/doctest.h>

#include <functional>

using namespace kernelrank;

namespace {

Integer binomial(int n, int k) {
  // Pascal's triangle, independent of GMP's binomial used by the library.
  std::vector<std::vector<Integer>> c(static_cast<std::size_t>(n) + 1);
  for (int i = 0; i <= n; ++i) {
    c[static_cast<std::size_t>(i)].assign(static_cast<std::size_t>(i) + 1, 1);
    for (int j = 1; j < i; ++j)
      c[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] =
          c[static_cast<std::size_t>(i) - 1][static_cast<std::size_t>(j) - 1] +
          c[static_cast<std::size_t>(i) - 1][static_cast<std::size_t>(j)];
  }
  return c[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)];
}

}  // namespace

TEST_CASE("profiles: counts of all profiles add up to 2^(mn)") {
  for (int m = 1; m <= 6; ++m) {
    for (int n = 1; n <= 4; ++n) {
      Integer total = 0;
      std::vector<int> overlaps;
      for (int w = 0; w <= m; ++w) {
        std::function<void(int)> rec = [&](int lowest) {
          if (static_cast<int>(overlaps.size()) == n - 1) {
            total += profile_instance_count(m, n, w, overlaps);
            return;
          }
          for (int s = lowest; s <= w; ++s) {
            overlaps.push_back(s);
            rec(s);
            overlaps.pop_back();
          }
        };
        rec(0);
      }
      CHECK(total == Integer(1) << (m * n));
    }
  }
  // One count by hand: m=3, n=3, w=2, overlaps {1,1}: C(3,2)=3 queries, each key
  // has C(2,1)*2^(1) = 4 choices, one ordering: 3*4*4 = 48.
  CHECK(profile_instance_count(3, 3, 2, {1, 1}) == 48);
  // {0,1}: two orderings, 3 * (1*2) * (2*2) * 2 = 48.
  CHECK(profile_instance_count(3, 3, 2, {0, 1}) == 48);
  CHECK(binomial(5, 2) == 10);
}

TEST_CASE("profiles: agree exactly with brute force wherever both run") {
  struct Case {
    std::string name;
    std::function<std::unique_ptr<Model>(int m, int n)> make;
  };
  const std::vector<Case> cases = {
      {"rank1-mean", [](int m, int n) { return make_rank1_mean(m, n); }},
      {"softmax 1", [](int m, int) { return make_softmax(m, Rational(1)); }},
      {"softmax 2", [](int m, int) { return make_softmax(m, Rational(2)); }},
      {"softmax 3", [](int m, int) { return make_softmax(m, Rational(3)); }},
      {"softmax 5/2", [](int m, int) { return make_softmax(m, Rational(5, 2)); }},
      {"softmax 1/2", [](int m, int) { return make_softmax(m, Rational(1, 2)); }},
  };
  int comparisons = 0;
  for (const Case& c : cases) {
    for (int n = 1; n <= 4; ++n) {
      const int max_m = n <= 2 ? 6 : (n == 3 ? 5 : 3);
      for (int m = 1; m <= max_m; ++m) {
        for (QueryMode mode : {QueryMode::First, QueryMode::Last, QueryMode::All}) {
          const auto model = c.make(m, n);
          EvalOptions options;
          options.mode = mode;
          const EvalReport brute = evaluate_cube(*model, m, n, options);
          const EvalReport profiles = evaluate_profiles(*model->overlap_form(), m, n, options);
          CAPTURE(c.name);
          CAPTURE(m);
          CAPTURE(n);
          CHECK(brute.instances == profiles.instances);
          CHECK(brute.failing == profiles.failing);
          CHECK(brute.undefined == profiles.undefined);
          CHECK(brute.max_error == profiles.max_error);
          // The realised worst instance really has the reported error.
          REQUIRE(profiles.worst);
          CHECK(*evaluate_instance(*model, profiles.worst->instance).error == *profiles.max_error);
          for (const InstanceOutcome& f : profiles.failures)
            CHECK(evaluate_instance(*model, f.instance).fails());
          ++comparisons;
        }
      }
    }
  }
  CHECK(comparisons == 6 * 3 * (6 + 6 + 5 + 3));
}

TEST_CASE("profiles: softmax base 3 solves T(m,3) for every m <= 1000" *
          doctest::test_suite("slow")) {
  // The profiles of T(m,3) are those with query weight w <= m, so the maximum
  // error at each w up to 1000 settles every m <= 1000 at once. Expected by
  // hand: relative to the target t, the three overlaps are t + a, t, t + b and
  // y - t = (a 3^-a + b 3^-b) / (1 + 3^-a + 3^-b), largest at a = b = 1:
  // (2/3)/(5/3) = 2/5; w = 0 forces a = b = 0 and error 0.
  const auto softmax = make_softmax(1000, Rational(3));
  const auto per_weight = max_error_by_query_weight(*softmax->overlap_form(), 1000, 3);
  REQUIRE(per_weight.size() == 1001);
  CHECK(*per_weight[0] == 0);
  int at_two_fifths = 0;
  for (int w = 1; w <= 1000; ++w) {
    REQUIRE(per_weight[static_cast<std::size_t>(w)]);
    if (*per_weight[static_cast<std::size_t>(w)] == Rational(2, 5)) ++at_two_fifths;
  }
  CHECK(at_two_fifths == 1000);
  // And the full report at a large width, with its exact instance count 2^(3m).
  const EvalReport report =
      evaluate_profiles(*make_softmax(300, Rational(3))->overlap_form(), 300, 3, EvalOptions{});
  CHECK(report.solves());
  CHECK(report.instances == Integer(1) << 900);
  CHECK(*report.max_error == Rational(2, 5));
}

TEST_CASE("profiles: base 2 failure counts at m = 2 worked by hand") {
  // Relative to the target t the overlaps are t+a (the query itself), t and t+b;
  // error (a 2^-a + b 2^-b)/(1 + 2^-a + 2^-b) is >= 1/2 exactly for
  // (a,b) in {(1,1), (2,1), (2,2)}. Counting ordered key pairs at m = 2:
  //   |q| = 1 (2 queries): one key of overlap 0 and one of overlap 1, each from
  //     2 tokens, 2 orders: 8 per query -> 16;
  //   q = 11: overlaps {0, 1 or 2}: 1*3 tokens * 2 orders = 6, overlaps {1, 2}:
  //     2*1 tokens * 2 orders = 4 -> 10.
  // 26 failing of 64, and the worst is (2,2): (1/2 + 1/2)/(3/2) = 2/3.
  const EvalReport report =
      evaluate_profiles(*make_softmax(2, Rational(2))->overlap_form(), 2, 3, EvalOptions{});
  CHECK(report.instances == 64);
  CHECK(report.failing == 26);
  CHECK(report.error_rate() == Rational(13, 32));
  CHECK(*report.max_error == Rational(2, 3));
}
