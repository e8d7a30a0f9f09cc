// Certificates of format 2 through the library entry point, with hand-computed expectations.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "../source_dir.hpp"
#include "check/sha256.hpp"
#include "test_support.hpp"

using krcheck::Status;
using krcheck_test::run_text;

namespace {

bool has(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

// T(4,3), rank 1. Step 1: q = 1100, a = 0011, b = 1100, gap <q,b> - <q,a> = 2 - 0 = 2,
// f = (3-1-1)(2-1)/1 = 1: 0011 is above 1100 for 1100. Step 2 the mirror image for 0011.
// Both directions of the one key pair: r >= 2.
std::string rank1(const std::string& header = "2", const std::string& task = "cube",
                  const std::string& claim = "2") {
  return "kernelrank-certificate " + header + "\ntask " + task +
         " m=4 n=3 mode=first class=NK positions=independent\n"
         "rule order rank=1\n"
         "steps 2\n"
         "step 1 pos=1 q=1100 a=0011 b=1100 k=1\n"
         "step 2 pos=1 q=0011 a=1100 b=0011 k=1\n"
         "core 1\n"
         "keypair 0011 1100 : 1 2\n"
         "claim r >= " +
         claim + "\nend\n";
}

// Exactly the S1, S2, S3 of the two steps above. The block of queries {1100, 0011} and keys
// {0011, 1100} is used: (1100, 0011) and (1100, 1100) by step 1's S3, (0011, 1100) and
// (0011, 0011) by step 2's.
const std::string kRank1Family =
    "kernelrank-family 1 m=4 n=3\n"
    "1 1100 0011 0011\n1 1100 1100 1100\n1 1100 0011 1100\n"
    "1 0011 1100 1100\n1 0011 0011 0011\n1 0011 1100 0011\n";

std::string rank1_family_cert(const std::string& family_text) {
  std::string text = rank1();
  const std::string task = "positions=independent";
  text.replace(text.find(task), task.size(),
               task + " sha256=" + krcheck::to_hex(krcheck::sha256(family_text)));
  text.replace(text.find("task cube"), 9, "task family");
  return text;
}

std::string inherit(const std::string& m, const std::string& embedded, const std::string& claim,
                    const std::string& model_class = "NK") {
  return "kernelrank-certificate 2\ntask cube m=" + m + " n=3 mode=first class=" + model_class +
         " positions=independent\nrule inherit\nbegin-embedded\n" + embedded +
         "end-embedded\nclaim r >= " + claim + "\nend\n";
}

}  // namespace

TEST_CASE("format 2: a rank-1 order certificate over the cube") {
  const auto run = run_text(rank1());
  CHECK(run.status() == Status::verified);
  CHECK(run.result.bound == "2");
  CHECK(has(run.out, "c rule: order rank=1\n"));
  CHECK(has(run.out, "c core: 1 keypairs over 2 query tokens\n"));
  CHECK(has(run.out, "c order rule at rank 1: a keypair with both directions contradicts"));
  CHECK(run_text(rank1("2", "cube", "3")).status() == Status::not_verified);
  const auto v1 = run_text(rank1("1"));
  CHECK(v1.status() == Status::malformed);
  CHECK(has(v1.err, "test.cert:3: error: rule order needs certificate format 2"));
}

TEST_CASE("format 2: the order rule over a family, and its NK block") {
  const auto run = run_text(rank1_family_cert(kRank1Family), kRank1Family);
  CHECK(run.status() == Status::verified);
  CHECK(run.result.bound == "2");
  // One more instance that uses (0011, 1100) is not needed; removing step 2's S3 removes
  // the S3 the step needs (the step fails before the block is looked at).
  const std::string without_s3 = kRank1Family.substr(0, kRank1Family.rfind("1 0011 1100 0011\n"));
  const auto missing = run_text(rank1_family_cert(without_s3), without_s3);
  CHECK(missing.status() == Status::not_verified);
  CHECK(has(missing.err, "test.cert:6: error: the family has no instance S3_k"));
}

TEST_CASE("format 2: the keypair count is capped at 20 by the parser, not by the checks") {
  // Twenty copies of the keypair are well formed (not verified: repeats); 21 are malformed.
  const auto core = [](int count) {
    std::string text = rank1();
    std::string lines = "core " + std::to_string(count) + "\n";
    for (int t = 0; t < count; ++t) lines += "keypair 0011 1100 : 1 2\n";
    text.replace(text.find("core 1\n"), std::string("core 1\nkeypair 0011 1100 : 1 2\n").size(),
                 lines);
    return text;
  };
  const auto twenty = run_text(core(20));
  CHECK(twenty.status() == Status::not_verified);
  CHECK(has(twenty.err,
            "test.cert:9: error: keypair 0011 1100: the same two keys as the keypair "
            "on line 8"));
  const auto many = run_text(core(21));
  CHECK(many.status() == Status::malformed);
  CHECK(has(many.err, "test.cert:7: error: core 21: at most 20 keypairs"));
}

TEST_CASE("format 2: inherit pads a smaller cube") {
  const auto run = run_text(inherit("5", rank1(), "2"));
  CHECK(run.status() == Status::verified);
  CHECK(run.result.bound == "2");
  CHECK(has(run.out, "c inherit rule: T(4,3) of lines 4-15 padded with 1 zero coordinates"));
  // PF models are NK models, so an NK bound carries over to a PF task.
  CHECK(run_text(inherit("5", rank1(), "2", "PF")).status() == Status::verified);
  // The bound is the embedded claim: a weaker embedded claim gives less.
  const auto weak = run_text(inherit("5", rank1("2", "cube", "1"), "2"));
  CHECK(weak.status() == Status::not_verified);
  CHECK(has(weak.err, "test.cert:16: error: claim r >= 2 is stronger than the bound r >= 1"));
  const auto same_m = run_text(inherit("4", rank1(), "2"));
  CHECK(same_m.status() == Status::not_verified);
  CHECK(has(same_m.err, "test.cert:6: error: the embedded task has m=4, not below the m=4"));
  // Errors inside the embedded certificate name the outer file's lines.
  const auto bad_inner = run_text(inherit("5", rank1("2", "cube", "3"), "2"));
  CHECK(bad_inner.status() == Status::not_verified);
  CHECK(has(bad_inner.err, "test.cert:13: error: claim r >= 3 is stronger than the bound r >= 2"));
  const auto nested = run_text(inherit("6", inherit("5", rank1(), "2"), "2"));
  CHECK(nested.status() == Status::malformed);
  CHECK(has(nested.err, "test.cert:7: error: rule inherit cannot be nested"));
}

TEST_CASE("format 2: the rules of format 1 read unchanged under header 2") {
  // The example of docs/certificate-format.md with header 2.
  const auto run = run_text(
      "kernelrank-certificate 2\n"
      "task cube m=8 n=3 mode=first class=NK positions=independent\n"
      "rule trace precision=64\nrows 2\nrow 11110000 00001111\nrow 00001111 11110000\n"
      "sum 33204139332677192908\nclaim r >= 2\nend\n");
  CHECK(run.status() == Status::verified);
  CHECK(run.result.bound == "2");
  const auto four = run_text("kernelrank-certificate 4\n");
  CHECK(four.status() == Status::malformed);
  CHECK(has(four.err, "test.cert:1: error: unsupported certificate format version '4'"));
}

TEST_CASE("format 2: the example block in docs/certificate-format.md verifies") {
  std::ifstream doc(std::string(KERNELRANK_SOURCE_DIR) + "/docs/certificate-format.md");
  REQUIRE(doc.is_open());
  std::stringstream text;
  text << doc.rdbuf();
  const std::string content = text.str();
  const auto example = content.find("## Examples of format 2");
  REQUIRE(example != std::string::npos);
  const auto start = content.find("```\n", example);
  const auto stop = content.find("```", start + 4);
  REQUIRE(stop != std::string::npos);
  // The rank-1 certificate above, embedded into m = 6.
  CHECK(content.substr(start + 4, stop - start - 4) == inherit("6", rank1(), "2"));
  const auto run = run_text(content.substr(start + 4, stop - start - 4));
  CHECK(run.status() == Status::verified);
  CHECK(run.result.bound == "2");
}
