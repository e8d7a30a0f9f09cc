// Witness families and family certification, re-checked by the independent checker.
#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/bounds/family_bound.hpp"
#include "kernelrank/bounds/witness.hpp"
#include "kernelrank/core/code.hpp"

#include "check/check.hpp"
#include "check/sha256.hpp"
#include "oracle/naive_model.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace kernelrank;

namespace {

struct Written {
  std::string cert_path, family_path;
};

Written write_pair(const std::string& name, const Family& family, const FamilyBound& bound,
                   bool dependent = false) {
  const auto dir = std::filesystem::temp_directory_path() / "kernelrank-test-witness";
  std::filesystem::create_directories(dir);
  const std::string family_text = family_to_text(family);
  CertificateTask task;
  task.m = family.m;
  task.n = family.n;
  task.position_dependent = dependent;
  const std::string cert =
      family_certificate(task, krcheck::to_hex(krcheck::sha256(family_text)), name, bound);
  Written w{(dir / (name + ".cert")).string(), (dir / (name + ".family")).string()};
  std::ofstream(w.family_path, std::ios::binary) << family_text;
  std::ofstream(w.cert_path, std::ios::binary) << cert;
  return w;
}

krcheck::CheckResult run_checker(const Written& w) {
  std::ostringstream out, err;
  return krcheck::check_certificate(w.cert_path, w.family_path, out, err);
}

}  // namespace

TEST_CASE(
    "witness: m = 24 family certifies r >= 18 (trace rule alone: 14) and the checker verifies it") {
  // The lexicode of weight 12 and distance 12 at m = 24 (24 words) with complement
  // queries: every gap is >= 6, so each row pair has a chain, and the whole family
  // stays near a thousand instances.
  WitnessOptions options;
  options.max_instances = 3000;
  const Witness w = build_witness(lexicode(24, 12, 12).words, options);
  CHECK(w.family.instances.size() >= 1000);
  CHECK(w.family.instances.size() <= 3000);
  const FamilyBound bound = certify_family(w.family, false);
  REQUIRE(bound.found);
  // The expected bound, by hand. With q_i = complement(c_i) and all weights 12, the gap is
  // G_ij = |c_j \ c_i| = d(c_i, c_j) / 2, here 6 (distance 12) or 8 (distance 16). At n = 3,
  // R_3(G) = max over compositions of G into parts >= 2 of prod (g_t - 1): R_3(6) = 5 (the
  // part 6; 3+3 gives 4, 4+2 gives 3) and R_3(8) = 9 (4+4; 8 gives 7, 5+3 gives 8). A family
  // chain has rho_ij <= R_3(G_ij), and the witness builds chains attaining it (one gap-6 step
  // with k = 1, f = 5; two gap-4 steps, f = 3 * 3). Column j has e_j rows at gap 8 and
  // 23 - e_j at gap 6: c_j = (23 - e_j)/25 + e_j/81. Counted below on the rows: 488 ordered
  // pairs at gap 6 and 64 at gap 8, with e_j = 3 for 16 columns, 2 for 5, 1 for 2 and 4 for 1,
  // so T = sum_j 1/(1 + c_j) = 16 * 2025/3720 + 5 * 2025/3776 + 2 * 2025/3832 + 2025/3664
  // = 13.00065..., and the trace rule gives floor(T) + 1 = 14 (rounding each of the 24 terms
  // down to a multiple of 2^-64 loses far less than the 0.00065 above 13).
  REQUIRE(w.rows.size() == 24);
  std::map<int, int> gaps;
  std::vector<int> gap8_in_column(24, 0);
  for (std::size_t i = 0; i < 24; ++i)
    for (std::size_t j = 0; j < 24; ++j) {
      if (i == j) continue;
      const int g = oracle::naive_overlap(w.rows[i].query, w.rows[j].own) -
                    oracle::naive_overlap(w.rows[i].query, w.rows[i].own);
      ++gaps[g];
      if (g == 8) ++gap8_in_column[j];
    }
  CHECK(gaps == std::map<int, int>{{6, 488}, {8, 64}});
  std::map<int, int> columns_by_e;
  Rational t = 0;
  for (const int e : gap8_in_column) {
    ++columns_by_e[e];
    t += 1 / (1 + Rational(23 - e, 25) + Rational(e, 81));
  }
  CHECK(columns_by_e == std::map<int, int>{{1, 2}, {2, 5}, {3, 16}, {4, 1}});
  CHECK(t > 13);
  CHECK(t < 13 + Rational(1, 1000));
  // The shifted trace rule (docs/bounds.md) on the same chains: with W = J/10 every
  // e_ij = max(1/10, 1/rho_ij - 1/10) is 1/10 (rho_ij = 5 or 9), so C_j = 23/100 and
  // T_W = 24 (81/100) / (81/100 + 23/100) = 243/13 = 18.69..., r >= ceil(T_W) - 1 = 18, which
  // beats the trace rule's 14; certify_family picks it, with t = 1/10 from its grid.
  CHECK(Rational(24) * Rational(81, 100) / (Rational(81, 100) + Rational(23, 100)) ==
        Rational(243, 13));
  CHECK(bound.bound.rule == BoundRule::ShiftedTrace);
  CHECK(bound.bound.shift == Rational(1, 10));
  CHECK(bound.bound.bound == 18);
  // The family alone supports at least what the cube argument gives for its rows.
  CHECK(bound.bound.bound >= certify_rank_bound(w.rows, 3, BoundRule::Trace).bound);
  const Written files = write_pair("witness24", w.family, bound);
  const krcheck::CheckResult result = run_checker(files);
  CHECK(result.status == krcheck::Status::verified);
  CHECK(result.claim == bound.bound.bound.str());
}

