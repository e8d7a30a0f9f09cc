// Ball-arithmetic evaluation of real heads (ball_eval.hpp). The only file that talks to Arb.
//
// Everything before a transcendental function is exact: u = WQ q + bQ and w = WK z + bK are
// rationals, and exp is applied to exact rationals (or to s times one, s = scale^(1/4), for
// positive random features). Balls only carry the transcendental values and the sums and
// quotients built from them; the final enclosure is read off as two dyadic rationals and
// compared with the band exactly.
#include "kernelrank/eval/ball_eval.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"

#include <arb.h>
#include <flint/fmpq.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <unordered_map>

namespace kernelrank {
namespace {

// RAII owners for Arb's C types.
struct Ball {
  arb_t v;
  Ball() { arb_init(v); }
  ~Ball() { arb_clear(v); }
  Ball(const Ball& other) {
    arb_init(v);
    arb_set(v, other.v);
  }
  Ball& operator=(const Ball& other) {
    arb_set(v, other.v);
    return *this;
  }
};

void set_rational(arb_t out, const Rational& value, long precision) {
  fmpq_t q;
  fmpq_init(q);
  fmpq_set_mpq(q, value.backend().data());
  arb_set_fmpq(out, q, precision);
  fmpq_clear(q);
}

Rational rational_of(const arf_t x) {
  fmpz_t man, exp;
  fmpz_init(man);
  fmpz_init(exp);
  arf_get_fmpz_2exp(man, exp, x);
  Integer mantissa;
  fmpz_get_mpz(mantissa.backend().data(), man);
  const slong e = fmpz_get_si(exp);
  fmpz_clear(man);
  fmpz_clear(exp);
  if (e >= 0) return Rational(mantissa << static_cast<unsigned>(e));
  return Rational(mantissa, Integer(1) << static_cast<unsigned>(-e));
}

Rational dot(const RationalVector& a, const RationalVector& b) {
  Rational sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// What one token contributes, as a query and as a key, at one precision.
struct TokenData {
  RationalVector u, w;             // exact pre-activations (query side, key side)
  std::vector<Ball> phi_q, phi_k;  // features (empty for softmax and taylor2: pair kernels)
  RationalVector c, v;             // readout c(x) and value v(x)
  Rational e = 0;                  // readout e(x)
};

// Features of one exact pre-activation vector.
std::vector<Ball> features(const RealHead& head, const RationalVector& x, long precision) {
  std::vector<Ball> out;
  if (head.map == FeatureMap::Exp) {
    // phi_j = exp(s o_j.x - s^2 |x|^2 / 2), s = scale^(1/4).
    Ball s, s2, t;
    set_rational(s.v, head.scale, precision);
    arb_root_ui(s.v, s.v, 4, precision);
    arb_sqr(s2.v, s.v, precision);
    Ball half_norm;
    set_rational(half_norm.v, dot(x, x) / 2, precision);
    arb_mul(half_norm.v, half_norm.v, s2.v, precision);
    out.resize(head.projection.size());
    for (std::size_t j = 0; j < head.projection.size(); ++j) {
      set_rational(t.v, dot(head.projection[j], x), precision);
      arb_mul(t.v, t.v, s.v, precision);
      arb_sub(t.v, t.v, half_norm.v, precision);
      arb_exp(out[j].v, t.v, precision);
    }
    return out;
  }
  out.resize(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Rational& a = x[i];
    switch (head.map) {
      case FeatureMap::Elu1:
        if (a > 0) {
          set_rational(out[i].v, a + 1, precision);
        } else {
          set_rational(out[i].v, a, precision);
          arb_exp(out[i].v, out[i].v, precision);
        }
        break;
      case FeatureMap::Relu:
        set_rational(out[i].v, a > 0 ? a : Rational(0), precision);
        break;
      case FeatureMap::Square:
        set_rational(out[i].v, a * a, precision);
        break;
      default:
        set_rational(out[i].v, a, precision);
        break;  // identity
    }
  }
  return out;
}

// Arb keeps per-thread caches (constants, exp tables) that a worker thread's exit does not
// free; each task frees its thread's caches, so no thread leaves any behind.
void parallel_tasks(std::size_t tasks, int threads, const std::function<void(std::size_t)>& body) {
  parallel_for(tasks, threads, [&](std::size_t task, int) {
    body(task);
    flint_cleanup();
  });
}

bool pair_kernel(FeatureMap map) {
  return map == FeatureMap::Softmax || map == FeatureMap::Taylor2;
}

TokenData token_data(const RealHead& head, const Token& x, long precision) {
  TokenData data;
  data.u = head.query.apply(x);
  data.w = head.key.apply(x);
  if (!pair_kernel(head.map)) {
    data.phi_q = features(head, data.u, precision);
    data.phi_k = features(head, data.w, precision);
  }
  data.c = head.readout_c.apply(x);
  data.v = head.value.apply(x);
  data.e = head.readout_e.apply(x)[0];
  return data;
}

void kernel(arb_t out, const RealHead& head, const TokenData& q, const TokenData& z,
            long precision) {
  if (head.map == FeatureMap::Softmax) {
    set_rational(out, head.temperature * dot(q.u, z.w), precision);
    arb_exp(out, out, precision);
    return;
  }
  if (head.map == FeatureMap::Taylor2) {
    const Rational s = dot(q.u, z.w);
    set_rational(out, 1 + s + s * s / 2, precision);
    return;
  }
  arb_zero(out);
  for (std::size_t i = 0; i < q.phi_q.size(); ++i)
    arb_addmul(out, q.phi_q[i].v, z.phi_k[i].v, precision);
}

// Decides one instance from the token data of its tokens (query first).
BallOutcome decide(const RealHead& head, const Instance& instance,
                   const std::vector<const TokenData*>& data, long precision) {
  BallOutcome outcome;
  outcome.instance = instance;
  outcome.target = min_ip_target(instance);
  outcome.precision = precision;
  const TokenData& q = *data[static_cast<std::size_t>(instance.query)];
  Ball numerator, denominator, alpha, y, f;
  for (const TokenData* z : data) {
    kernel(alpha.v, head, q, *z, precision);
    arb_add(denominator.v, denominator.v, alpha.v, precision);
    set_rational(f.v, dot(q.c, z->v) + q.e, precision);
    arb_addmul(numerator.v, alpha.v, f.v, precision);
  }
  arb_div(y.v, numerator.v, denominator.v, precision);
  char* text = arb_get_str(y.v, 20, 0);
  outcome.output = text;
  flint_free(text);
  if (!arb_is_finite(y.v)) return outcome;  // undecided
  arf_t bound;
  arf_init(bound);
  arb_get_lbound_arf(bound, y.v, precision);
  outcome.lo = rational_of(bound);
  arb_get_ubound_arf(bound, y.v, precision);
  outcome.hi = rational_of(bound);
  arf_clear(bound);
  outcome.enclosed = true;
  const Rational t = outcome.target, half = Rational(1, 2);
  if (t - half < outcome.lo && outcome.hi < t + half)
    outcome.verdict = BallVerdict::Passes;
  else if (outcome.lo >= t + half || outcome.hi <= t - half)
    outcome.verdict = BallVerdict::Fails;
  return outcome;
}

// The instances of one block, as token indices into the universe.
struct Block {
  std::size_t first = 0;  // the task index of the block's first instance
  std::vector<std::vector<std::uint32_t>> sequences;
  std::vector<int> queries;
};

struct Task {
  std::vector<Token> universe;
  std::size_t blocks = 0;
  std::function<Block(std::size_t)> block;
};

// An instance left undecided by a pass: its task index and that pass's outcome.
struct OpenInstance {
  std::size_t index = 0;
  BallOutcome outcome;
};

// What one block contributes: its decided instances already counted, its undecided ones kept.
struct BlockResult {
  BallReport decided;
  std::vector<OpenInstance> open;
};

void note_error(BallReport& report, const BallOutcome& outcome);

void count_decided(BallReport& report, const BallOutcome& outcome, std::size_t max_listed) {
  if (outcome.verdict == BallVerdict::Passes) ++report.passing;
  if (outcome.verdict == BallVerdict::Fails) {
    ++report.failing;
    if (report.failures.size() < max_listed) report.failures.push_back(outcome);
  }
  ++report.decided_at[outcome.precision];
  note_error(report, outcome);
}

void count_undecided(BallReport& report, const BallOutcome& outcome, std::size_t max_listed) {
  ++report.undecided;
  note_error(report, outcome);
  if (report.undecided_list.size() < max_listed) report.undecided_list.push_back(outcome);
}

// Every enclosed outcome, decided or not, bounds the maximum error.
void note_error(BallReport& report, const BallOutcome& outcome) {
  if (!outcome.enclosed) return;
  const Rational lo = outcome.error_lo(), hi = outcome.error_hi();
  if (!report.max_error_lo || lo > *report.max_error_lo) report.max_error_lo = lo;
  if (!report.max_error_hi || hi > *report.max_error_hi) {
    report.max_error_hi = hi;
    report.worst = outcome;
  }
}

// Adds a block's counts to the report; blocks are merged in order, so the listed instances
// and the worst one do not depend on the thread count.
void merge_decided(BallReport& report, const BallReport& block, std::size_t max_listed) {
  report.passing += block.passing;
  report.failing += block.failing;
  for (const auto& [bits, count] : block.decided_at) report.decided_at[bits] += count;
  for (const BallOutcome& outcome : block.failures)
    if (report.failures.size() < max_listed) report.failures.push_back(outcome);
  if (block.max_error_lo && (!report.max_error_lo || *block.max_error_lo > *report.max_error_lo))
    report.max_error_lo = block.max_error_lo;
  if (block.max_error_hi && (!report.max_error_hi || *block.max_error_hi > *report.max_error_hi)) {
    report.max_error_hi = block.max_error_hi;
    report.worst = block.worst;
  }
}

BallReport run(const RealHead& head, const Task& task, const BallOptions& options,
               std::string method, const BallOutcomeSink& sink) {
  const auto final_outcome = [&](std::size_t index, const BallOutcome& outcome) {
    if (sink) sink(index, outcome);
  };
  if (options.precision < 2 || options.precision > options.max_precision)
    throw DomainError("{precision} must be at least 2 and at most {max-precision}");
  if (options.max_precision > 1000000)
    throw DomainError("{max-precision} must be at most 1000000 bits");
  validate(head);
  BallReport report;
  report.method = std::move(method);
  report.final_precision = options.precision;
  // First pass: token data once per token, blocks on all threads, reduced in block order.
  std::vector<std::unique_ptr<TokenData>> data(task.universe.size());
  parallel_tasks(task.universe.size(), options.threads, [&](std::size_t i) {
    data[i] = std::make_unique<TokenData>(token_data(head, task.universe[i], options.precision));
  });
  std::vector<BlockResult> results(task.blocks);
  parallel_tasks(task.blocks, options.threads, [&](std::size_t b) {
    const Block block = task.block(b);
    std::vector<const TokenData*> row;
    for (std::size_t s = 0; s < block.sequences.size(); ++s) {
      Instance instance;
      row.clear();
      for (std::uint32_t index : block.sequences[s]) {
        instance.tokens.push_back(task.universe[index]);
        row.push_back(data[index].get());
      }
      instance.query = block.queries[s];
      BallOutcome outcome = decide(head, instance, row, options.precision);
      if (outcome.verdict == BallVerdict::Undecided) {
        results[b].open.push_back({block.first + s, std::move(outcome)});
      } else {
        count_decided(results[b].decided, outcome, options.max_listed);
        final_outcome(block.first + s, outcome);
      }
    }
    results[b].decided.instances = block.sequences.size();
  });
  std::vector<OpenInstance> open;
  for (BlockResult& result : results) {
    report.instances += result.decided.instances;
    merge_decided(report, result.decided, options.max_listed);
    for (OpenInstance& instance : result.open) open.push_back(std::move(instance));
    result = BlockResult();
  }
  // Later passes: only the undecided instances, at doubled precision.
  long precision = options.precision;
  while (!open.empty() && precision < options.max_precision) {
    precision = std::min(2 * precision, options.max_precision);
    report.final_precision = precision;
    parallel_tasks(open.size(), options.threads, [&](std::size_t i) {
      open[i].outcome = evaluate_ball_instance(head, open[i].outcome.instance, precision);
    });
    std::vector<OpenInstance> still_open;
    for (OpenInstance& item : open) {
      if (item.outcome.verdict != BallVerdict::Undecided) {
        count_decided(report, item.outcome, options.max_listed);
        final_outcome(item.index, item.outcome);
      } else if (precision >= options.max_precision) {
        count_undecided(report, item.outcome, options.max_listed);
        final_outcome(item.index, item.outcome);
      } else {
        still_open.push_back(std::move(item));
      }
    }
    open = std::move(still_open);
  }
  // A first pass already at the cap leaves its undecided instances here, outcomes kept.
  for (const OpenInstance& item : open) {
    count_undecided(report, item.outcome, options.max_listed);
    final_outcome(item.index, item.outcome);
  }
  return report;
}

}  // namespace

std::string to_string(BallVerdict verdict) {
  switch (verdict) {
    case BallVerdict::Passes:
      return "passes";
    case BallVerdict::Fails:
      return "fails";
    default:
      return "undecided";
  }
}

Rational BallOutcome::error_lo() const {
  const Rational t = target;
  if (lo <= t && t <= hi) return 0;
  return lo > t ? lo - t : t - hi;
}

Rational BallOutcome::error_hi() const {
  const Rational t = target;
  return std::max(abs(lo - t), abs(hi - t));
}

std::string verdict_text(const BallReport& report) {
  if (report.failing > 0) return "FAILS (decided rigorously)";
  if (report.undecided > 0)
    return "undecided at " + std::to_string(report.final_precision) + " bits";
  return "solves (decided rigorously)";
}

std::string decimal_text(const Rational& value, int digits) {
  Ball x;
  set_rational(x.v, value, 4 * digits + 64);
  char* text = arb_get_str(x.v, digits, ARB_STR_NO_RADIUS);
  std::string out = text;
  flint_free(text);
  return out;
}

BallOutcome evaluate_ball_instance(const RealHead& head, const Instance& instance, long precision) {
  std::vector<TokenData> data;
  data.reserve(instance.tokens.size());
  for (const Token& token : instance.tokens) data.push_back(token_data(head, token, precision));
  std::vector<const TokenData*> row;
  for (const TokenData& d : data) row.push_back(&d);
  return decide(head, instance, row, precision);
}

BallReport evaluate_ball_family(const RealHead& head, const Family& family,
                                const BallOptions& options, const BallOutcomeSink& sink) {
  if (family.m != head.m)
    throw UsageError("the head has width m=" + std::to_string(head.m) +
                     " but the family has m=" + std::to_string(family.m));
  Task task;
  std::unordered_map<Token, std::uint32_t, TokenHash> index;
  std::vector<std::vector<std::uint32_t>> sequences;
  for (const Instance& instance : family.instances) {
    std::vector<std::uint32_t> sequence;
    for (const Token& token : instance.tokens) {
      auto [it, added] = index.try_emplace(token, static_cast<std::uint32_t>(task.universe.size()));
      if (added) task.universe.push_back(token);
      sequence.push_back(it->second);
    }
    sequences.push_back(std::move(sequence));
  }
  constexpr std::size_t kBlock = 256;
  task.blocks = (family.instances.size() + kBlock - 1) / kBlock;
  task.block = [&](std::size_t b) {
    Block block;
    block.first = b * kBlock;
    for (std::size_t i = b * kBlock; i < std::min(family.instances.size(), (b + 1) * kBlock); ++i) {
      block.sequences.push_back(sequences[i]);
      block.queries.push_back(family.instances[i].query);
    }
    return block;
  };
  return run(head, task, options, "family", sink);
}

BallReport evaluate_ball_cube(const RealHead& head, int n, const BallOptions& options) {
  const int m = head.m;
  if (n < 1) throw DomainError("{n} must be at least 1");
  if (static_cast<long long>(m) * n > 62 || m > 24)
    throw DomainResourceError("T(" + std::to_string(m) + "," + std::to_string(n) +
                              ") is too large for brute force; give a {family}");
  const std::uint64_t universe = 1ULL << m;
  // Throws above the limit; every block holds the same number of instances.
  const std::uint64_t per_block =
      count_instances(universe, n, options.mode, options.instance_limit) / universe;
  Task task;
  for (std::uint64_t i = 0; i < universe; ++i) task.universe.push_back(Token::from_index(m, i));
  const std::vector<int> queries = query_positions(options.mode, n);
  // Block f: the sequences whose first token is f, in odometer order, every query position.
  task.blocks = static_cast<std::size_t>(universe);
  task.block = [&, universe](std::size_t f) {
    Block block;
    block.first = static_cast<std::size_t>(f * per_block);
    std::vector<std::uint32_t> sequence(static_cast<std::size_t>(n), 0);
    sequence[0] = static_cast<std::uint32_t>(f);
    while (true) {
      for (int query : queries) {
        block.sequences.push_back(sequence);
        block.queries.push_back(query);
      }
      int position = n - 1;
      while (position >= 1 && sequence[static_cast<std::size_t>(position)] + 1 == universe) {
        sequence[static_cast<std::size_t>(position)] = 0;
        --position;
      }
      if (position < 1) break;
      ++sequence[static_cast<std::size_t>(position)];
    }
    return block;
  };
  return run(head, task, options, "brute force", {});
}

}  // namespace kernelrank
