// The two nonlinear encodings of a rank-r realisation over a subset W of the
// row instances (docs/search.md, "Encodings").
//
// E1, feature-readout: variables U (query features), V (key features) and the
// readout table F; alpha(q,z) = <u_q, v_z>; each instance asks
// |sum_j alpha_j (F_j - t)| < (1/2) sum_j alpha_j, a degree-3 constraint.
// Row scaling is fixed by alpha(q,q) = 1 when the task holds the instance
// (q, q, ..., q): its denominator n alpha(q,q) must be nonzero, so alpha(q,q) > 0
// under NK, and multiplying u_q by a positive constant changes no output.
// Otherwise (families) the sum of alpha(q,.) over the row's keys in W is fixed
// to 1 (positive because some instance of the row has a positive denominator).
// E1 may be seeded with the L2 inequalities k(W + (n-1)A) > (n-1-k)(g-1)(W + (n-1)B),
// which the task's own instances imply, so adding them is sound.
//
// E2, kernel-product: variables U, V and P = alpha.F (the readout is
// eliminated); each instance asks |sum_j P_j - t sum_j alpha_j| < (1/2) sum_j alpha_j,
// degree 2, with P_qz = 0 wherever alpha(q,z) = 0 (a disjunction). Row scaling
// is fixed differently: sum_k u_qk = 1 for PF, sum over the row's keys in W
// of alpha(q,.) = 1 for NK. No lemmas.
//
// Signed kernels (issue 15): the pair constraint of E2 becomes alpha != 0 or P = 0, both
// encodings fix alpha(q,q) = 1 where the task holds (q, ..., q) (u_q may be scaled by any
// nonzero constant) and no row sum otherwise, an instance accepts a denominator of either
// sign, and the L2 lemmas (which need alpha >= 0) are left out.
//
// Symmetry breaking (both WLOG): permuting the r features changes nothing, so
// E1 sorts them by their value at the all-ones token (E2: at the all-zero
// token); permuting the cube's coordinates maps models to models and fixes
// both of those tokens, so E1 also sorts the first key feature over the m
// singletons (E2: over the m co-singletons). The coordinate order is applied
// to the cube only.
#include "search/z3/rank_encoding.hpp"

#include "kernelrank/core/errors.hpp"
#include "search/cvc5/cvc5_process.hpp"
#include "search/z3/z3_rational.hpp"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace kernelrank {

std::string z3_version() { return Z3_get_full_version(); }

}  // namespace kernelrank

namespace kernelrank::detail {
namespace {

class EncodingBuilder {
 public:
  EncodingBuilder(const EncodingRequest& request, z3::context& ctx, z3::solver& solver)
      : req_(request), task_(*request.task), ctx_(ctx), solver_(solver) {}

