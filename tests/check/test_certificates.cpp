// Whole certificates through the library entry point, with hand-computed expectations.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "../source_dir.hpp"
#include "check/family.hpp"
#include "check/guarded_run.hpp"
#include "check/sha256.hpp"
#include "test_support.hpp"

using krcheck::Status;
using krcheck_test::run_text;

namespace {

// The example of docs/certificate-format.md. G_12 = G_21 = 4, R_3(4) = 3, c_j = 1/9,
// term = floor(2^64 * 9/10) = 16602069666338596454 (2^64 = 18446744073709551616), twice:
// S = 33204139332677192908, T just below 9/5, bound floor(T) + 1 = 2.
const std::string kSpecExample = R"(kernelrank-certificate 1
task cube m=8 n=3 mode=first class=NK positions=independent
construction hand-made example: two disjoint weight-4 words
rule trace precision=64
rows 2
row 11110000 00001111
row 00001111 11110000
sum 33204139332677192908
claim r >= 2
end
)";

// Three weight-4 words at pairwise distance 4, queries = complements, so every gap is
// |c_j \ c_i| = 2 and R_3(2) = 1 (one part of 2: (3-2)(2-1) = 1).
std::string three_rows(const std::string& task_n, const std::string& rule, const std::string& sum,
                       const std::string& claim) {
  return "kernelrank-certificate 1\n"
         "task cube m=8 n=" +
         task_n +
         " mode=first class=NK positions=independent\n"
         "rule " +
         rule +
         "\n"
         "rows 3\n"
         "row 11110000 00001111\n"
         "row 11001100 00110011\n"
         "row 10101010 01010101\n"
         "sum " +
         sum + "\nclaim r >= " + claim + "\nend\n";
}

// A two-row family certificate at m=4, n=3: row 1 (c=1100, q=0011), row 2 (c=0011, q=1100),
// one step per pair with gap 2 and k=1 (test_support.hpp).
const std::string& kFamily = krcheck_test::kTwoRowFamily;
// SHA-256 of kFamily, computed with Python's hashlib.
const std::string kFamilyDigest =
    "b31764e778bf2541491729b412e352344576495085d6771870d14cf47da5c17e";

std::string family_cert(const std::string& digest, const std::string& positions = "independent",
                        const std::string& mode = "first", const std::string& claim = "2") {
  return krcheck_test::two_row_family_cert(digest, positions, mode, claim,
                                           krcheck_test::kTwoRowPairs);
}

using krcheck_test::digest_of;

bool has(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

}  // namespace

TEST_CASE("certificates: the example of the format document verifies") {
  const auto run = run_text(kSpecExample);
  CHECK(run.status() == Status::verified);
  CHECK(run.result.bound == "2");
  CHECK(run.result.claim == "2");
  CHECK(run.err.empty());
  // Every line of the standard output is a comment or the status line.
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);)
    CHECK((line.rfind("c ", 0) == 0 || line == "s VERIFIED"));
}

TEST_CASE("certificates: the example block in docs/certificate-format.md is the one above") {
  std::ifstream doc(std::string(KERNELRANK_SOURCE_DIR) + "/docs/certificate-format.md");
  REQUIRE(doc.is_open());
  std::stringstream text;
  text << doc.rdbuf();
  const std::string content = text.str();
  const auto example = content.find("## Example");
  REQUIRE(example != std::string::npos);
  const auto start = content.find("```\n", example);
  REQUIRE(start != std::string::npos);
  const auto stop = content.find("```", start + 4);
  REQUIRE(stop != std::string::npos);
  const std::string block = content.substr(start + 4, stop - start - 4);
  CHECK(block == kSpecExample);
  CHECK(run_text(block).status() == Status::verified);
}

