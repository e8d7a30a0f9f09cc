// Tests written to kill the mutants of src/check/ that survived the rest of the suite
// (scripts/mutate-checker.sh; docs/robustness.md, "Mutation testing"). Each case names the
// mutant keys it kills (`scripts/mutation/mutants.py show KEY` prints the mutation). The
// expectations are worked by hand from docs/certificate-format.md, never taken from the
// checker.
#include <doctest/doctest.h>

#include <string>

#include "check/sha256.hpp"
#include "test_support.hpp"

using krcheck::Status;
using krcheck_test::run_text;

namespace {

bool has(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

// Runs the checker and requires the status and one error line containing `fragment`.
void expect_error(const std::string& cert, Status status, const std::string& fragment,
                  const std::optional<std::string>& family = std::nullopt) {
  const auto run = run_text(cert, family);
  CHECK(run.status() == status);
  CHECK_MESSAGE(has(run.err, fragment), "stderr: " << run.err << "expected: " << fragment);
}

using krcheck_test::digest_of;

// The two-row family certificate shared with test_certificates.cpp (test_support.hpp).
const std::string& kFamily = krcheck_test::kTwoRowFamily;
const std::string& kPairs = krcheck_test::kTwoRowPairs;

std::string family_cert(const std::string& digest_field, const std::string& pairs_block) {
  return krcheck_test::two_row_family_cert(digest_field, "independent", "first", "2", pairs_block);
}

}  // namespace

// ---- certificate.cpp ------------------------------------------------------------------

// Ccertificate-64d0cf, Ccertificate-de61c7: kMaxPairs = kMaxRows (kMaxRows - 1) exactly.
// 200000 * 199999 = 39999800000 pair lines are allowed (the file then ends early), one
// more is over the limit.
TEST_CASE("mutation kills: the pair count limit is kMaxRows (kMaxRows - 1)") {
  const std::string digest = digest_of(kFamily);
  expect_error(
      family_cert(digest, "pairs 39999800001\n"), Status::malformed,
      "test.cert:10: error: the number of pairs 39999800001 exceeds the limit 39999800000");
  expect_error(family_cert(digest, "pairs 39999800000\n"), Status::malformed,
               "expected 'pair' line 1 of the 39999800000 declared on line 10");
  CHECK(run_text(family_cert(digest, kPairs), kFamily).status() == Status::verified);
}

// Csha256-6989e8: sha256= must have exactly 64 digits; 65 (the right digest and one
// more digit) is malformed, not a digest of its first 64.
TEST_CASE("mutation kills: a 65-digit sha256 is malformed") {
  const std::string digest = digest_of(kFamily);
  expect_error(family_cert(digest + "0", kPairs), Status::malformed,
               "test.cert:2: error: sha256= must be 64 hexadecimal digits", kFamily);
  expect_error(family_cert(digest.substr(0, 63), kPairs), Status::malformed,
               "test.cert:2: error: sha256= must be 64 hexadecimal digits", kFamily);
}

// Ccertificate-4da376: a counted block cut short names the missing item, not the
// statement after the block.
TEST_CASE("mutation kills: a truncated block names its missing line") {
  const std::string cert =
      "kernelrank-certificate 1\n"
      "task cube m=4 n=3 mode=first class=NK positions=independent\n"
      "rule dominance\n"
      "rows 2\n"
      "row 1100 0011\n";
  expect_error(cert, Status::malformed,
               "test.cert:5: error: unexpected end of file: expected 'row' line 2 of the 2 "
               "declared on line 4");
}

// Ccertificate-e575c6: 'task cube' with nothing after it has too few fields.
TEST_CASE("mutation kills: a bare task statement has too few fields") {
  expect_error("kernelrank-certificate 1\ntask cube\n", Status::malformed,
               "test.cert:2: error: too few fields: expected 'task cube m=<m> n=<n>");
  expect_error("kernelrank-certificate 1\ntask\n", Status::malformed,
               "test.cert:2: error: expected 'task cube ...' or 'task family ...'");
}

// Ccertificate-c19dff, Ccertificate-72f6a3: m = 1 is in range. One row (c = 1, q = 0):
// no off-diagonal entries, c_1 = 0, S = 2^3 = 8, and a single row gives r >= 1.
TEST_CASE("mutation kills: width m = 1 is accepted") {
  const auto run = run_text(
      "kernelrank-certificate 1\ntask cube m=1 n=3 mode=first class=NK positions=independent\n"
      "rule trace precision=3\nrows 1\nrow 1 0\nsum 8\nclaim r >= 1\nend\n");
  CHECK(run.status() == Status::verified);
  CHECK(run.result.bound == "1");
  expect_error(
      "kernelrank-certificate 1\ntask cube m=0 n=3 mode=first class=NK "
      "positions=independent\n",
      Status::malformed, "test.cert:2: error: m=0 is out of range 1..4096");
}

// Ccertificate-a38844: the summary repeats the task statement with single spaces.
TEST_CASE("mutation kills: the summary line repeats the task statement") {
  const auto run = run_text(
      "kernelrank-certificate 1\ntask   cube m=1\tn=3 mode=first class=NK positions=independent\n"
      "rule trace precision=3\nrows 1\nrow 1 0\nsum 8\nclaim r >= 1\nend\n");
  CHECK(run.status() == Status::verified);
  CHECK(has(run.out, "\nc task cube m=1 n=3 mode=first class=NK positions=independent\n"));
}

// Ccertificate-4039e3, Ccertificate-5e75b0, Ccertificate-10e5d9, Ccertificate-f5d56a:
// 'rule trace' without its precision has too few fields, and a bare 'rule' is neither
// rule, whatever an earlier line said (the field count is tested before the field).
TEST_CASE("mutation kills: incomplete rule statements") {
  const std::string head =
      "kernelrank-certificate 1\ntask cube m=4 n=3 mode=first class=NK positions=independent\n";
  expect_error(head + "rule trace\n", Status::malformed,
               "test.cert:3: error: too few fields: expected 'rule trace precision=<P>'");
  expect_error(head + "construction trace dominance\nrule\n", Status::malformed,
               "test.cert:4: error: expected 'rule trace precision=<P>' or 'rule dominance'");
  expect_error(head + "construction dominance trace\nrule\n", Status::malformed,
               "test.cert:4: error: expected 'rule trace precision=<P>' or 'rule dominance'");
  expect_error(head + "rule dominance extra\n", Status::malformed,
               "test.cert:3: error: unexpected extra field 'extra': expected 'rule dominance'");
}

// Ccertificate-ac5e16: a pair line needs at least one step id after the colon.
TEST_CASE("mutation kills: a pair line without step ids is malformed") {
  const std::string digest = digest_of(kFamily);
  expect_error(
      family_cert(digest, "pairs 2\npair 1 2 :\npair 2 1 : 2\n"), Status::malformed,
      "test.cert:11: error: expected 'pair <i> <j> : <step id> ...' with at least one step id",
      kFamily);
  expect_error(family_cert(digest, "pairs 2\npair 1 2 ; 1\npair 2 1 : 2\n"), Status::malformed,
               "test.cert:11: error: expected 'pair <i> <j> : <step id> ...'", kFamily);
}
