// Steps, chains and the family rules; see family_chains.hpp.
#include "check/family_chains.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <tuple>

#include "check/conclusion.hpp"
#include "check/status.hpp"

namespace krcheck {
namespace {

std::string mode_name(QueryMode mode) {
  return mode == QueryMode::first ? "first" : mode == QueryMode::last ? "last" : "all";
}

// The sequence with Q at `position` and the keys, in order, in the other slots;
// key t is A when a_slot[t] is true and B otherwise.
std::vector<Token> sequence_of(const Step& step, const std::vector<bool>& a_slot) {
  std::vector<Token> sequence;
  std::size_t key = 0;
  for (std::size_t slot = 0; slot <= a_slot.size(); ++slot) {
    if (static_cast<int>(slot) + 1 == step.position)
      sequence.push_back(step.query);
    else
      sequence.push_back(a_slot[key++] ? step.a : step.b);
  }
  return sequence;
}

void require_instance(const Certificate& cert, const Family& family, const Step& step,
                      const std::vector<bool>& a_slot, const std::string& name) {
  if (family.keys.count(
          instance_key(step.position, sequence_of(step, a_slot), cert.dependent_positions)) != 0)
    return;
  std::string keys;
  if (cert.dependent_positions && a_slot.size() <= 40) {
    keys = ", keys in order:";
    for (const bool is_a : a_slot) keys += is_a ? " a" : " b";
  }
  fail_check(cert.file, step.line,
             "the family has no instance " + name + " with query q at position " +
                 std::to_string(step.position) + keys);
}

// C(total, chosen), or `cap` + 1 once it exceeds `cap`.
std::uint64_t capped_binomial(std::uint64_t total, std::uint64_t chosen, std::uint64_t cap) {
  BigInt value = 1;
  for (std::uint64_t t = 0; t < chosen; ++t) {
    value = value * (total - t) / (t + 1);  // exact: a binomial coefficient at every step
    if (value > cap) return cap + 1;
  }
  return static_cast<std::uint64_t>(value);
}

}  // namespace

Rational step_factor(const Certificate& cert, const Step& step) {
  const auto fail = [&](const std::string& message) { fail_check(cert.file, step.line, message); };
  const int n = cert.n;
  if ((cert.mode == QueryMode::first && step.position != 1) ||
      (cert.mode == QueryMode::last && step.position != n))
    fail("mode=" + mode_name(cert.mode) + " queries position " +
         std::to_string(cert.mode == QueryMode::first ? 1 : n) +
         ", but the step has pos=" + std::to_string(step.position));
  const int gap = overlap(step.query, step.b) - overlap(step.query, step.a);
  if (gap < 2)
    fail("gap g = <q,b> - <q,a> = " + std::to_string(gap) + " < 2: no gap domination step");
  if (step.k < 1 || step.k > static_cast<std::uint64_t>(n - 2))
    fail("k=" + std::to_string(step.k) + " is outside 1..N-2 = 1.." + std::to_string(n - 2));
  const auto k = static_cast<long>(step.k);
  const Rational factor(BigInt((n - 1 - k) * (gap - 1)), BigInt(k));
  if (factor < 1) fail("factor f = (N-1-k)(g-1)/k = " + to_text(factor) + " < 1");
  return factor;
}

namespace {

Rational check_step(const Certificate& cert, const Family& family, const Step& step) {
  const auto fail = [&](const std::string& message) { fail_check(cert.file, step.line, message); };
  const Rational factor = step_factor(cert, step);
  const int n = cert.n;
  const auto k = static_cast<long>(step.k);
  const std::size_t keys = static_cast<std::size_t>(n - 1);
  require_instance(cert, family, step, std::vector<bool>(keys, true), "S1 = (q, a^(N-1))");
  require_instance(cert, family, step, std::vector<bool>(keys, false), "S2 = (q, b^(N-1))");
  // S3_k: a in the first k key slots; with dependent positions every arrangement.
  std::vector<bool> a_slot(keys, false);
  std::fill(a_slot.begin(), a_slot.begin() + k, true);
  const std::string s3 =
      "S3_k = (q, a^" + std::to_string(k) + ", b^" + std::to_string(n - 1 - k) + ")";
  if (!cert.dependent_positions) {
    require_instance(cert, family, step, a_slot, s3);
    return factor;
  }
  const std::uint64_t arrangements = capped_binomial(keys, step.k, family.instance_count);
  if (arrangements > family.instance_count)
    fail(s3 + " needs " + "C(N-1,k) arrangements of its keys, more than the " +
         std::to_string(family.instance_count) + " instances in the family");
  do {
    require_instance(cert, family, step, a_slot, s3);
  } while (std::prev_permutation(a_slot.begin(), a_slot.end()));
  return factor;
}

}  // namespace

std::vector<Rational> check_steps(const Certificate& cert, const Family& family) {
  if (family.m != cert.m || family.n != cert.n)
    fail_check(family.file, family.header_line,
               "the family has m=" + std::to_string(family.m) + " n=" + std::to_string(family.n) +
                   " but the certificate's task (line " + std::to_string(cert.task_line) +
                   ") has m=" + std::to_string(cert.m) + " n=" + std::to_string(cert.n));
  std::vector<Rational> factors;
  factors.reserve(cert.steps.size());
  for (const Step& step : cert.steps) factors.push_back(check_step(cert, family, step));
  return factors;
}

namespace {

// The pair lines in (i, j) order, and for each pair line the line of an earlier pair line
// for the same rows (0 when it is the first).
std::vector<std::size_t> sorted_pairs(const Certificate& cert, std::vector<long>& repeats_line) {
  // Sorting the pair lines by (i, j) puts repeats side by side.
  std::vector<std::size_t> order(cert.pairs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto key = [&](std::size_t p) {
    return std::make_tuple(cert.pairs[p].row, cert.pairs[p].column, cert.pairs[p].line);
  };
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return key(x) < key(y); });
  repeats_line.assign(cert.pairs.size(), 0);
  for (std::size_t t = 1; t < order.size(); ++t) {
    const PairLine& before = cert.pairs[order[t - 1]];
    const PairLine& here = cert.pairs[order[t]];
    if (before.row == here.row && before.column == here.column)
      repeats_line[order[t]] = before.line;
  }