TEST_CASE("certificates: trace rule on three rows with every gap 2") {
  // c_j = 1 + 1 = 2, term = floor(2^P / 3). P = 64: 3 * 6148914691236517205 = 2^64 - 1
  // (2^64 = 1 mod 3), so T < 1 and the bound is floor(T) + 1 = 1.
  CHECK(run_text(three_rows("3", "trace precision=64", "18446744073709551615", "1")).status() ==
        Status::verified);
  const auto too_strong =
      run_text(three_rows("3", "trace precision=64", "18446744073709551615", "2"));
  CHECK(too_strong.status() == Status::not_verified);
  CHECK(has(too_strong.err, "test.cert:9: error: claim r >= 2 is stronger than the bound r >= 1"));
  // P = 2: floor(4/3) = 1 per column, S = 3.
  CHECK(run_text(three_rows("3", "trace precision=2", "3", "1")).status() == Status::verified);
  const auto off = run_text(three_rows("3", "trace precision=2", "4", "1"));
  CHECK(off.status() == Status::not_verified);
  CHECK(has(off.err, "test.cert:8: error: sum 4 differs from the recomputed sum 3"));
}

TEST_CASE("certificates: a single row gives r >= 1 only") {
  // No off-diagonal entries: c_1 = 0, S = 2^5 = 32, T = 1, but the strict inequality needs
  // two rows, so the bound is 1, not floor(T) + 1 = 2.
  const std::string base =
      "kernelrank-certificate 1\ntask cube m=4 n=3 mode=all class=NK positions=independent\n"
      "rule trace precision=5\nrows 1\nrow 1100 0011\nsum 32\nclaim r >= ";
  const auto one = run_text(base + "1\nend\n");
  CHECK(one.status() == Status::verified);
  CHECK(one.result.bound == "1");
  CHECK(run_text(base + "2\nend\n").status() == Status::not_verified);
}

TEST_CASE("certificates: dominance rule") {
  // n = 4: R_4(2) = (4-2)(2-1) = 2, each row sum 1/2 + 1/2 = 1 <= 1, bound = 3 rows.
  const auto ok = run_text(three_rows("4", "dominance", "1", "3"));
  CHECK(ok.status() == Status::verified);
  CHECK(ok.result.bound == "3");
  CHECK(run_text(three_rows("4", "dominance", "1", "4")).status() == Status::not_verified);
  const auto wrong = run_text(three_rows("4", "dominance", "1/2", "3"));
  CHECK(wrong.status() == Status::not_verified);
  CHECK(
      has(wrong.err, "test.cert:8: error: sum 1/2 differs from the recomputed largest row sum 1"));
  // n = 3: R_3(2) = 1, row sums 2 > 1: not diagonally dominant; row 1 is on line 5.
  const auto over = run_text(three_rows("3", "dominance", "2", "3"));
  CHECK(over.status() == Status::not_verified);
  CHECK(has(over.err, "test.cert:5: error: row 1: sum over j != i of 1/R_N(G_ij) = 2 > 1"));
  // Non-canonical fractions are malformed.
  CHECK(run_text(three_rows("4", "dominance", "1/1", "3")).status() == Status::malformed);
  CHECK(run_text(three_rows("4", "dominance", "2/2", "3")).status() == Status::malformed);
  const auto zero_denominator = run_text(three_rows("4", "dominance", "1/0", "3"));
  CHECK(zero_denominator.status() == Status::malformed);
  // It used to say "not in lowest terms".
  CHECK(zero_denominator.err.find("zero denominator in the sum '1/0'") != std::string::npos);
}

TEST_CASE("certificates: a hand-made family certificate") {
  const auto ok = run_text(family_cert(kFamilyDigest), kFamily);
  CHECK(ok.status() == Status::verified);
  CHECK(ok.result.bound == "2");
  CHECK(run_text(family_cert(kFamilyDigest, "independent", "first", "3"), kFamily).status() ==
        Status::not_verified);
  // One byte more in the family: the digest no longer matches (line 0: the whole file).
  const auto changed = run_text(family_cert(kFamilyDigest), kFamily + "\n");
  CHECK(changed.status() == Status::not_verified);
  CHECK(has(changed.err, "test.family:0: error: SHA-256 of the family file is"));
}

