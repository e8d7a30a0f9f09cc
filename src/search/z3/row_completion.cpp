// Exact completion of a rank model from fixed key features (rank_search.hpp).
//
// With V fixed, alpha(q,z) = <u_q, v_z> is linear in u_q, and with
// P_qz = alpha(q,z) F_qz every instance of row q asks
// |sum_j P_j - t sum_j alpha_j| < (1/2) sum_j alpha_j: linear in (u_q, P_q).
// The only non-convex piece, "P_qz = 0 wherever alpha(q,z) = 0", is a
// disjunction that Z3's linear arithmetic handles by case splitting. Each row
// is its own small problem; instances (and, for NK, the constraints
// alpha(q,z) >= 0) are tracked so that an infeasible row yields an unsat core.
#include "kernelrank/search/rank_search.hpp"

#include "kernelrank/core/errors.hpp"
#include "search/z3/z3_rational.hpp"

#include <z3++.h>

#include <map>
#include <set>

namespace kernelrank {

namespace {

struct RowAttempt {
  Rational margin;  // |N - tD| <= (1/2 - margin) D when restricted
  bool restricted;  // also alpha(q,z) > 0 on every key; no core tracking
  const RationalVector* fixed_query = nullptr;  // u_q given: only the readout is unknown
};

struct RowSolution {
  bool feasible = false;
  RationalVector query_features;
  std::map<std::uint32_t, Rational> readout;
  std::vector<std::size_t> core;
  std::vector<std::uint32_t> nk_core;
};

// One row's linear problem: the query features u, the products p_z = alpha(q,z) F_qz, and
// the assumption literals whose unsat core names the instances (and NK keys) at fault.
struct RowProblem {
  z3::context ctx;
  z3::solver solver{ctx, "QF_LRA"};
  std::vector<z3::expr> u;
  std::map<std::uint32_t, z3::expr> alpha, product;
  z3::expr_vector assumptions{ctx};
  std::map<std::string, std::pair<bool, std::size_t>> literal_meaning;  // name -> (instance?, id)