  void build() {
    const bool e1 = req_.kind == EncodingKind::FeatureReadout;
    // Rows and their keys within W.
    std::map<std::uint32_t, std::set<std::uint32_t>> keys_in_w;
    for (std::size_t id : req_.working) {
      const RankInstance& inst = task_.instances.at(id);
      keys_in_w[inst.query].insert(inst.keys.begin(), inst.keys.end());
    }
    bool planted = false;
    for (const auto& [q, keys] : keys_in_w) {
      // Class constraints on the pairs W uses (PF constraints come with the variables).
      if (req_.search_class == SearchClass::NK)
        for (std::uint32_t z : keys) add(alpha(q, z) >= 0);
      const bool is_signed = req_.search_class == SearchClass::Signed;
      if (!e1)
        for (std::uint32_t z : keys)
          add((is_signed ? alpha(q, z) != 0 : alpha(q, z) > 0) || product(q, z) == 0);
      // Row normalisation.
      if ((e1 || is_signed) && has_self_instance(q)) {
        add(alpha(q, q) == 1);
      } else if (is_signed) {
        // No sign of a row sum is known: leave the scale free (weaker, still sound).
      } else if (!e1 && req_.search_class == SearchClass::PF) {
        z3::expr sum = ctx_.real_val(0);
        for (const z3::expr& u : query(q)) sum = sum + u;
        add(sum == 1);
      } else {
        z3::expr sum = ctx_.real_val(0);
        for (std::uint32_t z : keys) sum = sum + alpha(q, z);
        add(sum == 1);
      }
      if (req_.plant_contradiction && e1 && !planted) {
        // Test hook: alpha(q,q) = 1 (or a row sum of 1) together with alpha(q,q) = 2.
        add(alpha(q, q) == 2);
        add(alpha(q, q) == 1);
        planted = true;
      }
    }
    for (const auto& [q, z] : req_.nk_pairs)
      if (req_.search_class == SearchClass::NK) add(alpha(q, z) >= 0);
    // The instances.
    for (std::size_t id : req_.working) {
      const RankInstance& inst = task_.instances[id];
      z3::expr den = ctx_.real_val(0), num = ctx_.real_val(0);
      for (std::uint32_t z : inst.keys) {
        den = den + alpha(inst.query, z);
        num = num + (e1 ? alpha(inst.query, z) * readout(inst.query, z) : product(inst.query, z));
      }
      const z3::expr centred = num - ctx_.real_val(inst.target) * den;
      if (req_.search_class == SearchClass::Signed) {
        add((2 * centred < den && 2 * centred > -den) || (2 * centred < -den && 2 * centred > den));
        continue;
      }
      add(2 * centred < den);
      add(2 * centred > -den);
    }
    if (e1 && req_.lemmas && req_.facts && req_.search_class != SearchClass::Signed)
      add_lemmas(keys_in_w);
    if (req_.symmetry) add_symmetry_breaking(e1);
  }

  const std::map<std::uint32_t, std::vector<z3::expr>>& key_vars() const { return key_; }
  std::size_t variables() const { return variables_; }
  std::size_t constraints() const { return constraints_; }

 private:
  void add(const z3::expr& constraint) {
    solver_.add(constraint);
    ++constraints_;
  }

  z3::expr fresh(const std::string& name, bool nonnegative) {
    z3::expr v = ctx_.real_const(name.c_str());
    ++variables_;
    if (nonnegative) add(v >= 0);
    return v;
  }

  const std::vector<z3::expr>& features(std::map<std::uint32_t, std::vector<z3::expr>>& table,
                                        char prefix, std::uint32_t token) {
    auto it = table.find(token);
    if (it == table.end()) {
      std::vector<z3::expr> vars;
      for (int k = 0; k < req_.r; ++k)
        vars.push_back(fresh(std::string(1, prefix) + "_" + task_.tokens[token].to_string() + "_" +
                                 std::to_string(k + 1),
                             req_.search_class == SearchClass::PF));
      it = table.emplace(token, std::move(vars)).first;
    }
    return it->second;
  }
  const std::vector<z3::expr>& query(std::uint32_t q) { return features(query_, 'u', q); }
  const std::vector<z3::expr>& key(std::uint32_t z) { return features(key_, 'v', z); }

  z3::expr alpha(std::uint32_t q, std::uint32_t z) {
    const auto found = alpha_.find({q, z});
    if (found != alpha_.end()) return found->second;
    const auto& u = query(q);
    const auto& v = key(z);
    z3::expr sum = u[0] * v[0];
    for (int k = 1; k < req_.r; ++k)
      sum = sum + u[static_cast<std::size_t>(k)] * v[static_cast<std::size_t>(k)];
    alpha_.emplace(std::make_pair(q, z), sum);
    return sum;
  }