TEST_CASE("certificates: family keys are multisets only for position-independent maps") {
  // S3 of step 1 written with its keys swapped: (q, b, a) instead of (q, a, b).
  std::string swapped = kFamily;
  const std::string s3 = "1 0011 1100 0011\n";
  swapped.replace(swapped.find(s3), s3.size(), "1 0011 0011 1100\n");
  CHECK(run_text(family_cert(digest_of(swapped)), swapped).status() == Status::verified);
  // With position-dependent maps both arrangements (a, b) and (b, a) of S3's keys are
  // needed: the swapped family lacks (a, b) for step 1 (line 5).
  const auto dependent = run_text(family_cert(digest_of(swapped), "dependent"), swapped);
  CHECK(dependent.status() == Status::not_verified);
  CHECK(has(dependent.err,
            "test.cert:5: error: the family has no instance S3_k = (q, a^1, b^1) "
            "with query q at position 1, keys in order: a b"));
  std::string both = kFamily + "1 0011 0011 1100\n1 1100 1100 0011\n";
  CHECK(run_text(family_cert(digest_of(both), "dependent"), both).status() == Status::verified);
}

TEST_CASE("certificates: family instances must query the step's position") {
  // The same instances with the query token moved to position 2 (mode=all) do not serve
  // steps that query position 1.
  std::string moved;
  std::istringstream lines(kFamily);
  for (std::string line; std::getline(lines, line);) {
    if (line[0] == '1')
      line = "2 " + line.substr(7, 4) + " " + line.substr(2, 4) + " " + line.substr(12);
    moved += line + "\n";
  }
  REQUIRE(moved.find("2 1100 0011 1100") != std::string::npos);
  const auto run = run_text(family_cert(digest_of(moved), "independent", "all"), moved);
  CHECK(run.status() == Status::not_verified);
  CHECK(has(run.err, "test.cert:5: error: the family has no instance S1"));
  // mode=last requires pos = n = 3.
  const auto last = run_text(family_cert(kFamilyDigest, "independent", "last"), kFamily);
  CHECK(has(last.err, "test.cert:5: error: mode=last queries position 3, but the step has pos=1"));
}

TEST_CASE("certificates: arguments must match the task") {
  CHECK(run_text(kSpecExample, kFamily).status() == Status::malformed);
  const auto missing = run_text(family_cert(kFamilyDigest));
  CHECK(missing.status() == Status::malformed);
  CHECK(
      has(missing.err, "test.cert:0: error: a family certificate needs the FAMILY file argument"));
  std::ostringstream out;
  std::ostringstream err;
  const auto unopened = krcheck::check_certificate(krcheck::NamedInput{"absent.cert", nullptr},
                                                   std::nullopt, out, err);
  CHECK(unopened.status == Status::malformed);
  CHECK(err.str() == "absent.cert:0: error: cannot open the file\n");
  CHECK(has(out.str(), "s NOT VERIFIED\n"));
  CHECK(krcheck::exit_code(Status::verified) == 0);
  CHECK(krcheck::exit_code(Status::not_verified) == 1);
  CHECK(krcheck::exit_code(Status::malformed) == 2);
  CHECK(krcheck::exit_code(Status::internal) == 4);
}