  return order;
}

// The product of the step factors along one pair's chain, which must run from c_i to c_j
// under q_i, each step's a the previous step's b, at one position.
Rational chain_product(const Certificate& cert, const PairLine& pair,
                       const std::vector<Rational>& step_factors,
                       const std::function<void(const std::string&)>& fail) {
  const Token query = cert.query.token(pair.row);
  const Token from = cert.own.token(pair.row);
  const Token to = cert.own.token(pair.column);
  Rational product = 1;
  const Step* previous = nullptr;
  for (std::size_t t = 0; t < pair.step_count; ++t) {
    const std::uint32_t id = cert.pair_steps[pair.first_step + t];
    const Step& step = cert.steps[id];
    const std::string step_name =
        "step " + std::to_string(id + 1) + " (line " + std::to_string(step.line) + ")";
    if (step.query != query) fail(step_name + " has q different from the query token q_i of row i");
    if (previous == nullptr && step.a != from)
      fail("the first step, " + step_name + ", has a different from the own token c_i of row i");
    if (previous != nullptr && step.position != previous->position)
      fail(step_name + " has pos=" + std::to_string(step.position) +
           ", the chain's earlier steps pos=" + std::to_string(previous->position));
    if (previous != nullptr && step.a != previous->b)
      fail(step_name + " does not link: its a differs from the previous step's b");
    product *= step_factors[id];
    previous = &step;
  }
  if (previous->b != to) fail("the last step's b differs from the own token c_j of row j");
  return product;
}

}  // namespace

