// The one JSON form of the results of `witness`, `certify` and `construct` (and of the exact
// evaluation report construct carries). The CLI prints it for --json; the Python module reads
// its result objects' fields from it, so the two front ends cannot drift apart. Big integers
// and rationals are strings ("18", "3/8"); a field a result does not have is absent.
#pragma once

#include "kernelrank/app/certify_job.hpp"
#include "kernelrank/app/construct_job.hpp"
#include "kernelrank/app/report_json.hpp"  // the evaluation report construct carries
#include "kernelrank/app/witness_job.hpp"
#include "kernelrank/eval/evaluate.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>

namespace kernelrank {

// A family bound: steps_supported, found, why_not, incomplete_count, incomplete (the first
// `listed` patterns); with a bound also bound, rule, rows, steps_used, trace_value (trace
// rules), shift (shifted trace), and `checked`: true with the checker's status line
// (checker_status) when the gate verified its certificate, false when it is only claimed.
nlohmann::json family_bound_json(const FamilyBound& bound, const VerifiedCertificate& certificate,
                                 std::size_t listed);

// The family bound and construction, m, n, instances, code_rows, rows_left_out, family and
// certificate (the files written, or null).
nlohmann::json witness_json(const WitnessRequest& request, const WitnessOutcome& outcome,
                            std::size_t listed);

// The family bound and family, m, n, instances; certificate (the file, when written);
// lost_steps (the first `listed`) and lost_steps_count with a baseline.
nlohmann::json certify_json(const CertifyRequest& request, const CertifyOutcome& outcome,
                            std::size_t listed);

// family, instances, queries, r, activation, slope, diagonal, candidates, evaluation (the
// report of the model text read back) and file (the model written, only when it solves).
nlohmann::json construct_json(const ConstructRequest& request, const ConstructOutcome& outcome);

}  // namespace kernelrank