TEST_CASE("certificates: an exception that is no verdict is an internal error, exit 4") {
  // A CheckError is a verdict on the input; any other exception is the checker's own bug
  // and must not be reported as a malformed certificate (exit 2).
  for (const bool typed : {true, false}) {
    std::ostringstream out;
    std::ostringstream err;
    const auto result =
        krcheck::guarded_run("x.cert", out, err, [&](krcheck::CheckResult&) -> Status {
          if (typed) throw std::logic_error("index out of range");
          throw 42;
        });
    CHECK(result.status == Status::internal);
    CHECK(krcheck::exit_code(result.status) == 4);
    CHECK(has(err.str(), typed ? "x.cert:0: error: internal error: index out of range\n"
                               : "x.cert:0: error: internal error\n"));
    CHECK(has(out.str(), "s NOT VERIFIED\n"));
  }
  // A verdict keeps its own code.
  std::ostringstream out;
  std::ostringstream err;
  const auto wrong = krcheck::guarded_run("x.cert", out, err, [&](krcheck::CheckResult&) -> Status {
    throw krcheck::CheckError(Status::not_verified, "x.cert", 3, "sum mismatch");
  });
  CHECK(wrong.status == Status::not_verified);
  CHECK(err.str() == "x.cert:3: error: sum mismatch\n");
}

TEST_CASE("certificates: the file-path entry point reads real files") {
  const std::string dir = std::string(KERNELRANK_SOURCE_DIR) + "/tests/certs/";
  std::ostringstream out;
  std::ostringstream err;
  const auto golay =
      krcheck::check_certificate(dir + "valid/golay_dodecads_m24.cert", std::nullopt, out, err);
  // The 2576 Golay dodecads: theory.md reports "about r >= 21"; the corpus generator
  // computed S with Python fractions and the bound 21.
  CHECK(golay.status == Status::verified);
  CHECK(golay.bound == "21");
  const auto family = krcheck::check_certificate(dir + "valid/family_trace.cert",
                                                 dir + "valid/family_trace.family", out, err);
  CHECK(family.status == Status::verified);
  // Rule shifted-trace on the witness family: T_W = 243/13 at t = 1/10 (shifted_reference.py
  // computes it with fractions), so the verdict's bound is ceil(T_W) - 1 = 18, and at
  // t = 1/20 the same chains give less.
  const auto shifted = krcheck::check_certificate(
      dir + "valid/shifted_witness_m24.cert", dir + "valid/shifted_witness_m24.family", out, err);
  CHECK(shifted.status == Status::verified);
  CHECK(shifted.bound == "18");
  CHECK(shifted.claim == "18");
  const auto t20 =
      krcheck::check_certificate(dir + "valid/shifted_witness_m24_t20.cert",
                                 dir + "valid/shifted_witness_m24_t20.family", out, err);
  CHECK(t20.status == Status::verified);
  CHECK(t20.bound == t20.claim);
  CHECK(std::stoi(t20.bound) < 18);
  const auto absent = krcheck::check_certificate(dir + "no-such-file.cert", std::nullopt, out, err);
  CHECK(absent.status == Status::malformed);
}

// Found while fuzzing: the family reader allocated n tokens of width m from the header
// alone, so a 37-byte file (m=4096 n=1000000) took 512 MB. The read runs in a child
// process, which reports whether its peak memory grew by more than 64 MB.
TEST_CASE("certificates: a family header alone allocates nothing large") {
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    std::istringstream in("kernelrank-family 1 m=4096 n=1000000\n");
    const krcheck::Family family = krcheck::read_family(in, "big.family", false);
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    const bool small = after.ru_maxrss - before.ru_maxrss < 64 * 1024;  // kilobytes
    _exit(family.n == 1000000 && family.instance_count == 0 ? (small ? 0 : 3) : 4);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

// Found while building the bad-input corpus: messages quoted rejected text verbatim, so
// a control character in a file (here an escape sequence) reached the terminal.
TEST_CASE("certificates: control characters in messages are shown escaped") {
  std::string cert = kSpecExample;
  cert.replace(cert.find("row 00001111"), 12, "row 0000\x1b[2J1111");
  const auto run = run_text(cert);
  CHECK(run.status() == Status::malformed);
  CHECK(run.err.find('\x1b') == std::string::npos);
  CHECK(run.err.find("\\x1b[2J") != std::string::npos);
}
