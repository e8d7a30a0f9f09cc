// Witness families: the explicit instances whose solution alone forces a bound.
//
// For rows (c_i, q_i = complement of c_i) of a code and every ordered pair
// i != j, the optimal split of the gap G_ij (theory.md L3) gives a chain
// c_i = z_0, ..., z_t = c_j in the cube; each link contributes its three
// instances S1 = (q, z^(n-1)), S2 = (q, z'^(n-1)), S3 = (q, z, z'^(n-2)). The
// family of all of them (deduplicated) is what any model solving it must
// handle, and certify_family re-derives the bound from the family alone.
#pragma once

#include "kernelrank/bounds/family_bound.hpp"
#include "kernelrank/bounds/rank_bound.hpp"
#include "kernelrank/core/instance.hpp"

#include <string>
#include <vector>

namespace kernelrank {

struct WitnessOptions {
  int n = 3;
  int position = 0;                  // 0-based query position of every instance
  bool position_dependent = false;   // include every arrangement of S3's keys
  std::size_t max_instances = 3000;  // rows are added while the family fits
};

struct Witness {
  Family family;
  std::vector<BoundRow> rows;     // the code rows whose chains the family holds
  std::size_t rows_left_out = 0;  // rows of the code that did not fit the budget
};

// Rows are taken in the order given (put the best first); each is kept only if
// its chains to and from the rows already kept fit within max_instances.
Witness build_witness(const std::vector<Token>& code, const WitnessOptions& options);

}  // namespace kernelrank