  z3::expr pair_var(std::map<std::pair<std::uint32_t, std::uint32_t>, z3::expr>& table,
                    const char* prefix, std::uint32_t q, std::uint32_t z) {
    auto it = table.find({q, z});
    if (it == table.end())
      it = table
               .emplace(std::make_pair(q, z),
                        fresh(std::string(prefix) + "_" + task_.tokens[q].to_string() + "_" +
                                  task_.tokens[z].to_string(),
                              false))
               .first;
    return it->second;
  }
  z3::expr readout(std::uint32_t q, std::uint32_t z) { return pair_var(readout_, "f", q, z); }
  z3::expr product(std::uint32_t q, std::uint32_t z) { return pair_var(product_, "p", q, z); }

  bool has_self_instance(std::uint32_t q) const {
    RankInstance self;
    self.query = q;
    self.keys.assign(static_cast<std::size_t>(task_.n), q);
    const auto it =
        std::lower_bound(task_.instances.begin(), task_.instances.end(), self,
                         [](const RankInstance& x, const RankInstance& y) {
                           return x.query != y.query ? x.query < y.query : x.keys < y.keys;
                         });
    return it != task_.instances.end() && it->query == q && it->keys == self.keys;
  }

  void add_lemmas(const std::map<std::uint32_t, std::set<std::uint32_t>>& keys_in_w) {
    const int n = task_.n;
    for (const DominationFact& f : *req_.facts) {
      const auto row = keys_in_w.find(f.query);
      if (row == keys_in_w.end() || !row->second.count(f.larger) || !row->second.count(f.smaller))
        continue;
      const z3::expr w = alpha(f.query, f.query);
      const z3::expr lhs =
          ctx_.real_val(f.k) * (w + ctx_.real_val(n - 1) * alpha(f.query, f.larger));
      const z3::expr rhs = ctx_.real_val((n - 1 - f.k) * (f.gap - 1)) *
                           (w + ctx_.real_val(n - 1) * alpha(f.query, f.smaller));
      add(lhs > rhs);
    }
  }

  void add_symmetry_breaking(bool e1) {
    const std::uint32_t size = static_cast<std::uint32_t>(task_.tokens.size());
    if (size == 0) return;
    // Feature order at one token.
    const std::uint32_t anchor = task_.cube ? (e1 ? size - 1 : 0) : (e1 ? 0 : size - 1);
    if (req_.r >= 2) {
      const auto& v = key(anchor);
      for (int k = 0; k + 1 < req_.r; ++k)
        add(v[static_cast<std::size_t>(k)] >= v[static_cast<std::size_t>(k + 1)]);
    }
    // Coordinate order on the cube (m singletons or co-singletons).
    if (task_.cube && task_.m >= 2) {
      std::vector<std::uint32_t> tokens;
      for (int i = 0; i < task_.m; ++i) {
        const std::uint32_t single = 1U << (task_.m - 1 - i);
        tokens.push_back(e1 ? single : (size - 1) ^ single);
      }
      for (std::size_t i = 0; i + 1 < tokens.size(); ++i)
        add(key(tokens[i])[0] >= key(tokens[i + 1])[0]);
    }
  }

