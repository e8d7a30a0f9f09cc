// Z3 (linear real arithmetic) behind the fixed-kernel feasibility interface.
// This file and the other src/search/z3/ files are the only ones that include z3++.h.
#include "kernelrank/search/readout_feasibility.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "search/z3/z3_rational.hpp"

#include <z3++.h>

#include <map>
#include <unordered_map>

namespace kernelrank {

std::string to_string(FeasibilityStatus status) {
  switch (status) {
    case FeasibilityStatus::Feasible:
      return "feasible";
    case FeasibilityStatus::Infeasible:
      return "infeasible";
    case FeasibilityStatus::Unknown:
      return "unknown";
  }
  return "?";
}

ReadoutFeasibility find_readout(int m, const std::vector<Token>& tokens,
                                const RationalMatrix& kernel, const Family& family,
                                unsigned timeout_ms) {
  std::unordered_map<Token, std::size_t, TokenHash> index;
  for (std::size_t i = 0; i < tokens.size(); ++i) index[tokens[i]] = i;
  auto lookup = [&](const Token& t) {
    const auto it = index.find(t);
    if (it == index.end())
      throw UsageError("family token " + t.to_string() + " is not in the kernel's token list");
    return it->second;
  };
  ReadoutFeasibility result;
  z3::context ctx;
  z3::solver solver(ctx, "QF_LRA");
  z3::params params(ctx);
  params.set("timeout", timeout_ms);
  solver.set(params);
  std::map<std::pair<std::size_t, std::size_t>, z3::expr> readout;
  auto variable = [&](std::size_t q, std::size_t z) -> z3::expr {
    const auto key = std::make_pair(q, z);
    auto it = readout.find(key);
    if (it == readout.end())
      it =
          readout
              .emplace(key,
                       ctx.real_const(("F_" + std::to_string(q) + "_" + std::to_string(z)).c_str()))
              .first;
    return it->second;
  };
  for (std::size_t line = 0; line < family.instances.size(); ++line) {
    const Instance& instance = family.instances[line];
    const std::size_t q = lookup(instance.tokens[static_cast<std::size_t>(instance.query)]);
    Rational denominator = 0;
    z3::expr numerator = ctx.real_val(0);
    for (const Token& x : instance.tokens) {
      const std::size_t z = lookup(x);
      const Rational& a = kernel[q][z];
      denominator += a;
      if (a != 0) numerator = numerator + detail::z3_real(ctx, a) * variable(q, z);
    }
    if (denominator == 0) {
      result.status = FeasibilityStatus::Infeasible;
      result.detail =
          "instance " + std::to_string(line + 1) + " has a zero denominator for every readout";
      return result;
    }
    // |numerator - t * den| < den / 2, with den of either sign.
    const Rational half = abs_of(denominator) / 2;
    const z3::expr centred =
        numerator - detail::z3_real(ctx, Rational(min_ip_target(instance)) * denominator);
    solver.add(centred < detail::z3_real(ctx, half));
    solver.add(centred > detail::z3_real(ctx, -half));
  }
  const z3::check_result answer = solver.check();
  if (answer == z3::unsat) {
    result.status = FeasibilityStatus::Infeasible;
    result.detail = "Z3 " + std::string(Z3_get_full_version()) + " (linear real arithmetic): unsat";
    return result;
  }
  if (answer == z3::unknown) {
    result.status = FeasibilityStatus::Unknown;
    result.detail = "Z3: " + solver.reason_unknown();
    return result;
  }
  const z3::model z3_model = solver.get_model();
  RationalMatrix table(tokens.size(), RationalVector(tokens.size()));
  for (const auto& [key, var] : readout)
    table[key.first][key.second] = detail::rational_from_z3(z3_model.eval(var, true));
  result.model = std::make_unique<TabularModel>(m, tokens, kernel, table);
  const EvalReport check = evaluate_family(*result.model, family, EvalOptions{});
  if (!check.solves())
    throw InternalError("Z3's readout does not solve the family under exact evaluation");
  result.status = FeasibilityStatus::Feasible;
  result.detail =
      "readout found by Z3 and re-verified exactly (max error " + to_string(*check.max_error) + ")";
  return result;
}

}  // namespace kernelrank