TEST_CASE("witness: deleting one chain instance weakens the bound and names the lost step") {
  WitnessOptions options;
  const Witness w = build_witness(lexicode(16, 8, 8).words, options);
  const FamilyBound full = certify_family(w.family, false);
  REQUIRE(full.found);
  // Remove one S3 instance (keys of two different tokens) used by the chains.
  Family damaged = w.family;
  std::size_t removed = damaged.instances.size();
  for (std::size_t i = 0; i < damaged.instances.size(); ++i)
    if (damaged.instances[i].tokens[1] != damaged.instances[i].tokens[2]) {
      removed = i;
      break;
    }
  REQUIRE(removed < damaged.instances.size());
  const Instance lost = damaged.instances[removed];
  damaged.instances.erase(damaged.instances.begin() + static_cast<std::ptrdiff_t>(removed));
  const FamilyBound weaker = certify_family(damaged, false);
  CHECK((!weaker.found || weaker.bound.trace_value() < full.bound.trace_value()));
  const auto unsupported = unsupported_steps(damaged, full.steps, false);
  REQUIRE(unsupported.size() == 1);
  CHECK(unsupported.front().q == lost.tokens[0]);
  REQUIRE(unsupported.front().missing.size() == 1);
  CHECK(unsupported.front().missing.front().rfind("S3_1", 0) == 0);
  // The old certificate no longer verifies against the damaged family: the digest differs.
  const Written original = write_pair("witness16", w.family, full);
  std::ofstream(original.family_path, std::ios::binary) << family_to_text(damaged);
  CHECK(run_checker(original).status != krcheck::Status::verified);
}

TEST_CASE("witness: removing an S1 instance is reported as an incomplete pattern") {
  WitnessOptions options;
  const Witness w = build_witness(lexicode(12, 6, 8).words, options);
  Family damaged = w.family;
  // The first instance is S1 of the first chain: (q, c, c).
  REQUIRE(damaged.instances.front().tokens[1] == damaged.instances.front().tokens[2]);
  damaged.instances.erase(damaged.instances.begin());
  const FamilyAnalysis analysis = analyse_family(damaged, false);
  REQUIRE_FALSE(analysis.incomplete.empty());
  bool names_s1 = false;
  for (const IncompletePattern& p : analysis.incomplete)
    for (const std::string& m : p.missing) names_s1 = names_s1 || m.rfind("S1", 0) == 0;
  CHECK(names_s1);
}

TEST_CASE("witness: position-dependent families hold every arrangement and verify") {
  WitnessOptions options;
  options.n = 4;
  options.position_dependent = true;
  const Witness w = build_witness(lexicode(12, 6, 8).words, options);
  const FamilyBound dependent = certify_family(w.family, true);
  REQUIRE(dependent.found);
  CHECK(run_checker(write_pair("dependent12", w.family, dependent, true)).status ==
        krcheck::Status::verified);
  // Without the extra arrangements (independent witness) the dependent analysis finds no steps.
  options.position_dependent = false;
  const Witness plain = build_witness(lexicode(12, 6, 8).words, options);
  CHECK(certify_family(plain.family, true).analysis.steps.empty());
  CHECK(certify_family(plain.family, false).found);
}

TEST_CASE("certify: a family without domination patterns says why") {
  Family family{4, 3, {}};
  family.instances.push_back({{parse_token("1111"), parse_token("0000"), parse_token("1100")}, 0});
  family.instances.push_back({{parse_token("1111"), parse_token("1110"), parse_token("1100")}, 0});
  const FamilyBound bound = certify_family(family, false);
  CHECK_FALSE(bound.found);
  REQUIRE_FALSE(bound.why_not.empty());
  CHECK(bound.why_not.front().find("no domination step") != std::string::npos);
  // The S3-shaped instance (1111, 0000, 1100) lacks both S1 and S2.
  REQUIRE(bound.analysis.incomplete.size() == 1);
  CHECK(bound.analysis.incomplete.front().missing.size() == 2);
}

TEST_CASE("certify: chains through the family's DAG take the best product") {
  // One query q = 11111111, tokens at overlaps 0, 4 and 8 with steps 0->4, 4->8
  // and 0->8 directly: the best 0 -> 8 factor is max(3*3, 7) = 9 (n = 3).
  const Token q = parse_token("11111111");
  const Token z0 = parse_token("00000000"), z4 = parse_token("11110000"),
              z8 = parse_token("11111111");
  Family family{8, 3, {}};
  for (const Token& t : {z0, z4, z8}) family.instances.push_back({{q, t, t}, 0});
  family.instances.push_back({{q, z0, z4}, 0});
  family.instances.push_back({{q, z4, z8}, 0});
  family.instances.push_back({{q, z0, z8}, 0});
  const FamilyAnalysis analysis = analyse_family(family, false);
  CHECK(analysis.steps.size() == 3);
  // Only one query, so no two rows are linked both ways: no bound, with the reason.
  const FamilyBound bound = certify_family(family, false);
  CHECK_FALSE(bound.found);
  REQUIRE_FALSE(bound.why_not.empty());
  CHECK(bound.why_not.front().find("linked both ways") != std::string::npos);
}
