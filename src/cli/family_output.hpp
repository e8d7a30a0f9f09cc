// Shared by witness/certify: bound summaries of a family.
#pragma once

#include "kernelrank/bounds/family_bound.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace kernelrank::cli {

std::string family_bound_text(const FamilyBound& bound, std::size_t max_incomplete);
nlohmann::json family_bound_json(const FamilyBound& bound, std::size_t max_incomplete);

}  // namespace kernelrank::cli
