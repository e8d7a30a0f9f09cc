// Layered heads (docs/certificate-format.md, "Layered heads (upper bounds)"): valid heads
// verify with the right r, every kind of failure is refused with its status and line. The
// expected values are worked by hand in the comments, or are docs/upper-bounds.md's (the
// shipped heads' exact max errors), never taken from the checker.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <streambuf>
#include <string>
#include <utility>

#include "../source_dir.hpp"
#include "check/layered_head.hpp"
#include "check/layered_rule.hpp"
#include "test_support.hpp"

using krcheck::Status;
using krcheck_test::run_text;

namespace {

bool has(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

void expect_error(const std::string& text, Status status, const std::string& fragment) {
  const auto run = run_text(text);
  CHECK(run.status() == status);
  CHECK_MESSAGE(has(run.err, fragment), "stderr: " << run.err << "expected: " << fragment);
  CHECK(run.result.upper.empty());
}

// m = 1, one feature: K = c_0 = 1 and g_1 = (0, g). The profiles of w = 1 are (0,0): y = 1,
// target 1; (0,1): y = (2 + g)/3, target 0; (1,1): y = (1 + 2g)/3, target 0.
std::string m1_head(const std::string& g, const std::string& c0 = "1",
                    const std::string& header_tail = "r=1 class=PF") {
  return "# m = 1\nkernelrank-model 1 kind=layered m=1 " + header_tail + "\nlayer 0 " + c0 +
         "\ncorrection 0 0\ncorrection 1 0 " + g + "\n";
}

// The m = 8 head of docs/upper-bounds.md: K(u) = 2 + 3 C(u,2), r = 1 + 28 = 29.
std::string m8_text() {
  std::ifstream file(std::string(KERNELRANK_SOURCE_DIR) + "/tests/certs/valid/layered_m8_pf.model");
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string replaced(std::string text, const std::string& old, const std::string& by) {
  const auto at = text.find(old);
  REQUIRE(at != std::string::npos);
  return text.replace(at, old.size(), by);
}

krcheck::Rational number(const std::string& text) {
  krcheck::Rational value;
  REQUIRE(krcheck::parse_exact_number(text, value));
  return value;
}

}  // namespace

// g = -1: y = 1, 1/3, -1/3, errors 0, 1/3, 1/3; the first of the two largest is (1,0,1).
TEST_CASE("layered: the one-feature head at m = 1 verifies with r <= 1") {
  const auto run = run_text(m1_head("-1"));
  REQUIRE(run.status() == Status::verified);
  CHECK(run.result.upper == "1");
  CHECK(run.result.bound.empty());
  CHECK(run.result.claim.empty());
  CHECK(has(run.out, "c layered head: m=1, class PF, layers {0}\n"));
  CHECK(has(run.out, "c profiles: 4 checked, max error 1/3 at (w=1, u1=0, u2=1)\n"));
  CHECK(has(run.out, "c upper: r <= 1\ns VERIFIED\n"));
  CHECK(run.err.empty());
}

// g = -1/2: (0,1) has y = 1/2, target 0, error exactly 1/2: refused at correction 1 (line 5).
TEST_CASE("layered: an error of exactly 1/2 is refused at the correction line") {
  expect_error(
      m1_head("-1/2"), Status::not_verified,
      "test.cert:5: error: profile (w=1, u1=0, u2=1): y = 1/2, target 0, error 1/2 >= 1/2");
  // Just below: g = -0.501 gives (0,1) y = 1.499/3, error 1499/3000, and (1,1) y = -0.002/3.
  const auto run = run_text(m1_head("-0.501"));
  CHECK(run.status() == Status::verified);
  CHECK(has(run.out, "max error 1499/3000 at (w=1, u1=0, u2=1)"));
  // g = 0 (the mean of the overlaps): (0,1) y = 2/3.
  expect_error(
      m1_head("0"), Status::not_verified,
      "test.cert:5: error: profile (w=1, u1=0, u2=1): y = 2/3, target 0, error 2/3 >= 1/2");
  // Above 1/2 the other way: g = -5/2 makes (1,1) y = (1 - 5)/3 = -4/3.
  expect_error(m1_head("-5/2"), Status::not_verified,
               "test.cert:5: error: profile (w=1, u1=1, u2=1): y = -4/3, target 0, error 4/3");
}

// The readout of w = 0 is checked too: (0,0,0) has y = g_0(0), target 0.
TEST_CASE("layered: the profile w = 0 and the first failing w") {
  expect_error(replaced(m1_head("-1"), "correction 0 0", "correction 0 1/2"), Status::not_verified,
               "test.cert:4: error: profile (w=0, u1=0, u2=0): y = 1/2");
  CHECK(run_text(replaced(m1_head("-1"), "correction 0 0", "correction 0 -0.4999")).status() ==
        Status::verified);
  // (1,0,0): y = F(0) = 1 + g_1(0), target 1.
  expect_error(replaced(m1_head("-1"), "correction 1 0 ", "correction 1 1/2 "),
               Status::not_verified, "test.cert:5: error: profile (w=1, u1=0, u2=0): y = 3/2");
}

TEST_CASE("layered: the shipped heads' max errors are docs/upper-bounds.md's") {
  const struct {
    int m;
    const char* r;
    const char* max_error;
  } heads[] = {
      {7, "15", "9/19"}, {8, "29", "22/45"}, {9, "37", "22/45"}, {10, "47", "309719083/628785885"}};
  for (const auto& head : heads) {
    CAPTURE(head.m);
    std::ostringstream out, err;
    const auto result = krcheck::check_certificate(std::string(KERNELRANK_SOURCE_DIR) +
                                                       "/tests/certs/valid/layered_m" +
                                                       std::to_string(head.m) + "_pf.model",
                                                   std::nullopt, out, err);
    REQUIRE(result.status == Status::verified);
    CHECK(result.upper == head.r);
    CHECK(has(out.str(), std::string("max error ") + head.max_error + " at "));
    CHECK(has(out.str(), std::string("c upper: r <= ") + head.r + "\n"));
  }
}

// K(0) = c_0: 0 and -1 are refused at the layer line, also under NK.
TEST_CASE("layered: K(0) must be positive") {
  expect_error(m1_head("-1", "0"), Status::not_verified,
               "test.cert:3: error: K(0) = c_0 = 0 is not > 0");
  expect_error(m1_head("-1", "-1", "r=1 class=NK"), Status::not_verified,
               "test.cert:3: error: K(0) = c_0 = -1 is not > 0");
  CHECK(run_text(m1_head("-1", "1/1000")).status() == Status::verified);
}

TEST_CASE("layered: the class") {
  const std::string m8 = m8_text();
  // PF: c_1 = -1/20 < 0 at its layer line; the same head as NK has K(u) = 2 - u/20 + 3 C(u,2)
  // > 0 and verifies (r = 1 + 8 + 28 = 37).
  const std::string negative =
      replaced(replaced(m8, "layer 2 3", "layer 1 -1/20\nlayer 2 3"), "r=29", "r=37");
  const auto line =
      std::to_string(1 + krcheck_test::count_lines_starting(m8.substr(0, m8.find("layer 2")), ""));
  expect_error(negative, Status::not_verified,
               "test.cert:" + line +
                   ": error: class=PF needs every c_j >= 0 (phiQ entries), "
                   "but c_1 = -1/20");
  const auto nk = run_text(replaced(negative, "class=PF", "class=NK"));
  CHECK(nk.status() == Status::verified);
  CHECK(nk.result.upper == "37");
  CHECK(has(nk.out, "c kernel: K(0) = 2 > 0, K(u) >= 0 for every u\n"));
  // A PF coefficient of 0 is allowed (and its layer counts: r = 29 + C(8,5) = 85).
  const auto zero =
      run_text(replaced(replaced(m8, "layer 2 3", "layer 2 3\nlayer 5 0"), "r=29", "r=85"));
  CHECK(zero.status() == Status::verified);
  CHECK(zero.result.upper == "85");
  // NK: K(u) = 2 - 3u + C(u,2) is -1 at u = 1 and u = 2; the header line (3) is named.
  const std::string below =
      replaced(replaced(m8, "layer 2 3", "layer 1 -3\nlayer 2 1"), "r=29", "r=37");
  const auto header = std::to_string(
      1 + krcheck_test::count_lines_starting(m8.substr(0, m8.find("kernelrank-model")), ""));
  expect_error(replaced(below, "class=PF", "class=NK"), Status::not_verified,
               "test.cert:" + header +
                   ": error: class=NK needs K(u) >= 0 for u = 0..8, but "
                   "K(1) = -1 < 0");
  // The last u = m is checked too: at m = 2, K(u) = 1 - u + (2/5) C(u,2) is 1, 0, -3/5.
  const std::string m2 =
      "kernelrank-model 1 kind=layered m=2 r=4 class=NK\nlayer 0 1\nlayer 1 -1\n"
      "layer 2 2/5\ncorrection 0 0\ncorrection 1 0 0\ncorrection 2 0 0 0\n";
  expect_error(m2, Status::not_verified,
               "test.cert:1: error: class=NK needs K(u) >= 0 for u = 0..2, but K(2) = -3/5 < 0");
}

TEST_CASE("layered: the declared r") {
  const std::string m8 = m8_text();
  for (const char* wrong : {"r=28", "r=30", "r=0"}) {
    CAPTURE(wrong);
    expect_error(replaced(m8, "r=29", wrong), Status::not_verified,
                 "but the layers {0, 2} at m=8 have sum_j C(m, j) = 29 features");
  }
  // Every layer at m = 64: r = 2^64, beyond 64 bits. K(u) = 4^u (c_j = 3^j) and g = 0
  // solve T(64,3): the key with the largest u dominates.
  std::string layers, corrections;
  for (int j = 0; j <= 64; ++j) {
    krcheck::BigInt c = 1;
    for (int t = 0; t < j; ++t) c *= 3;
    layers += "layer " + std::to_string(j) + " " + c.str() + "\n";
    corrections += "correction " + std::to_string(j);
    for (int u = 0; u <= j; ++u) corrections += " 0";
    corrections += "\n";
  }
  const std::string head =
      "kernelrank-model 1 kind=layered m=64 r=18446744073709551616 class=PF\n" + layers +
      corrections;
  const auto run = run_text(head);
  REQUIRE(run.status() == Status::verified);
  CHECK(run.result.upper == "18446744073709551616");
  CHECK(has(run.out, "c profiles: 47905 checked, max error 1/3 at (w=1, u1=0, u2=1)\n"));
  expect_error(replaced(head, "r=18446744073709551616", "r=18446744073709551615"),
               Status::not_verified, "test.cert:1: error: r=18446744073709551615, but the layers");
}

TEST_CASE("layered: the kernel and r from Pascal's rows") {
  std::istringstream in(
      "kernelrank-model 1 kind=layered m=10 r=47 class=PF\nlayer 0 2\nlayer 2 3\nlayer 10 9\n"
      "correction 0 0\ncorrection 1 0 0\ncorrection 2 0 0 0\ncorrection 3 0 0 0 0\n"
      "correction 4 0 0 0 0 0\ncorrection 5 0 0 0 0 0 0\ncorrection 6 0 0 0 0 0 0 0\n"
      "correction 7 0 0 0 0 0 0 0 0\ncorrection 8 0 0 0 0 0 0 0 0 0\n"
      "correction 9 0 0 0 0 0 0 0 0 0 0\ncorrection 10 0 0 0 0 0 0 0 0 0 0 0\n");
  const krcheck::LayeredHead head = krcheck::parse_layered_head(in, "k.model");
  krcheck::BigInt features;
  const auto kernel = krcheck::layered_kernel(head, features);
  REQUIRE(kernel.size() == 11);
  CHECK(features == 47);  // 1 + 45 + 1
  for (int u = 0; u < 10; ++u) CHECK(kernel[std::size_t(u)] == 2 + 3 * u * (u - 1) / 2);
  CHECK(kernel[10] == 2 + 3 * 45 + 9);
}

TEST_CASE("layered: exact numbers") {
  CHECK(number("0.25") == krcheck::Rational(1, 4));
  CHECK(number(".5") == krcheck::Rational(1, 2));
  CHECK(number("0.010") == krcheck::Rational(1, 100));  // never octal
  CHECK(number("007") == 7);
  CHECK(number("-2/6") == krcheck::Rational(-1, 3));
  CHECK(number("+3") == 3);
  CHECK(number("2e-3") == krcheck::Rational(1, 500));
  CHECK(number("1.5E+2") == 150);
  CHECK(number("-1.5e1") == -15);
  CHECK(number("5.") == 5);
  CHECK(number("1e100000") > 0);
  krcheck::Rational value;
  for (const char* junk :
       {"",    "abc",      "1/0",       "1/2/3",     "-",    "+",    "0.1.2", "1e",
        "1e+", "1e100001", "1e1000000", "1e0000001", "1/-2", "/2",   "1/",    "e5",
        ".",   "1.5/2",    " 1",        "1 ",        "--1",  "0x10", "1/2.0", "1,5"}) {
    CAPTURE(junk);
    CHECK_FALSE(krcheck::parse_exact_number(junk, value));
  }
}

TEST_CASE("layered: model files are recognised, and the stream is rewound") {
  std::istringstream model("# comment\n\n  kernelrank-model 1 kind=layered\n");
  CHECK(krcheck::is_model_file(model, "a"));
  CHECK(model.tellg() == 0);
  std::istringstream cert("# comment\nkernelrank-certificate 1\n");
  CHECK_FALSE(krcheck::is_model_file(cert, "b"));
  CHECK(cert.tellg() == 0);
  std::istringstream empty("");
  CHECK_FALSE(krcheck::is_model_file(empty, "c"));
}

TEST_CASE("layered: no FAMILY argument, no shards, and malformed files") {
  std::istringstream text(m1_head("-1"));
  std::istringstream family("kernelrank-family 1 m=1 n=3\n");
  std::ostringstream out, err;
  auto result = krcheck::check_certificate(krcheck::NamedInput{"h.model", &text},
                                           krcheck::NamedInput{"f.family", &family}, out, err);
  CHECK(result.status == Status::malformed);
  CHECK(has(err.str(),
            "h.model:0: error: a layered head takes no FAMILY argument (given 'f.family')"));
  std::istringstream again(m1_head("-1"));
  std::ostringstream out2, err2;
  krcheck::CheckOptions options;
  options.shard = std::make_pair(std::uint64_t{1}, std::uint64_t{2});
  result = krcheck::check_certificate(krcheck::NamedInput{"h.model", &again}, std::nullopt, out2,
                                      err2, options);
  CHECK(result.status == Status::malformed);
  CHECK(result.partial.empty());
  CHECK(has(err2.str(), "h.model:0: error: a layered head is not checked in shards"));

  const std::string good = m1_head("-1");
  expect_error(replaced(good, "correction 1 0 -1\n", ""), Status::malformed,
               "test.cert:4: error: unexpected end of file: expected 'correction 1 ...'");
  expect_error(replaced(good, "correction 1 0 -1", "correction 1 0"), Status::malformed,
               "test.cert:5: error: too few fields");
  expect_error(replaced(good, "correction 1 0 -1", "correction 2 0 -1 0"), Status::malformed,
               "test.cert:5: error: expected 'correction 1 ...' (one line for each w = 0..1, in "
               "order), found 'correction 2'");
  expect_error(replaced(good, "correction 0 0\n", ""), Status::malformed,
               "test.cert:4: error: expected 'correction 0 ...'");
  expect_error(replaced(good, "layer 0 1", "layer 1 1"), Status::malformed,
               "test.cert:3: error: the first layer must be j = 0, found j = 1");
  expect_error(replaced(good, "layer 0 1", "layer 0 1\nlayer 2 1"), Status::malformed,
               "test.cert:4: error: layer j = 2 is outside 0..1 (m = 1)");
  expect_error(
      replaced(good, "layer 0 1", "layer 0 1\nlayer 1 1\nlayer 0 1"), Status::malformed,
      "test.cert:5: error: layer sizes must increase strictly: j = 0 after j = 1 on line 4");
  expect_error(replaced(good, "layer 0 1", "layer 0 1 2"), Status::malformed,
               "test.cert:3: error: unexpected extra field '2'");
  expect_error(replaced(good, "m=1", "m=4097"), Status::malformed,
               "test.cert:2: error: m 4097 exceeds the limit 4096");
  expect_error(replaced(good, "m=1", "m=01"), Status::malformed, "test.cert:2: error: expected m");
  expect_error(replaced(good, "kind=layered", "kind=layered kind=layered"), Status::malformed,
               "test.cert:2: error: repeated header key 'kind'");
  expect_error(replaced(good, " class=PF", ""), Status::malformed,
               "test.cert:2: error: missing header key 'class='");
  expect_error(replaced(good, "class=PF", "class"), Status::malformed,
               "test.cert:2: error: unknown header field 'class'");
  expect_error(replaced(good, "r=1", "r=-1"), Status::malformed,
               "test.cert:2: error: expected r as a decimal integer");
  expect_error(replaced(good, "kernelrank-model 1", "kernelrank-model"), Status::malformed,
               "test.cert:2: error: unsupported model format version");
  expect_error(good + "layer 0 1\n", Status::malformed,
               "test.cert:6: error: unexpected 'layer' after the last correction line (w = 1)");
  expect_error("# nothing\n", Status::malformed, "test.cert:0: error:");
  // Bare and short lines are read without reading past their fields.
  expect_error(replaced(good, "correction 1 0 -1", "correction"), Status::malformed,
               "test.cert:5: error: expected 'correction 1 ...' (one line for each w = 0..1, in "
               "order), found 'correction'");
  expect_error(replaced(good, "correction 1 0 -1", "correction 1"), Status::malformed,
               "test.cert:5: error: too few fields");
  expect_error(replaced(good, "correction 1 0 -1", "correction 2"), Status::malformed,
               "test.cert:5: error: expected 'correction 1 ...' (one line for each w = 0..1, in "
               "order), found 'correction 2'");
  expect_error(replaced(good, "correction 0 0", "correction 0"), Status::malformed,
               "test.cert:4: error: too few fields");
  expect_error("kernelrank-model 1\n", Status::malformed,
               "test.cert:1: error: missing header key 'kind='");
  expect_error("kernelrank-model\n", Status::malformed,
               "test.cert:1: error: unsupported model format version");
  expect_error(replaced(good, "kind=layered ", ""), Status::malformed,
               "test.cert:2: error: missing header key 'kind='");
  expect_error(replaced(good, "r=1 ", ""), Status::malformed,
               "test.cert:2: error: missing header key 'r='");
}

// parse_layered_head() on its own (check_certificate only calls it for a model header).
TEST_CASE("layered: an empty file and a certificate given to the parser directly") {
  std::istringstream empty("# no header\n\n");
  try {
    krcheck::parse_layered_head(empty, "e.model");
    FAIL("an empty file was parsed");
  } catch (const krcheck::CheckError& error) {
    CHECK(error.status == Status::malformed);
    CHECK(error.line == 0);
    CHECK(std::string(error.what()) == "empty file: expected a model header");
  }
  std::istringstream certificate("kernelrank-certificate 1\n");
  try {
    krcheck::parse_layered_head(certificate, "c.cert");
    FAIL("a certificate was parsed as a layered head");
  } catch (const krcheck::CheckError& error) {
    CHECK(error.status == Status::malformed);
    CHECK(error.line == 1);
    CHECK(std::string(error.what()) ==
          "expected the header 'kernelrank-model 1 kind=layered ...', found "
          "'kernelrank-certificate'");
  }
}

namespace {
// A stream that cannot seek (tellg() is -1), as a pipe would be.
struct OneWay : std::streambuf {
  explicit OneWay(std::string content) : text(std::move(content)) {
    setg(text.data(), text.data(), text.data() + text.size());
  }
  std::string text;
};
}  // namespace

// Such a stream is read as a certificate, untouched: is_model_file cannot rewind it.
TEST_CASE("layered: a stream that cannot seek is not peeked at") {
  OneWay buffer("kernelrank-model 1 kind=layered\n");
  std::istream in(&buffer);
  CHECK_FALSE(krcheck::is_model_file(in, "pipe"));
  std::string first;
  in >> first;
  CHECK(first == "kernelrank-model");
}
