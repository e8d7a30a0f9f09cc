// Certificates for refutations (docs/certificate-format.md, version 2): the order
// argument's core, the inheritance of a smaller cube's certificate, and the one-row
// certificate of r >= 1. The producer writes the text; kernelrank-check re-derives it.
#pragma once

#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/bounds/order_argument.hpp"
#include "kernelrank/bounds/rank_task.hpp"

#include <optional>
#include <string>

namespace kernelrank {

// The certificate task of a rank task: its m, n, mode and class, positions independent.
CertificateTask certificate_task_of(const RankTask& task, SearchClass search_class);

// The refuted core of `order` (rank 1 or 2) as a `rule order` certificate claiming
// r >= rank + 1. Every step is an L2 fact of `task` (k recomputed by domination_facts).
// For a family task, `family_sha256` names the family file, and a step needs S1, S2 and
// S3_k at one common query position; nullopt (with `why_not`) when some fact of the core
// has none, or when the task is neither a cube nor a family.
std::optional<std::string> order_certificate(const RankTask& task, SearchClass search_class,
                                             const OrderArgument& order, int rank,
                                             const std::string& family_sha256,
                                             std::string& why_not);

// A cube certificate for T(task.m, n) that embeds `embedded` (a complete cube certificate
// for a smaller m with the same n, mode and positions) and claims r >= claim.
std::string inherit_certificate(const CertificateTask& task, const std::string& construction,
                                const std::string& embedded, const std::string& claim);

// The linear-dependence argument on the cube T(task.m, n): the R+1 = floor(m/2) queries
// with disjoint pairs of ones (coordinates 2i-1, 2i), and for every full sign pattern with
// both signs (query 1 '+') the keys A = union of the '-' queries, B = union of the '+'
// queries, so that every query has a gap of 2 the right way. Claims
// r >= R + 1 = floor(m/2); rank R must be 1..7 (m = 4..17). docs/certificate-format.md.
std::string dependence_certificate(const CertificateTask& task);

// r >= 1 from one row (a model with no features has only zero denominators); cube, n >= 3.
std::string one_row_certificate(const CertificateTask& task);

}  // namespace kernelrank
