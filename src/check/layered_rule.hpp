// Layered heads: an explicit upper bound r <= N for the cube task T(m,3) (docs/certificate-
// format.md, "Layered heads (upper bounds)"; the construction is docs/upper-bounds.md's).
//
// What is proved. The head has one feature per subset S of {1..m} with |S| a layer j:
// phiQ(q)_S = c_j [S in q], phiK(z)_S = [S misses z], so alpha(q,z) = K(u) = sum_j c_j C(u,j)
// with u = |q \ z|, and r = sum_j C(m,j) features. Its readout is F_q(z) = <q,z> + g_w(u),
// w = |q|. If every profile below has error < 1/2, this head, of the declared class (PF: every
// feature entry >= 0, i.e. every c_j >= 0; NK: alpha = K(u) >= 0), solves T(m,3): r <= N.
//
// Why the profile reduction is exact. alpha and F depend on (w, u) only, and the query's own
// term has u = 0, so the output and the target w - max(u1, u2) of an instance (q, z1, z2)
// depend only on (w, {u1, u2}). Every profile 0 <= u1 <= u2 <= w <= m occurs: q = 1^w 0^(m-w)
// and z_i with w - u_i ones inside q. So checking the (m+1)(m+2)(m+3)/6 profiles is checking
// every instance, exactly (integers over common denominators, no rounding anywhere).
#pragma once

#include <ostream>
#include <vector>

#include "check/bignum.hpp"
#include "check/layered_head.hpp"

namespace krcheck {

// K(u) for u = 0..m, and in `features` r = sum over the layers of C(m, j) (Pascal's rows).
std::vector<Rational> layered_kernel(const LayeredHead& head, BigInt& features);

// Checks K(0) > 0, the class, the declared r and every profile; prints the comment lines
// ("c profiles: ...", "c upper: r <= N") and returns N = r. A failure is a fail_check at the
// layer line (K(0), a PF coefficient), the header line (NK, r) or the correction line of
// the failing profile's w.
BigInt check_layered_head(const LayeredHead& head, std::ostream& out);

}  // namespace krcheck
