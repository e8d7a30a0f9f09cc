// Exact completion of a rank model from fixed key features (rank_search.hpp).
//
// With V fixed, alpha(q,z) = <u_q, v_z> is linear in u_q, and with
// P_qz = alpha(q,z) F_qz every instance of row q asks
// |sum_j P_j - t sum_j alpha_j| < (1/2) sum_j alpha_j: linear in (u_q, P_q).
// The only non-convex piece, "P_qz = 0 wherever alpha(q,z) = 0", is a
// disjunction that Z3's linear arithmetic handles by case splitting. Each row
// is its own small problem; instances (and, for NK, the constraints
// alpha(q,z) >= 0) are tracked so that an infeasible row yields an unsat core.
#include "kernelrank/rank_search.hpp"

#include "kernelrank/errors.hpp"
#include "z3_rational.hpp"

#include <z3++.h>

#include <map>
#include <set>

namespace kernelrank {

Completion complete_from_key_features(const RankTask& task, const RationalMatrix& key_features, int r,
                                      SearchClass search_class, const std::vector<std::size_t>* only_instances,
                                      unsigned timeout_ms) {
  const std::size_t size = task.tokens.size();
  const auto rr = static_cast<std::size_t>(r);
  if (key_features.size() != size) throw InternalError("completion: key feature table has the wrong size");
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
    for (std::size_t id = 0; id < task.instances.size(); ++id) by_row[task.instances[id].query].push_back(id);
  }
  Completion completion;
  completion.model.r = r;
  completion.model.key_features = key_features;
  completion.model.query_features.assign(size, RationalVector(rr, Rational(0)));
  completion.model.readout.assign(size, RationalVector(size, Rational(0)));
  for (const auto& [q, ids] : by_row) {
    std::set<std::uint32_t> keys;
    for (std::size_t id : ids) keys.insert(task.instances[id].keys.begin(), task.instances[id].keys.end());
    z3::context ctx;
    z3::solver solver(ctx, "QF_LRA");
    z3::params params(ctx);
    if (timeout_ms > 0) params.set("timeout", timeout_ms);
    solver.set(params);
    std::vector<z3::expr> u;
    for (std::size_t k = 0; k < rr; ++k) {
      u.push_back(ctx.real_const(("u" + std::to_string(k + 1)).c_str()));
      if (search_class == SearchClass::PF) solver.add(u.back() >= 0);
    }
    std::map<std::uint32_t, z3::expr> alpha, product;
    z3::expr_vector assumptions(ctx);
    std::map<std::string, std::pair<bool, std::size_t>> literal_meaning;  // name -> (is instance, id or key)
    z3::expr row_sum = ctx.real_val(0);
    for (std::uint32_t z : keys) {
      z3::expr a = ctx.real_val(0);
      for (std::size_t k = 0; k < rr; ++k)
        if (key_features[z][k] != 0) a = a + detail::z3_real(ctx, key_features[z][k]) * u[k];
      alpha.emplace(z, a);
      const z3::expr p = ctx.real_const(("p" + std::to_string(z)).c_str());
      product.emplace(z, p);
      solver.add(a > 0 || p == 0);
      row_sum = row_sum + a;
      if (search_class == SearchClass::NK) {
        const std::string name = "nk" + std::to_string(z);
        const z3::expr literal = ctx.bool_const(name.c_str());
        solver.add(z3::implies(literal, a >= 0));
        assumptions.push_back(literal);
        literal_meaning[name] = {false, z};
      }
    }
    // Row scaling: the row's kernel entries sum to 1 (positive in any solution).
    solver.add(row_sum == 1);
    for (std::size_t id : ids) {
      const RankInstance& inst = task.instances[id];
      z3::expr den = ctx.real_val(0), num = ctx.real_val(0);
      for (std::uint32_t z : inst.keys) {
        den = den + alpha.at(z);
        num = num + product.at(z);
      }
      const z3::expr centred = num - ctx.real_val(inst.target) * den;
      const std::string name = "i" + std::to_string(id);
      const z3::expr literal = ctx.bool_const(name.c_str());
      solver.add(z3::implies(literal, 2 * centred < den && 2 * centred > -den));
      assumptions.push_back(literal);
      literal_meaning[name] = {true, id};
    }
    const z3::check_result result = solver.check(assumptions);
    if (result == z3::unknown)
      throw ResourceError("exact completion of row " + task.tokens[q].to_string() + ": Z3 (linear) returned unknown: " +
                          solver.reason_unknown());
    if (result == z3::unsat) {
      completion.failed_rows.push_back(q);
      std::vector<std::size_t> core;
      std::vector<std::uint32_t> nk;
      const z3::expr_vector unsat_core = solver.unsat_core();
      for (unsigned i = 0; i < unsat_core.size(); ++i) {
        const auto& meaning = literal_meaning.at(unsat_core[i].to_string());
        if (meaning.first) core.push_back(meaning.second);
        else nk.push_back(static_cast<std::uint32_t>(meaning.second));
      }
      completion.cores.push_back(std::move(core));
      completion.nk_pairs.push_back(std::move(nk));
      continue;
    }
    const z3::model model = solver.get_model();
    for (std::size_t k = 0; k < rr; ++k)
      completion.model.query_features[q][k] = detail::rational_from_z3(model.eval(u[k], true));
    for (std::uint32_t z : keys) {
      Rational a = 0;
      for (std::size_t k = 0; k < rr; ++k) a += completion.model.query_features[q][k] * key_features[z][k];
      if (a != 0) completion.model.readout[q][z] = detail::rational_from_z3(model.eval(product.at(z), true)) / a;
    }
  }
  completion.complete = completion.failed_rows.empty();
  return completion;
}

}  // namespace kernelrank