  const EncodingRequest& req_;
  const RankTask& task_;
  z3::context& ctx_;
  z3::solver& solver_;
  std::map<std::uint32_t, std::vector<z3::expr>> query_, key_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, z3::expr> alpha_, readout_, product_;
  std::size_t variables_ = 0, constraints_ = 0;
};

// Midpoint of Z3's rational bracket of an algebraic number at `digits` decimals.
Rational algebraic_midpoint(const z3::expr& value, unsigned digits) {
  const Rational low = rational_from_z3(value.algebraic_lower(digits));
  const Rational high = rational_from_z3(value.algebraic_upper(digits));
  return (low + high) / 2;
}

// Z3's SMT2 text without its (check-sat): cvc5's query adds its own and a get-value.
std::string without_check_sat(const std::string& smt2) {
  const std::size_t at = smt2.rfind("(check-sat)");
  return at == std::string::npos ? smt2 : smt2.substr(0, at);
}

// Key features from Z3's model: exact when Z3 gave rationals, otherwise midpoints of
// Z3's algebraic brackets at increasing precision.
void read_z3_model(const z3::model& model, const EncodingBuilder& builder,
                   const EncodingRequest& request, EncodingAnswer& answer) {
  const std::size_t size = request.task->tokens.size();
  const auto r = static_cast<std::size_t>(request.r);
  std::vector<std::vector<z3::expr>> values;
  bool algebraic = false;
  for (const auto& [token, vars] : builder.key_vars()) {
    std::vector<z3::expr> row;
    for (const z3::expr& v : vars) {
      row.push_back(model.eval(v, true));
      if (row.back().is_algebraic())
        algebraic = true;
      else if (!row.back().is_numeral())
        throw InternalError("Z3 gave a non-numeral feature value " + row.back().to_string());
    }
    values.push_back(std::move(row));
  }
  answer.algebraic = algebraic;
  const std::vector<unsigned> precisions =
      algebraic ? std::vector<unsigned>{8, 16, 32, 64} : std::vector<unsigned>{0};
  for (unsigned digits : precisions) {
    // Tokens without variables are unconstrained by W: give them all-ones features.
    RationalMatrix table(size, RationalVector(r, Rational(1)));
    std::size_t i = 0;
    for (const auto& [token, vars] : builder.key_vars()) {
      for (std::size_t k = 0; k < r; ++k) {
        const z3::expr& value = values[i][k];
        if (!value.is_algebraic()) {
          table[token][k] = rational_from_z3(value);
        } else {
          table[token][k] = algebraic_midpoint(value, digits);
          // Keep PF candidates nonnegative: the upper bracket end is above the value.
          if (request.search_class == SearchClass::PF && table[token][k] < 0)
            table[token][k] = rational_from_z3(value.algebraic_upper(digits));
        }
      }
      ++i;
    }
    answer.key_features.push_back(std::move(table));
  }
}

// Z3 declares only the variables its assertions use (e.g. not the later features of the
// symmetry-breaking singletons); cvc5 is asked for those alone.
bool declared(const std::string& smt2, const std::string& name) {
  return smt2.find("(declare-fun " + name + " ()") != std::string::npos;
}

// The SMT2 names of the declared key-feature variables, in key_vars() order.
std::vector<std::string> key_terms(const EncodingBuilder& builder, const std::string& smt2) {
  std::vector<std::string> terms;
  for (const auto& entry : builder.key_vars())
    for (const z3::expr& v : entry.second)
      if (declared(smt2, v.to_string())) terms.push_back(v.to_string());
  return terms;
}

// cvc5's answer, its exact values laid out as key features (0 for an unused variable, as
// in Z3's completed model).
void read_cvc5_answer(const SmtAnswer& smt, const std::string& smt2, const EncodingBuilder& builder,
                      const EncodingRequest& request, EncodingAnswer& answer) {
  answer.answer = smt.answer;
  answer.reason = smt.reason;
  answer.answered_by = "cvc5";
  if (smt.answer != "sat") return;
  RationalMatrix table(request.task->tokens.size(),
                       RationalVector(static_cast<std::size_t>(request.r), Rational(1)));
  std::size_t i = 0;
  for (const auto& [token, vars] : builder.key_vars())
    for (std::size_t k = 0; k < vars.size(); ++k)
      table[token][k] = declared(smt2, vars[k].to_string()) ? smt.values.at(i++) : Rational(0);
  answer.key_features.push_back(std::move(table));
}

std::string describe(const std::string& solver, const std::string& answer,
                     const std::string& reason) {
  return solver + ": " + answer + (reason.empty() ? "" : " (" + reason + ")");
}

// Z3 in this thread, cvc5 in its process: the first answer wins; an unsat waits for the
// other solver, whose answer becomes the corroboration.
void race(const EncodingRequest& request, const std::string& smt2, const EncodingBuilder& builder,
          z3::context& ctx, z3::solver& solver, EncodingAnswer& answer) {
  Cvc5Process cvc5(smt2, key_terms(builder, smt2), request.timeout_ms);
  std::mutex mutex;
  bool z3_running = true, cvc5_won = false;
  std::optional<SmtAnswer> early;  // cvc5's answer when it came while Z3 ran
  std::thread watcher([&] {
    for (;;) {
      {
        const std::lock_guard<std::mutex> lock(mutex);
        if (!z3_running) return;
        if (cvc5.finished()) {
          early = cvc5.answer();
          if (early->answer == "sat") {
            cvc5_won = true;
            ctx.interrupt();
          }
          return;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  const z3::check_result result = solver.check();
  {
    const std::lock_guard<std::mutex> lock(mutex);
    z3_running = false;
  }
  watcher.join();
  if (cvc5_won) {
    read_cvc5_answer(*early, smt2, builder, request, answer);
    answer.corroboration = "Z3: stopped (cvc5 answered sat first)";
    return;
  }
  if (result == z3::sat) {
    cvc5.stop();
    answer.answer = "sat";
    read_z3_model(solver.get_model(), builder, request, answer);
    answer.corroboration = early ? describe("cvc5", early->answer, early->reason)
                                 : "cvc5: stopped (Z3 answered sat first)";
    return;
  }
  const SmtAnswer other = early ? *early : cvc5.wait();
  const std::string z3_answer = result == z3::unsat ? "unsat" : "unknown";
  const std::string z3_reason = result == z3::unsat ? "" : solver.reason_unknown();
  if (other.answer == "sat" || (other.answer == "unsat" && (early || result != z3::unsat))) {
    // cvc5 answered first, or Z3 could not answer (a sat of cvc5 against Z3's unsat is
    // taken: its model is completed and verified exactly, which settles who is wrong).
    read_cvc5_answer(other, smt2, builder, request, answer);
    answer.corroboration = describe("Z3", z3_answer, z3_reason);
    return;
  }
  answer.answer = z3_answer;
  answer.reason = result == z3::unsat
                      ? ""
                      : "Z3: " + z3_reason + "; " + describe("cvc5", other.answer, other.reason);
  answer.corroboration = describe("cvc5", other.answer, other.reason);
}

}  // namespace

EncodingAnswer solve_encoding(const EncodingRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  EncodingAnswer answer;
  z3::context ctx;
  z3::solver solver(ctx, "QF_NRA");
  z3::params params(ctx);
  if (request.timeout_ms > 0) params.set("timeout", request.timeout_ms);
  if (request.rlimit > 0)
    params.set("rlimit",
               static_cast<unsigned>(std::min<unsigned long long>(request.rlimit, UINT_MAX)));
  solver.set(params);
  EncodingBuilder builder(request, ctx, solver);
  builder.build();
  answer.variables = builder.variables();
  answer.constraints = builder.constraints();
  const bool z3_only = request.solver == SmtSolver::Z3;
  const std::string smt2 = request.want_smt2 || !z3_only ? solver.to_smt2() : std::string();
  if (request.want_smt2) answer.smt2 = smt2;
  const auto finish = [&] {
    answer.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return answer;
  };
  if (request.solver == SmtSolver::Cvc5) {
    const std::string query = without_check_sat(smt2);
    Cvc5Process cvc5(query, key_terms(builder, query), request.timeout_ms);
    read_cvc5_answer(cvc5.wait(), query, builder, request, answer);
    return finish();
  }
  if (request.solver == SmtSolver::Both) {
    race(request, without_check_sat(smt2), builder, ctx, solver, answer);
    return finish();
  }
  const z3::check_result result = solver.check();
  finish();
  if (result == z3::unsat) {
    answer.answer = "unsat";
    return answer;
  }
  if (result == z3::unknown) {
    answer.answer = "unknown";
    answer.reason = solver.reason_unknown();
    return answer;
  }
  answer.answer = "sat";
  read_z3_model(solver.get_model(), builder, request, answer);
  return answer;
}

}  // namespace kernelrank::detail