  void track(const z3::expr& condition, const std::string& name, bool instance, std::size_t id) {
    const z3::expr literal = ctx.bool_const(name.c_str());
    solver.add(z3::implies(literal, condition));
    assumptions.push_back(literal);
    literal_meaning[name] = {instance, id};
  }
};

void add_query_and_keys(RowProblem& row, const RationalMatrix& key_features, std::size_t rr,
                        SearchClass search_class, const std::set<std::uint32_t>& keys,
                        const RowAttempt& attempt) {
  z3::context& ctx = row.ctx;
  for (std::size_t k = 0; k < rr; ++k) {
    if (attempt.fixed_query) {
      row.u.push_back(detail::z3_real(ctx, (*attempt.fixed_query)[k]));
      continue;
    }
    row.u.push_back(ctx.real_const(("u" + std::to_string(k + 1)).c_str()));
    if (search_class == SearchClass::PF) row.solver.add(row.u.back() >= 0);
  }
  z3::expr row_sum = ctx.real_val(0);
  for (std::uint32_t z : keys) {
    z3::expr a = ctx.real_val(0);
    for (std::size_t k = 0; k < rr; ++k)
      if (key_features[z][k] != 0) a = a + detail::z3_real(ctx, key_features[z][k]) * row.u[k];
    row.alpha.emplace(z, a);
    const z3::expr p = ctx.real_const(("p" + std::to_string(z)).c_str());
    row.product.emplace(z, p);
    row_sum = row_sum + a;
    if (attempt.restricted) {
      row.solver.add(a > 0);
      continue;
    }
    row.solver.add((search_class == SearchClass::Signed ? a != 0 : a > 0) || p == 0);
    if (search_class == SearchClass::NK) row.track(a >= 0, "nk" + std::to_string(z), false, z);
  }
  // Row scaling: the row's kernel entries sum to 1 (positive in any solution). A signed
  // row sum may be 0 or negative: its constraints are homogeneous, so the scale stays free.
  if (!attempt.fixed_query && (attempt.restricted || search_class != SearchClass::Signed))
    row.solver.add(row_sum == 1);
}

void add_instances(RowProblem& row, const RankTask& task, SearchClass search_class,
                   const std::vector<std::size_t>& ids, const RowAttempt& attempt) {
  z3::context& ctx = row.ctx;
  const z3::expr bound_factor = detail::z3_real(ctx, Rational(1, 2) - attempt.margin);
  for (std::size_t id : ids) {
    const RankInstance& inst = task.instances[id];
    z3::expr den = ctx.real_val(0), num = ctx.real_val(0);
    for (std::uint32_t z : inst.keys) {
      den = den + row.alpha.at(z);
      num = num + row.product.at(z);
    }
    const z3::expr centred = num - ctx.real_val(inst.target) * den;
    if (attempt.restricted) {
      row.solver.add(centred <= bound_factor * den);
      row.solver.add(centred >= -bound_factor * den);
      continue;
    }
    z3::expr within = 2 * centred < den && 2 * centred > -den;
    if (search_class == SearchClass::Signed)
      within = within || (2 * centred < -den && 2 * centred > den);
    row.track(within, "i" + std::to_string(id), true, id);
  }
}

// The model's u_q and readout F_qz = p_z / alpha(q,z), recomputed exactly from the features.
void read_model(const RowProblem& row, const RationalMatrix& key_features, std::size_t rr,
                const std::set<std::uint32_t>& keys, const RowAttempt& attempt, RowSolution& out) {
  const z3::model model = row.solver.get_model();
  out.feasible = true;
  for (std::size_t k = 0; k < rr; ++k)
    out.query_features.push_back(attempt.fixed_query
                                     ? (*attempt.fixed_query)[k]
                                     : detail::rational_from_z3(model.eval(row.u[k], true)));
  for (std::uint32_t z : keys) {
    Rational a = 0;
    for (std::size_t k = 0; k < rr; ++k) a += out.query_features[k] * key_features[z][k];
    out.readout[z] =
        a != 0 ? detail::rational_from_z3(model.eval(row.product.at(z), true)) / a : Rational(0);
  }
}

RowSolution solve_row(const RankTask& task, const RationalMatrix& key_features, std::size_t rr,
                      SearchClass search_class, std::uint32_t q,
                      const std::vector<std::size_t>& ids, const std::set<std::uint32_t>& keys,
                      const RowAttempt& attempt, unsigned timeout_ms) {
  RowSolution out;
  RowProblem row;
  z3::params params(row.ctx);
  if (timeout_ms > 0) params.set("timeout", timeout_ms);
  row.solver.set(params);
  add_query_and_keys(row, key_features, rr, search_class, keys, attempt);
  add_instances(row, task, search_class, ids, attempt);
  const z3::check_result result =
      attempt.restricted ? row.solver.check() : row.solver.check(row.assumptions);
  if (result == z3::unknown) {
    if (attempt.restricted) return out;
    throw ResourceError("exact completion of row " + task.tokens[q].to_string() +
                        ": Z3 (linear) returned unknown: " + row.solver.reason_unknown());
  }
  if (result == z3::unsat) {
    if (attempt.restricted) return out;
    const z3::expr_vector unsat_core = row.solver.unsat_core();
    for (unsigned i = 0; i < unsat_core.size(); ++i) {
      const auto& meaning = row.literal_meaning.at(unsat_core[i].to_string());
      if (meaning.first)
        out.core.push_back(meaning.second);
      else
        out.nk_core.push_back(static_cast<std::uint32_t>(meaning.second));
    }
    return out;
  }
  read_model(row, key_features, rr, keys, attempt, out);
  return out;
}

}  // namespace

Completion complete_from_key_features(const RankTask& task, const RationalMatrix& key_features,
                                      int r, SearchClass search_class,
                                      const std::vector<std::size_t>* only_instances,
                                      unsigned timeout_ms, const RationalMatrix* query_features) {
  const std::size_t size = task.tokens.size();
  const auto rr = static_cast<std::size_t>(r);
  if (key_features.size() != size)
    throw InternalError("completion: key feature table has the wrong size");
  for (const RationalVector& row : key_features) {
    if (row.size() != rr) throw InternalError("completion: key feature rows must have r entries");
    if (search_class == SearchClass::PF)
      for (const Rational& x : row)
        if (x < 0) throw InternalError("completion: negative key feature for a PF search");
  }
  // Instance ids per row.
  std::map<std::uint32_t, std::vector<std::size_t>> by_row;
  if (only_instances) {
    for (std::size_t id : *only_instances) by_row[task.instances.at(id).query].push_back(id);
  } else {
    for (std::size_t id = 0; id < task.instances.size(); ++id)
      by_row[task.instances[id].query].push_back(id);
  }
  Completion completion;
  completion.model.r = r;
  completion.model.key_features = key_features;
  completion.model.query_features.assign(size, RationalVector(rr, Rational(0)));
  completion.model.readout.assign(size, RationalVector(size, Rational(0)));
  for (const auto& [q, ids] : by_row) {
    std::set<std::uint32_t> keys;
    for (std::size_t id : ids)
      keys.insert(task.instances[id].keys.begin(), task.instances[id].keys.end());
    // First with a margin and alpha > 0 on every key (a restriction: vertex
    // solutions with small denominators, fast); then the exact question with
    // strict inequalities and tracked constraints, which yields a core.
    bool done = false;
    std::vector<RowAttempt> attempts;
    if (query_features)
      for (const Rational& margin : {Rational(1, 200), Rational(1, 5000)})
        attempts.push_back(RowAttempt{margin, true, &(*query_features)[q]});
    attempts.push_back(RowAttempt{Rational(1, 1000), true, nullptr});
    attempts.push_back(RowAttempt{Rational(0), false, nullptr});
    for (const RowAttempt& attempt : attempts) {
      RowSolution solution =
          solve_row(task, key_features, rr, search_class, q, ids, keys, attempt, timeout_ms);
      if (!solution.feasible) {
        if (attempt.restricted) continue;
        completion.failed_rows.push_back(q);
        completion.cores.push_back(std::move(solution.core));
        completion.nk_pairs.push_back(std::move(solution.nk_core));
        done = true;
        break;
      }
      completion.model.query_features[q] = solution.query_features;
      for (const auto& [z, f] : solution.readout) completion.model.readout[q][z] = f;
      done = true;
      break;
    }
    if (!done) throw InternalError("row completion ended without an answer");
  }
  completion.complete = completion.failed_rows.empty();
  return completion;
}

}  // namespace kernelrank
