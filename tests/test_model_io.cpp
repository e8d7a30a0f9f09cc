// Tests of the model file reader and writers (docs/model-format.md): every
// kind of the text format, the JSON tabular form, round trips, and malformed
// inputs, each of which must fail with InputError naming the right line.
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/model_io.hpp"
#include "source_dir.hpp"

#include <doctest/doctest.h>
#include <algorithm>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

using namespace kernelrank;

namespace {

Token tok(const char* text) { return parse_token(text); }
Rational q(const char* text) { return parse_rational(text); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const TabularModel& as_tabular(const Model& model) {
  const auto* table = dynamic_cast<const TabularModel*>(&model);
  REQUIRE(table != nullptr);
  return *table;
}

// Parses `contents` and expects an InputError at `line` (and `column`, when given) whose
// message contains `phrase`.
void expect_error(const std::string& contents, std::size_t line, const std::string& phrase,
                  std::size_t column = 0) {
  CAPTURE(contents);
  try {
    parse_model("bad.model", contents);
    FAIL("no error for malformed input");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(e.file() == "bad.model");
    CHECK(e.line() == line);
    CHECK(e.column() == column);
    CHECK(contains(e.message(), phrase));
  }
}

const char* const kTabularM2 =
    "# a tabular model over three tokens\r\n"
    "kernelrank-model 1 kind=tabular m=2\r\n"
    "\r\n"
    "tokens 3\r\n"
    "00\r\n"
    "01   # trailing comment\r\n"
    "11\r\n"
    "kernel\r\n"
    "1 0.25 2/4\r\n"
    "0 1e-1 3\r\n"
    "-0 7 1.5E+1\r\n"
    "readout\r\n"
    "0 1 2\r\n"
    "1 -3/6 2\r\n"
    "2 2 +2\r\n";

}  // namespace

TEST_CASE("model-io: tabular text with exact decimals, comments and CRLF") {
  const auto model = parse_model("m2.model", kTabularM2);
  const TabularModel& t = as_tabular(*model);
  CHECK(t.description() == "tabular model over 3 tokens (m=2)");
  CHECK(t.kernel(tok("00"), tok("01"), 0, 0) == q("1/4"));
  CHECK(t.kernel(tok("00"), tok("11"), 0, 0) == q("1/2"));
  CHECK(t.kernel(tok("01"), tok("01"), 0, 0) == q("1/10"));
  CHECK(t.kernel(tok("11"), tok("11"), 0, 0) == 15);
  CHECK(t.readout(tok("01"), tok("01"), 0, 0) == q("-1/2"));
  CHECK(t.readout(tok("11"), tok("11"), 0, 0) == 2);
  CHECK(t.classify().model_class == ModelClass::NonnegativeKernel);
}

TEST_CASE("model-io: position-dependent tabular text, blocks in any order") {
  // Block (p, k) holds the constant 10 p + k in the kernel and -(10 p + k) in the readout.
  std::string text = "kernelrank-model 1 kind=tabular m=1 positions=2\ntokens 2\n0\n1\n";
  for (const char* word : {"readout", "kernel"})
    for (int p = 2; p >= 1; --p)
      for (int k = 1; k <= 2; ++k) {
        const std::string value = (word[0] == 'r' ? "-" : "") + std::to_string(10 * p + k);
        text += std::string(word) + " " + std::to_string(p) + " " + std::to_string(k) + "\n";
        text += value + " " + value + "\n" + value + " " + value + "\n";
      }
  const auto model = parse_model("pos.model", text);
  CHECK(model->position_dependent());
  CHECK(model->kernel(tok("0"), tok("1"), 0, 1) == 12);
  CHECK(model->kernel(tok("1"), tok("1"), 1, 0) == 21);
  CHECK(model->readout(tok("1"), tok("0"), 1, 1) == -22);
  CHECK_THROWS_AS(model->kernel(tok("1"), tok("1"), 2, 0), ModelDomainError);
}

TEST_CASE("model-io: features text") {
  const auto model = parse_model("f.model",
                                 "kernelrank-model 1 kind=features m=2 r=2 d=1\n"
                                 "token 01 phiQ 1 2   phiK 1/2 0 v 1/3 c 2  e 0.5\n"
                                 "token 10 phiQ 0 3   phiK 3 0.5 v 5   c -1 e 0\n");
  CHECK(model->description() == "feature model r=2 d=1 over 2 tokens (m=2)");
  CHECK(model->kernel(tok("01"), tok("10"), 0, 0) == 4);          // 1*3 + 2*1/2
  CHECK(model->readout(tok("01"), tok("01"), 0, 0) == q("7/6"));  // 2*1/3 + 1/2
  CHECK(model->classify().model_class == ModelClass::PositiveFeatures);

  const auto signed_model = parse_model("s.model",
                                        "kernelrank-model 1 kind=features m=1 r=2 d=0\n"
                                        "token 0 phiQ 1 -1 phiK 2 1 v c e 0\n"
                                        "token 1 phiQ 1 1  phiK 1 0 v c e 0\n");
  CHECK(signed_model->classify().model_class == ModelClass::NonnegativeKernel);
}

TEST_CASE("model-io: position-dependent features text") {
  const auto model = parse_model("fp.model",
                                 "kernelrank-model 1 kind=features m=1 r=1 d=1 positions=2\n"
                                 "token 1 pos 2 phiQ 2 phiK 20 v 200 c 2000 e 14\n"
                                 "token 1 pos 1 phiQ 1 phiK 10 v 100 c 1000 e 7\n");
  CHECK(model->kernel(tok("1"), tok("1"), 0, 1) == 20);       // phiQ at 1 times phiK at 2
  CHECK(model->readout(tok("1"), tok("1"), 1, 0) == 200014);  // 2000*100 + 14
}

namespace {

// The hand-computed model of test_model_forms.cpp (see the values there).
const char* const kParametric =
    "kernelrank-model 1 kind=parametric m=3 r=2 d=1 activation=relu\n"
    "WQ\n1 -2 0 0.5\n0 1 1 -1\n"
    "WK\n1 1 1 0\n-1 0 0 2\n"
    "V\n1 2 3 0\n"
    "C\n1 0 -1 1\n"
    "E\n0 0 1 1/3\n";

}  // namespace

TEST_CASE("model-io: parametric text, relu and square") {
  const auto relu = parse_model("p.model", kParametric);
  CHECK(relu->description() == "parametric relu model m=3 r=2 d=1");
  CHECK(relu->kernel(tok("101"), tok("011"), 0, 0) == 3);
  CHECK(relu->kernel(tok("011"), tok("101"), 0, 0) == 1);
  CHECK(relu->readout(tok("101"), tok("011"), 0, 0) == q("19/3"));

  std::string square = kParametric;
  square.replace(square.find("relu"), 4, "square");
  CHECK(parse_model("p.model", square)->kernel(tok("011"), tok("101"), 0, 0) == 10);
}

TEST_CASE("model-io: position-dependent parametric text") {
  const auto model = parse_model("pp.model",
                                 "kernelrank-model 1 kind=parametric m=1 r=1 d=0 "
                                 "activation=relu positions=2\n"
                                 "WQ 1\n1 0\nWK 1\n1 0\nV 1\nC 1\nE 1\n0 0\n"
                                 "WQ 2\n2 0\nWK 2\n3 1\nV 2\nC 2\nE 2\n0 5\n");
  CHECK(model->kernel(tok("1"), tok("1"), 0, 1) == 4);   // 1 * (3 + 1)
  CHECK(model->kernel(tok("1"), tok("1"), 1, 0) == 2);   // 2 * 1
  CHECK(model->readout(tok("1"), tok("1"), 1, 1) == 5);  // d = 0: only e at query position 2
}

TEST_CASE("model-io: builtin header passes its parameters to make_builtin_model") {
  const auto model = parse_model("b.model",
                                 "# softmax\nkernelrank-model 1 kind=builtin "
                                 "name=softmax m=3 base=3\n");
  CHECK(model->width() == 3);
  CHECK(model->kernel(tok("110"), tok("011"), 0, 0) == q("1/3"));  // 3^-1
  CHECK(model->kernel(tok("111"), tok("110"), 0, 0) == q("1/9"));  // 3^-2
  expect_error("kernelrank-model 1 kind=builtin name=softmax m=3 base=3\ntokens 1\n", 2,
               "a builtin model file is the header line only");
  expect_error("kernelrank-model 1 kind=builtin name=softmax m=3 bsae=3\n", 1, "bsae");
  expect_error("kernelrank-model 1 kind=builtin name=tanh m=3\n", 1, "'tanh'");
}

TEST_CASE("model-io: malformed text inputs name the line and the problem") {
  struct Case {
    std::string contents;
    std::size_t line;
    const char* phrase;
  };
  const std::string tab = "kernelrank-model 1 kind=tabular m=2\ntokens 2\n01\n10\n";
  const std::string tables = "kernel\n1 2\n3 4\nreadout\n0 0\n0 0\n";
  const std::vector<Case> cases = {
      {"", 0, "empty model file"},
      {"# only a comment\n\n", 0, "empty model file"},
      {"kernelrank 1 kind=tabular m=2\n", 1, "expected the header"},
      {"kernelrank-model 2 kind=tabular m=2\n", 1, "unsupported model format version '2'"},
      {"kernelrank-model 1 m=2\n", 1, "missing kind="},
      {"kernelrank-model 1 kind=tabular m\n", 1, "expected key=value in header field 4"},
      {"kernelrank-model 1 kind=graph m=2\n", 1, "unknown model kind 'graph'"},
      {"kernelrank-model 1 kind=tabular m=0\n", 1, "expected m=<integer in 1..4096>"},
      {"kernelrank-model 1 kind=tabular m=4097\n", 1, "found 'm=4097'"},
      {"kernelrank-model 1 kind=tabular\n", 1, "missing m="},
      {"kernelrank-model 1 kind=tabular m=2 m=2\n", 1, "header key 'm' given twice"},
      {"kernelrank-model 1 kind=tabular m=2 postions=2\n", 1, "unknown header key 'postions'"},
      {"kernelrank-model 1 kind=tabular m=2\nkernel\n", 2, "expected 'tokens <K>'"},
      {"kernelrank-model 1 kind=tabular m=2\ntokens 5000\n", 2, "the token count K"},
      {"kernelrank-model 1 kind=tabular m=2\ntokens 3\n01\n10\nkernel\n", 5,
       "expected 3 token lines after 'tokens 3', found 2"},
      {"kernelrank-model 1 kind=tabular m=2\ntokens 3\n01\n10\n01\n", 5,
       "duplicate token 01 (first listed on line 3)"},
      {"kernelrank-model 1 kind=tabular m=2\ntokens 2\n01\n101\n", 4, "width 2"},
      {"kernelrank-model 1 kind=tabular m=2\ntokens 2\n01\n1x\n", 4, "expected '0' or '1'"},
      {tab + "kernel\n1 2\n3 4\n", 7, "missing section 'readout'"},
      {tab + "kernel\n1 2\n3\n", 7, "expected 2 numbers in kernel row 2, found 1"},
      {tab + "kernel\n1 2\nreadout\n", 7, "expected 2 rows in 'kernel', found 1 before 'readout'"},
      {tab + "kernel\n1 2\n", 6, "found 1 before the end of the file"},
      {tab + tables + "kernel\n1 2\n3 4\n", 11, "duplicate section 'kernel' (first on line 5)"},
      {tab + "kernel\n1 1/0\n", 6, "zero denominator"},
      {tab + "kernel\n1 0.1.2\n", 6, "found '0.1.2'"},
      {tab + "kernel\n1 abc\n", 6, "as an exact number in field 2"},
      {tab + "kernel 1 2\n", 5, "alone on its line"},
      {tab + tables + "bias\n", 11, "expected a 'kernel' or 'readout' section"},
      {tab + tables + "tokens 2\n", 11, "duplicate section 'tokens'"},
      {"kernelrank-model 1 kind=tabular m=1 positions=2\ntokens 1\n1\nkernel 1 3\n", 4,
       "the key position"},
      {"kernelrank-model 1 kind=tabular m=1 positions=2\ntokens 1\n1\nkernel 1 1\n1\n"
       "readout 1 1\n1\n",
       7, "missing section 'kernel 1 2'"},
      {"kernelrank-model 1 kind=tabular m=12 positions=2\ntokens 4096\n", 2,
       "tabular model too large"},
      // features
      {"kernelrank-model 1 kind=features m=2 d=1\n", 1, "missing r="},
      {"kernelrank-model 1 kind=features m=2 r=0 d=1\n", 1, "expected r=<integer in 1..100000>"},
      {"kernelrank-model 1 kind=features m=2 r=1 d=1\ntoken 01 phiQ 1 phiK 1 v 1 c 1\n", 2,
       "expected 'e' in field 11, found the end of the line"},
      {"kernelrank-model 1 kind=features m=2 r=2 d=1\ntoken 01 phiQ 1 phiK 1 2 v 1 c 1 e 0\n", 2,
       "expected 2 numbers after 'phiQ', found 1"},
      {"kernelrank-model 1 kind=features m=2 r=1 d=1\ntoken 01 phiQ 1 v 1 c 1 e 0\n", 2,
       "expected 'phiK' in field 5, found 'v'"},
      {"kernelrank-model 1 kind=features m=2 r=1 d=1\ntoken 01 phiQ 1 phiK 1 v 1 c 1 e 0 0\n", 2,
       "expected 1 number after 'e', found 2"},
      {"kernelrank-model 1 kind=features m=2 r=1 d=0\ntoken 01 phiQ 1 phiK 1 v c e 0\n"
       "token 01 phiQ 1 phiK 1 v c e 0\n",
       3, "duplicate token 01 (first listed on line 2)"},
      {"kernelrank-model 1 kind=features m=2 r=1 d=0\n", 1, "feature model lists no tokens"},
      {"kernelrank-model 1 kind=features m=2 r=1 d=0 positions=2\n"
       "token 01 pos 1 phiQ 1 phiK 1 v c e 0\n",
       2, "token 01 has no line for position 2"},
      {"kernelrank-model 1 kind=features m=2 r=1 d=0 positions=2\n"
       "token 01 phiQ 1 phiK 1 v c e 0\n",
       2, "expected 'pos <p>'"},
      {"kernelrank-model 1 kind=features m=2 r=1 d=0\ntoken 01 pos 1 phiQ 1 phiK 1 v c e 0\n", 2,
       "unexpected 'pos'"},
      // parametric
      {"kernelrank-model 1 kind=parametric m=2 r=1 d=0\n", 1, "missing activation="},
      {"kernelrank-model 1 kind=parametric m=2 r=1 d=0 activation=tanh\n", 1,
       "found 'activation=tanh'"},
      {"kernelrank-model 1 kind=parametric m=2 r=100001 d=0 activation=relu\n", 1,
       "expected r=<integer in 1..100000>"},
      {"kernelrank-model 1 kind=parametric m=4096 r=5000 d=0 activation=relu\n", 1,
       "parametric model too large"},
      {"kernelrank-model 1 kind=parametric m=2 r=1 d=0 activation=relu\nWQ\n1 2\n", 3,
       "expected 3 numbers in WQ row 1 (2 weights and a bias), found 2"},
      {"kernelrank-model 1 kind=parametric m=2 r=1 d=0 activation=relu\nWQ\n1 2 3\nWK\n1 2 3\n"
       "V\nC\n",
       7, "missing section 'E'"},
      {"kernelrank-model 1 kind=parametric m=2 r=1 d=0 activation=relu\nWQ\n1 2 3\nWQ\n", 4,
       "duplicate section 'WQ' (first on line 2)"},
      {"kernelrank-model 1 kind=parametric m=2 r=1 d=0 activation=relu\nWX\n", 2,
       "expected a section 'WQ', 'WK', 'V', 'C' or 'E'"},
      {"kernelrank-model 1 kind=parametric m=2 r=2 d=0 activation=relu\nWQ\n1 2 3\nWK\n", 4,
       "expected 2 rows in 'WQ', found 1 before 'WK'"},
      {"kernelrank-model 1 kind=parametric m=1 r=1 d=0 activation=relu positions=2\nWQ 3\n", 2,
       "the position"},
  };
  for (const Case& c : cases) expect_error(c.contents, c.line, c.phrase);
}

namespace {

const char* const kJsonM2 = R"({
  "format": "kernelrank-model", "version": 1, "m": 2,
  "tokens": ["00", "01", "11"],
  "kernel": [["1", "0.25", "2/4"], ["0", "1e-1", "3"], ["-0", "7", "15"]],
  "readout": [[0, 1, 2], [1, "-3/6", 2], [2, 2, 2]]
})";

}  // namespace

