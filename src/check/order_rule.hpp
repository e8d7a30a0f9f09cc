// The order rule of format 2 (docs/certificate-format.md, "rule order").
//
// A step is an L2 fact alpha(q,a) > alpha(q,b) (f >= 1, and alpha(q,q), alpha(q,b) >= 0).
// A keypair X Y gathers such facts about two keys, in both directions. At rank 1 all query
// rows are multiples of one vector, so one keypair is already a contradiction. At rank 2 a
// nonnegative matrix has a nonnegative factorisation of size 2 (Cohen-Rothblum), so
// alpha(q,z) = <u_q, v_z> with u, v in the closed positive quadrant, and the sign of
// alpha(q,X) - alpha(q,Y) changes at most once as the angle of u_q runs over [0, pi/2]: the
// queries of the two directions lie strictly on either side of one threshold angle. An
// orientation says, per keypair, which side comes first; angles exist for it exactly when
// the graph query -> threshold -> query it defines is acyclic. If no orientation is acyclic,
// r >= R + 1.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "check/bignum.hpp"
#include "check/certificate.hpp"
#include "check/family.hpp"

namespace krcheck {

// The core as a graph problem: queries are numbers 0 .. query_count - 1.
struct OrderCore {
  struct Sides {
    std::vector<std::uint32_t> first_above;   // queries for which the keypair's X is above Y
    std::vector<std::uint32_t> second_above;  // queries for which Y is above X
  };
  std::size_t query_count = 0;
  std::vector<Sides> pairs;  // at most kMaxKeyPairs
};

struct OrderDecision {
  bool contradictory = false;
  std::uint64_t orientations_examined = 0;
  std::uint32_t consistent_orientation = 0;  // when not contradictory
};

// Orientation bit t = 0: keypair t's first_above queries come before its threshold node and
// its second_above queries after it; bit t = 1 the reverse. True when that graph is acyclic.
bool orientation_is_acyclic(const OrderCore& core, std::uint32_t orientation);

// The orientation as one digit per keypair, in keypair order.
std::string orientation_text(std::uint32_t orientation, std::size_t pair_count);

// Rank 1: contradictory when there is a keypair. Rank 2: enumerates the orientations in
// increasing order and stops at the first acyclic one.
OrderDecision decide_order_core(int rank, const OrderCore& core);

// The whole rule: positions, every step (against `family`, or null for the cube), the
// keypairs, the block NK needs, the decision, the claim. Returns the bound R + 1.
BigInt check_order_rule(const Certificate& cert, const Family* family, std::ostream& out);

}  // namespace krcheck
