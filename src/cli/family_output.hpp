// Shared by witness/certify: family bytes, their digest and bound summaries.
#pragma once

#include "kernelrank/bounds/family_bound.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace kernelrank::cli {

// Lowercase hex SHA-256, computed with the checker's implementation (the
// producer may use checker code; the checker never uses producer code).
std::string sha256_hex(const std::string& bytes);

std::string family_bound_text(const FamilyBound& bound, std::size_t max_incomplete);
nlohmann::json family_bound_json(const FamilyBound& bound, std::size_t max_incomplete);

}  // namespace kernelrank::cli