TEST_CASE("model-io: JSON tabular form") {
  const auto json_model = parse_model("m2.json", std::string("\n  ") + kJsonM2);
  const auto text_model = parse_model("m2.model", kTabularM2);
  const TabularModel& a = as_tabular(*json_model);
  const TabularModel& b = as_tabular(*text_model);
  CHECK(a.tokens() == b.tokens());
  CHECK(a.kernel_table() == b.kernel_table());
  CHECK(a.readout_table() == b.readout_table());
}

TEST_CASE("model-io: malformed JSON names the path, line and column of the bad element") {
  // `at` is a piece of the text where the error must point: its first occurrence (after
  // `after`, when given) gives the expected line and column, counted here independently.
  struct Case {
    std::string contents;
    std::string at;
    const char* phrase;
    std::string after;
  };
  const auto line_column = [](const std::string& text, std::size_t offset) {
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
    const std::size_t newline = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t column =
        newline == std::string::npos || newline >= offset ? offset + 1 : offset - newline;
    return std::pair<std::size_t, std::size_t>(line, column);
  };
  const std::string head = R"({"format":"kernelrank-model","version":1,"m":1,"tokens":["0","1"],)";
  const std::string good_readout = R"("readout":[["0","0"],["0","0"]]})";
  const std::vector<Case> cases = {
      {head + R"("kernel":[["1",0.5],["1","1"]],)" + good_readout, "0.5",
       "kernel[0][1]: JSON number 0.5 is not exact", ""},
      {head + R"("kernel":[["1","1"],["1","0.1.2"]],)" + good_readout, "\"0.1.2\"",
       "kernel[1][1]: expected an exact number as a string", ""},
      {head + R"("kernel":[["1","1"],["1",true]],)" + good_readout, "true",
       "kernel[1][1]: expected an exact number as a string, found boolean", ""},
      {head + R"("kernel":[["1","1"]],)" + good_readout, "[[\"1\",\"1\"]]",
       "kernel: expected an array of 2 rows (one per token), found 1 rows", ""},
      {head + R"("kernel":[["1","1"],["1"]],)" + good_readout, "[\"1\"]]",
       "kernel[1]: expected an array of 2 numbers, found 1", ""},
      {head + R"("kernel":[["1","1"],["1","1"]]})", "{", "missing key \"readout\"", ""},
      {head + R"("kernel":[["1","1"],["1","1"]],"bias":1,)" + good_readout, "1,",
       "unknown key \"bias\"", "\"bias\""},
      {head + R"("kernel":[["1","1"],["1","1"]],"kernel":[],)" + good_readout, "\"kernel\"",
       "duplicate key \"kernel\"", "]],"},
      {R"({"format":"kernelrank-model","version":2,"m":1})", "2", "version: unsupported version 2",
       ""},
      {R"({"format":"kernelrank-model","version":1,"m":0,"tokens":[],"kernel":[],"readout":[]})",
       "0", "m: expected an integer in 1..4096", ""},
      {R"({"format":"kernelrank-model","version":1,"m":2,"tokens":["01","01"],"kernel":[],)"
       R"("readout":[]})",
       "\"01\"", "tokens[1]: duplicate token 01 (also tokens[0])", "\"01\","},
      {R"({"format":"kernelrank-model","version":1,"m":2,"tokens":["011"],"kernel":[],)"
       R"("readout":[]})",
       "\"011\"", "tokens[0]: expected a 0/1 string of width 2", ""},
      // Several lines: the line and the column within it.
      {"{\n  \"format\": \"kernelrank-model\",\n  \"version\": 1,,\n}", ",\n}", "invalid JSON", ""},
      {"{\n  \"format\": \"kernelrank-model\",\n  \"version\": 1,\n  \"m\": 1,\n"
       "  \"tokens\": [\"0\", \"1\"],\n  \"kernel\": [\n    [\"1\", \"1\"],\n    [\"1\", 0.25]\n"
       "  ],\n  \"readout\": [[\"0\", \"0\"], [\"0\", \"1\"]]\n}\n",
       "0.25", "kernel[1][1]: JSON number 0.25 is not exact", ""},
      // Found by fuzz_model_json: a number beyond double range is nlohmann's out_of_range,
      // not a parse_error, and escaped as an internal error (exit 4).
      {"{\n  \"format\": \"kernelrank-model\",\n  \"version\": 1e400\n}", "1e400",
       "number overflow parsing '1e400'", ""},
      // Found by fuzzing: printing a deeply nested value for the error message recursed
      // once per level and overflowed the stack (a segfault at a million levels). The
      // error points at the bracket that opens level 16 (the object is level 0).
      {R"({"format":)" + std::string(1'000'000, '[') + std::string(1'000'000, ']') + "}", "[",
       "JSON nested deeper than 16 levels", R"({"format":)" + std::string(15, '[')},
  };
  for (const Case& c : cases) {
    const std::size_t from = c.after.empty() ? 0 : c.contents.find(c.after) + c.after.size();
    const std::size_t offset = c.contents.find(c.at, from);
    REQUIRE(offset != std::string::npos);
    const auto [line, column] = line_column(c.contents, offset);
    expect_error(c.contents, line, c.phrase, column);
  }
  // Not JSON (no '{' first): the text format's reader, lines only.
  expect_error("[1, 2]", 1, "expected the header");
}

