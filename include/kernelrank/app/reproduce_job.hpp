// The pipeline behind `kernelrank reproduce`, the default job: the facts of theory.md the
// engine can verify exactly on shipped defaults (L1, L5, the Golay codes, and L4 on the
// dodecads at m = 24), each a claim with its evidence. The m = 24 bound's certificate always
// goes through the gate (the checker's library in memory), so that the bound is shown as
// certified only next to the checker's status line; it is written when a path is given.
// Messages name parameters as {small-m}, {large-m} (core/errors.hpp).
#pragma once

#include "kernelrank/bounds/certificate_gate.hpp"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace kernelrank {

struct ReproduceRequest {
  int small_m = 8;          // brute-force width, 2..8
  int large_m = 24;         // overlap-profile width, 2..4096
  std::string certificate;  // where to write the m = 24 bound's certificate ("": nowhere)
};

struct ReproduceClaim {
  std::string name;
  bool holds = false;
  std::string evidence;
  std::string checker_status;  // the checker's status line on the claim's certificate, or ""
};

struct ReproduceResult {
  std::vector<ReproduceClaim> claims;
  bool all_hold = false;
  std::string certificate_message;  // write_verified_certificate's sentence, or ""
};

ReproduceResult run_reproduce(const ReproduceRequest& request);

// The one JSON form of the result (the CLI prints it): the claims (with checker_status where
// a certificate was checked), all_verified, and the certificate path when one was written.
nlohmann::json reproduce_json(const ReproduceRequest& request, const ReproduceResult& result);

}  // namespace kernelrank
