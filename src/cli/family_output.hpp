// Shared by witness/certify: the text of a family's bound (its JSON form is
// app/result_json.hpp's); and the line that shows the checker's verdict beside a bound called
// certified (witness, certify, transition, search, bound).
#pragma once

#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/family_bound.hpp"

#include <string>

namespace kernelrank::cli {

// A bound is "certified" only next to the status line the checker printed on its certificate
// (`certificate`); without one it is "claimed (not checked)".
std::string family_bound_text(const FamilyBound& bound, const VerifiedCertificate& certificate,
                              std::size_t max_incomplete);

// The line that shows the checker's verdict on a certificate: "...: s VERIFIED".
std::string checker_status_line(const VerifiedCertificate& certificate, const std::string& indent);

}  // namespace kernelrank::cli