TEST_CASE("model-io: text and JSON writers round-trip") {
  const std::vector<Token> tokens{tok("0110"), tok("1001"), tok("1111")};
  RationalMatrix kernel{{q("1/3"), 0, q("123456789012345678901234567891/7")},
                        {q("2.5"), 1, q("1e-30")},
                        {0, q("-5/4"), 2}};
  RationalMatrix readout{{0, 1, 2}, {q("-1/2"), q("2/3"), 0}, {3, 3, q("3/9")}};
  const TabularModel model(4, tokens, kernel, readout);

  const std::string text = tabular_model_to_text(model);
  CHECK(contains(text, "kernelrank-model 1 kind=tabular m=4\n"));
  CHECK(contains(text, "1/3 0 123456789012345678901234567891/7\n"));
  const auto from_text = parse_model("rt.model", text);
  CHECK(as_tabular(*from_text).tokens() == tokens);
  CHECK(as_tabular(*from_text).kernel_table() == kernel);
  CHECK(as_tabular(*from_text).readout_table() == readout);

  const std::string json = tabular_model_to_json(model);
  CHECK(contains(json, "\"1/1000000000000000000000000000000\""));
  const auto from_json = parse_model("rt.json", json);
  CHECK(as_tabular(*from_json).tokens() == tokens);
  CHECK(as_tabular(*from_json).kernel_table() == kernel);
  CHECK(as_tabular(*from_json).readout_table() == readout);
  // Writing what was read gives the same bytes.
  CHECK(tabular_model_to_text(as_tabular(*from_json)) == text);

  // Position-dependent: text only.
  std::vector<std::vector<RationalMatrix>> kernels(2, std::vector<RationalMatrix>(2, kernel));
  std::vector<std::vector<RationalMatrix>> readouts(2, std::vector<RationalMatrix>(2, readout));
  kernels[1][0][2][2] = q("-7/2");
  const TabularModel positional(4, tokens, 2, kernels, readouts);
  const auto back = parse_model("rtp.model", tabular_model_to_text(positional));
  const TabularModel& p = as_tabular(*back);
  CHECK(p.positions() == 2);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      CHECK(p.kernel_table(a, b) == kernels[a][b]);
      CHECK(p.readout_table(a, b) == readouts[a][b]);
    }
  CHECK_THROWS_AS(tabular_model_to_json(positional), UsageError);
}

