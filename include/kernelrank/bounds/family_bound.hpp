// Certified rank bounds from an explicit family of instances (theory.md L2-L4).
//
// A family supports a domination step (q, a, b, k) at query position p when it
// contains S1 = (q, a^(n-1)), S2 = (q, b^(n-1)) and S3_k = (q, a^k, b^(n-1-k))
// with q at position p (keys as multisets, or every arrangement of S3_k's keys
// for position-dependent models), the gap g = <q,b> - <q,a> is >= 2 and the
// factor f = (n-1-k)(g-1)/k is >= 1. Per query the steps form a DAG (overlaps
// increase along edges); the best factor between two tokens is a max-product
// path, computed exactly. Rows (q_i, c_i) whose own tokens are linked both ways
// give the matrix of L4, bounded by the trace or dominance rule.
#pragma once

#include "kernelrank/bounds/rank_bound.hpp"
#include "kernelrank/core/instance.hpp"

#include <string>
#include <vector>

namespace kernelrank {

struct FamilyStep {
  int position = 0;  // 0-based query position
  Token q, a, b;
  int k = 1;
  int gap = 0;
  Rational factor;
};

// An S3-shaped instance whose S1 or S2 is missing (or, position dependent,
// some arrangements of S3 but not all): a step that is almost there.
struct IncompletePattern {
  int position = 0;
  Token q, a, b;
  int k = 1;
  std::vector<std::string> missing;  // e.g. "S3_1 = (q, a, b)"
};

struct FamilyAnalysis {
  std::vector<FamilyStep> steps;
  std::vector<IncompletePattern> incomplete;
};

FamilyAnalysis analyse_family(const Family& family, bool position_dependent);

struct FamilyRow {
  int position = 0;
  Token own, query;
};

struct FamilyChain {
  std::size_t i = 0, j = 0;        // 0-based rows
  std::vector<std::size_t> steps;  // indices into FamilyBound::steps
  Rational factor;
};

struct FamilyBound {
  bool found = false;                // a bound with at least two rows
  std::vector<std::string> why_not;  // when not found (or diagnostics)
  FamilyAnalysis analysis;
  std::vector<FamilyStep> steps;  // the steps the chains use, in order
  std::vector<FamilyRow> rows;
  std::vector<FamilyChain> chains;  // every ordered pair i != j, row-major
  RankBoundResult bound;
};

// Derives steps, chooses rows (a heuristic proposes, the bound is exact) and
// certifies the best bound it can for NK models solving the family.
FamilyBound certify_family(const Family& family, bool position_dependent, int precision = 64);

// The steps (e.g. of an earlier certificate) that the family no longer
// supports, each with the instances it lacks.
std::vector<IncompletePattern> unsupported_steps(const Family& family,
                                                 const std::vector<FamilyStep>& steps,
                                                 bool position_dependent);

// Exact trace / dominance bound for explicit factors rho[i][j] (i != j),
// with the same rounding as the certificate format.
RankBoundResult rank_bound_from_factors(const std::vector<std::vector<Rational>>& rho,
                                        BoundRule rule, int n, int precision = 64);

}  // namespace kernelrank