std::vector<Rational> check_chains(const Certificate& cert,
                                   const std::vector<Rational>& step_factors) {
  std::vector<long> repeats_line;
  const std::vector<std::size_t> order = sorted_pairs(cert, repeats_line);

  // With position-dependent maps the matrix is built from the summed key kernel of one
  // query position p; rows whose chains query different positions would mix kernels
  // (rank up to r per position), so all chains must share one position.
  const PairLine* first_chain = nullptr;

  std::vector<Rational> rho;
  rho.reserve(cert.pairs.size());
  for (std::size_t p = 0; p < cert.pairs.size(); ++p) {
    const PairLine& pair = cert.pairs[p];
    const std::string name =
        "pair " + std::to_string(pair.row + 1) + " " + std::to_string(pair.column + 1);
    const auto fail = [&](const std::string& message) {
      fail_check(cert.file, pair.line, name + ": " + message);
    };
    if (repeats_line[p] != 0)
      fail("a second pair line for the same rows (the first is on line " +
           std::to_string(repeats_line[p]) + ")");
    const Rational product = chain_product(cert, pair, step_factors, fail);
    if (cert.dependent_positions) {
      const int position = cert.steps[cert.pair_steps[pair.first_step]].position;
      if (first_chain == nullptr) first_chain = &pair;
      const int first_position = cert.steps[cert.pair_steps[first_chain->first_step]].position;
      if (position != first_position)
        fail("positions=dependent needs one query position for all chains: this chain has pos=" +
             std::to_string(position) + ", the chain on line " + std::to_string(first_chain->line) +
             " pos=" + std::to_string(first_position));
    }
    rho.push_back(product);
  }

  // Without repeats, a missing pair shows as fewer lines than ordered pairs.
  const std::uint64_t rows = cert.row_count();
  if (cert.pairs.size() < rows * (rows - 1)) {
    std::size_t next = 0;  // position in `order`
    for (std::uint32_t i = 0; i < rows; ++i)
      for (std::uint32_t j = 0; j < rows; ++j) {
        if (i == j) continue;
        if (next < order.size() && cert.pairs[order[next]].row == i &&
            cert.pairs[order[next]].column == j) {
          ++next;
          continue;
        }
        fail_check(cert.file, cert.pairs_line,
                   "no pair line for rows " + std::to_string(i + 1) + " " + std::to_string(j + 1) +
                       ": every ordered pair i != j needs one");
      }
  }
  return rho;
}

BigInt family_trace_sum(const Certificate& cert, const std::vector<Rational>& rho) {
  std::vector<Rational> one_plus_c(cert.row_count(), Rational(1));
  for (std::size_t p = 0; p < cert.pairs.size(); ++p)
    one_plus_c[cert.pairs[p].column] += 1 / (rho[p] * rho[p]);
  BigInt total = 0;
  for (const Rational& value : one_plus_c) total += trace_term(value, cert.precision);
  return total;
}

Rational family_dominance_max_row_sum(const Certificate& cert, const std::vector<Rational>& rho) {
  std::vector<Rational> row_sum(cert.row_count(), Rational(0));
  for (std::size_t p = 0; p < cert.pairs.size(); ++p) row_sum[cert.pairs[p].row] += 1 / rho[p];
  Rational largest = 0;
  for (std::size_t i = 0; i < row_sum.size(); ++i) {
    if (row_sum[i] > 1)
      fail_check(cert.file, cert.row_lines[i],
                 "row " + std::to_string(i + 1) + ": sum over j != i of 1/rho_ij = " +
                     to_text(row_sum[i]) + " > 1, not diagonally dominant");
    largest = std::max(largest, row_sum[i]);
  }
  return largest;
}

void check_fact_steps(const Certificate& cert, const Family* family, const std::string& rule,
                      std::ostream& out) {
  if (cert.dependent_positions)
    fail_check(cert.file, cert.rule_line,
               "the " + rule +
                   " rule is proven for position-independent maps only, the task has "
                   "positions=dependent");
  if (family != nullptr) {
    check_steps(cert, *family);
    out << "c steps: " << cert.steps.size() << " checked against the family\n";
  } else {
    for (const Step& step : cert.steps) step_factor(cert, step);
    out << "c steps: " << cert.steps.size() << " checked (the cube holds S1, S2, S3_k)\n";
  }
}

}  // namespace krcheck