TEST_CASE("model-io: model files on disk") {
  const std::string dir = std::string(KERNELRANK_SOURCE_DIR) + "/tests/data/models/";
  const auto model = read_model(dir + "tabular_m2.model");
  CHECK(model->description() == "tabular model over 4 tokens (m=2)");
  CHECK(model->kernel(tok("01"), tok("11"), 0, 0) == q("1/2"));
  CHECK(model->readout(tok("11"), tok("10"), 0, 0) == 1);
  const auto json = read_model(dir + "tabular_m2.json");
  CHECK(as_tabular(*json).kernel_table() == as_tabular(*model).kernel_table());
  CHECK(as_tabular(*json).readout_table() == as_tabular(*model).readout_table());

  try {
    read_model(dir + "malformed_row.model");
    FAIL("no error for a malformed file");
  } catch (const InputError& e) {
    CHECK(e.file() == dir + "malformed_row.model");
    CHECK(e.line() == 11);
    CHECK(contains(e.message(), "expected 4 numbers in kernel row 3, found 3"));
  }
  CHECK_THROWS_AS(read_model(dir + "no-such-file.model"), InputError);
}

// Found in review while fuzzing: a header declaring positions=4096 made the reader
// allocate 2 x 4096^2 empty tables (about a gigabyte) before reading any block. The
// parse runs in a child process, which reports whether its peak memory grew by 64 MB.
TEST_CASE("model-io: a position-dependent header alone allocates nothing large") {
  const std::string text = "kernelrank-model 1 kind=tabular m=1 positions=4096\ntokens 1\n1\n";
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    int code = 4;
    try {
      parse_model("pos.model", text);
    } catch (const InputError& e) {
      code = e.line() == 3 && contains(e.message(), "missing section 'kernel 1 1'") ? 0 : 5;
    }
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    if (code == 0 && after.ru_maxrss - before.ru_maxrss >= 64 * 1024) code = 3;  // kilobytes
    _exit(code);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

// Found in review: with positions=4096 every new token of a features file held 5 x 4096
// vectors (half a megabyte) that the size limit did not count; now it does, so 2048
// tokens exceed the 2^25-number limit instead of taking a gigabyte.
TEST_CASE("model-io: per-position bookkeeping counts towards the features size limit") {
  std::string text = "kernelrank-model 1 kind=features m=12 r=1 d=0 positions=4096\n";
  for (int i = 0; i < 2100; ++i) {
    std::string bits;
    for (int b = 11; b >= 0; --b) bits += ((i >> b) & 1) != 0 ? '1' : '0';
    text += "token " + bits + " pos 1 phiQ 1 phiK 1 v c e 0\n";
  }
  expect_error(text, 2049, "feature model too large");
}
