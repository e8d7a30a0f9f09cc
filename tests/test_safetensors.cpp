// Tests of safetensors heads (docs/model-format.md §11) and the parametric text writer.
//
// The fixtures in tests/data/safetensors were written by make_fixtures.py, which decodes every
// float from its bits in Python, so reading them back to exactly the listed fractions checks
// the C++ conversions against an independent one. Each malformed fixture must be refused
// with "FILE: error:" and the fragments malformed.tsv lists. Kernel and readout values are
// computed by hand from the weights (in the comments); the writers must round-trip exactly.
#include "kernelrank/core/double_rational.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/model_safetensors.hpp"
#include "kernelrank/models/parametric_writer.hpp"
#include "kernelrank/models/safetensors.hpp"
#include "source_dir.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace kernelrank;

namespace {

const std::string kDir = std::string(KERNELRANK_SOURCE_DIR) + "/tests/data/safetensors/";
const char* const kHeads[] = {"head_m3_relu_f64",  "head_m3_relu_f32",    "head_m3_relu_f16",
                              "head_m3_relu_bf16", "head_m3_square_pos3", "head_m3_relu_d0"};

Token tok(const char* text) { return parse_token(text); }
Rational q(const char* text) { return parse_rational(text); }
Rational power_of_two(int exponent) {
  Integer power = 1;
  power <<= static_cast<unsigned>(exponent < 0 ? -exponent : exponent);
  return exponent < 0 ? make_rational(1, power) : Rational(power);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

const ParametricModel& as_parametric(const Model& model) {
  const auto* parametric = dynamic_cast<const ParametricModel*>(&model);
  REQUIRE(parametric != nullptr);
  return *parametric;
}

bool same_maps(const ParametricModel& a, const ParametricModel& b) {
  if (a.width() != b.width() || a.activation() != b.activation() ||
      a.position_dependent() != b.position_dependent() ||
      a.maps_by_position().size() != b.maps_by_position().size())
    return false;
  for (std::size_t p = 0; p < a.maps_by_position().size(); ++p) {
    const ParametricMaps& x = a.maps_by_position()[p];
    const ParametricMaps& y = b.maps_by_position()[p];
    const AffineMap* left[] = {&x.query, &x.key, &x.value, &x.readout_c, &x.readout_e};
    const AffineMap* right[] = {&y.query, &y.key, &y.value, &y.readout_c, &y.readout_e};
    for (int k = 0; k < 5; ++k)
      if (left[k]->weight != right[k]->weight || left[k]->bias != right[k]->bias) return false;
  }
  return true;
}

// One line of a .expected file: "tensor NAME DTYPE DIMS... = VALUES...".
struct ExpectedTensor {
  std::string dtype;
  std::vector<std::uint64_t> shape;
  std::vector<Rational> values;
};

std::map<std::string, ExpectedTensor> read_expected(const std::string& path) {
  TextReader reader(path);
  std::map<std::string, ExpectedTensor> expected;
  while (const auto line = reader.next()) {
    REQUIRE(line->fields.size() >= 4);
    REQUIRE(line->fields[0] == "tensor");
    ExpectedTensor& tensor = expected[line->fields[1]];
    tensor.dtype = line->fields[2];
    std::size_t i = 3;
    for (; line->fields[i] != "="; ++i) tensor.shape.push_back(std::stoull(line->fields[i]));
    for (++i; i < line->fields.size(); ++i) tensor.values.push_back(q(line->fields[i].c_str()));
  }
  return expected;
}

// Expects an InputError of the whole-file form for `name`, containing every fragment.
template <typename Action>
void expect_refusal(const std::string& name, const std::vector<std::string>& fragments,
                    Action action) {
  try {
    action();
    FAIL("no error for " << name);
  } catch (const InputError& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.rfind(name + ": error: ", 0) == 0);
    CHECK(e.line() == 0);
    for (const std::string& fragment : fragments) CHECK(contains(e.message(), fragment));
  }
}

// m=2 r=2 d=1 relu, small dyadics (the hand computations below use them).
HeadWeights small_head() {
  HeadWeights w;
  w.m = 2;
  w.r = 2;
  w.d = 1;
  HeadPositionWeights p;
  p.query_weight = {1, -2, 0.5, 0.25};
  p.query_bias = {0.5, -1};
  p.key_weight = {2, 0, 1, 1};
  p.key_bias = {0, 0.5};
  p.value_weight = {3, -1};
  p.value_bias = {0.25};
  p.readout_c_weight = {1, 1};
  p.readout_c_bias = {-0.5};
  p.readout_e_weight = {0.5, 0};
  p.readout_e_bias = {1};
  w.by_position = {p};
  return w;
}

}  // namespace

TEST_CASE("safetensors: doubles convert to the dyadic rationals they denote") {
  CHECK(rational_from_double(0.1) == q("3602879701896397/36028797018963968"));
  CHECK(rational_from_double(-1.0 / 3) == -q("6004799503160661/18014398509481984"));
  CHECK(rational_from_double(std::numeric_limits<double>::denorm_min()) == power_of_two(-1074));
  CHECK(rational_from_double(-0.0) == 0);
  const Rational max_double = (power_of_two(53) - 1) * power_of_two(971);
  CHECK(rational_from_double(std::numeric_limits<double>::max()) == max_double);
  CHECK(rational_from_double(-std::numeric_limits<double>::max()) == -max_double);
  CHECK_THROWS_AS(rational_from_double(std::nan("")), NonFiniteError);
  CHECK_THROWS_AS(rational_from_double(std::numeric_limits<double>::infinity()), NonFiniteError);
  CHECK_THROWS_AS(rational_from_double(-std::numeric_limits<double>::infinity()), NonFiniteError);
}

TEST_CASE("safetensors: half and bfloat16 bit patterns") {
  CHECK(rational_from_half_bits(0x3C00) == 1);
  CHECK(rational_from_half_bits(0x0001) == power_of_two(-24));
  CHECK(rational_from_half_bits(0x03FF) == 1023 * power_of_two(-24));
  CHECK(rational_from_half_bits(0x7BFF) == 65504);
  CHECK(rational_from_half_bits(0xC000) == -2);
  CHECK(rational_from_half_bits(0x8000) == 0);
  CHECK_THROWS_AS(rational_from_half_bits(0x7C00), NonFiniteError);
  CHECK_THROWS_AS(rational_from_half_bits(0x7E00), NonFiniteError);
  CHECK(rational_from_bfloat16_bits(0x3F80) == 1);
  CHECK(rational_from_bfloat16_bits(0xBF80) == -1);
  CHECK(rational_from_bfloat16_bits(0x0001) == power_of_two(-133));
  CHECK(rational_from_bfloat16_bits(0x7F7F) == 255 * power_of_two(120));
  CHECK_THROWS_AS(rational_from_bfloat16_bits(0x7F80), NonFiniteError);
  CHECK_THROWS_AS(rational_from_bfloat16_bits(0xFFC0), NonFiniteError);
}

TEST_CASE("safetensors: the fixtures read back to exactly the fractions Python listed") {
  for (const char* head : kHeads) {
    CAPTURE(head);
    const SafetensorsFile file = read_safetensors(kDir + head + ".safetensors");
    const auto expected = read_expected(kDir + head + ".expected");
    REQUIRE(file.tensors.size() == expected.size());
    for (const SafetensorsTensor& tensor : file.tensors) {
      CAPTURE(tensor.name);
      const auto it = expected.find(tensor.name);
      REQUIRE(it != expected.end());
      CHECK(dtype_name(tensor.dtype) == it->second.dtype);
      CHECK(tensor.shape == it->second.shape);
      CHECK(tensor.values == it->second.values);
    }
    CHECK(file.metadata.at("format") == "kernelrank-head");
    // The head equals the text model Python wrote with the same fractions.
    const auto from_file = read_model(kDir + head + ".safetensors");
    const auto from_text = read_model(kDir + head + ".model");
    CHECK(same_maps(as_parametric(*from_file), as_parametric(*from_text)));
  }
}

TEST_CASE("safetensors: kernel and readout of the fixtures, computed by hand") {
  // Position dependent, square. qpos 1, q = 101: WQ x + bQ = 1 + 1/2 + 1/4 = 7/4, squared
  // 49/16; kpos 2, z = 011: WK z + bK = 1 - 1 + 1 = 1. C q + c0 = 1 - 1/2 + 1/4 = 3/4,
  // V z + v0 = 1 + 2 - 1 = 2, e = -1/8: F = 3/2 - 1/8 = 11/8.
  const auto pos3 = read_model(kDir + "head_m3_square_pos3.safetensors");
  CHECK(pos3->position_dependent());
  CHECK(pos3->feature_count() == 1);
  CHECK(pos3->kernel(tok("101"), tok("011"), 0, 1) == q("49/16"));
  CHECK(pos3->readout(tok("101"), tok("011"), 0, 1) == q("11/8"));
  // qpos 3, q = 111: 3 - 1 + 1/2 + 3/4 = 13/4 -> 169/16; kpos 3, z = 100: 1 + 1 = 2 -> 4.
  // C q + c0 = 1/2 + 3/4 = 5/4, V z + v0 = 1/2 - 1 = -1/2, e = 1/8 - 3/8: F = -7/8.
  CHECK(pos3->kernel(tok("111"), tok("100"), 2, 2) == q("169/4"));
  CHECK(pos3->readout(tok("111"), tok("100"), 2, 2) == q("-7/8"));

  // d = 0: q = 101 gives phi_Q = (1/2 + 1 + 1/4, relu(1 - 1/2)) = (7/4, 1/2); z = 011 gives
  // phi_K = (1, 2 + 1) = (1, 3): alpha = 7/4 + 3/2. The readout is e(q) = 1 + 1/2 + 1/2.
  const auto d0 = read_model(kDir + "head_m3_relu_d0.safetensors");
  CHECK(as_parametric(*d0).value_width() == 0);
  CHECK(d0->kernel(tok("101"), tok("011"), 0, 0) == q("13/4"));
  CHECK(d0->readout(tok("101"), tok("011"), 0, 0) == 2);
  CHECK(d0->readout(tok("101"), tok("000"), 0, 0) == 2);

  // The awkward head at 000: phi_Q = relu(bQ) = (3/4, 1e308 as a double), phi_K = (1,
  // 2^-1074); F = <c0, v0> + e0 = (1/2)(0) + (-1e-300)(-5/2) + 0.
  const auto awkward = read_model(kDir + "head_m3_relu_f64.safetensors");
  const auto values = read_expected(kDir + "head_m3_relu_f64.expected");
  const Rational big = values.at("query.bias").values[1];
  CHECK(big == rational_from_double(1e308));
  CHECK(awkward->kernel(tok("000"), tok("000"), 0, 0) == q("3/4") + big * power_of_two(-1074));
  CHECK(awkward->readout(tok("000"), tok("000"), 0, 0) ==
        rational_from_double(-1e-300) * q("-5/2"));
}

TEST_CASE("safetensors: every malformed fixture is refused with its fault named") {
  std::ifstream manifest(kDir + "malformed.tsv");
  REQUIRE(manifest);
  std::string line;
  int files = 0;
  while (std::getline(manifest, line)) {
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
    REQUIRE(fields.size() >= 2);
    const std::string path = kDir + fields[0];
    const std::vector<std::string> fragments(fields.begin() + 1, fields.end());
    CAPTURE(path);
    expect_refusal(path, fragments, [&] { read_model(path); });
    // The same from memory, where the name alone selects the safetensors reader.
    const std::string bytes = file_bytes(path);
    expect_refusal(fields[0], fragments, [&] { parse_model(fields[0], bytes); });
    ++files;
  }
  CHECK(files >= 30);
}

TEST_CASE("safetensors: container limits and strictness beyond the fixtures") {
  const auto with_header = [](const std::string& header, const std::string& data) {
    std::string bytes;
    for (int i = 0; i < 8; ++i)
      bytes += static_cast<char>((static_cast<std::uint64_t>(header.size()) >> (8 * i)) & 0xFF);
    return bytes + header + data;
  };
  std::string oversized(8 + 100'000'001, ' ');  // a header of spaces one byte over the limit
  for (int i = 0; i < 8; ++i)
    oversized[static_cast<std::size_t>(i)] = static_cast<char>((100'000'001ULL >> (8 * i)) & 0xFF);
  expect_refusal("x", {"larger than the limit of 100000000 bytes"},
                 [&] { parse_safetensors("x", oversized); });
  expect_refusal("x", {"nested deeper than"}, [&] {
    parse_safetensors("x", with_header(std::string(20, '[') + std::string(20, ']'), ""));
  });
  expect_refusal("x", {"duplicate key \"dtype\""}, [&] {
    parse_safetensors("x", with_header(R"({"a": {"dtype": "F64", "dtype": "F64", "shape": [],)"
                                       R"( "data_offsets": [0, 8]}})",
                                       std::string(8, '\0')));
  });
  // An empty header object and an empty buffer form a valid container without tensors.
  CHECK(parse_safetensors("x", with_header("{}", "")).tensors.empty());
  // Content sniffing: a head without the .safetensors suffix, and text that is no head.
  const std::string head = file_bytes(kDir + "head_m3_relu_d0.safetensors");
  CHECK(looks_like_safetensors("head.bin", head));
  CHECK_FALSE(looks_like_safetensors("m.model", "kernelrank-model 1 kind=builtin m=2\n"));
  CHECK(as_parametric(*parse_model("head.bin", head)).value_width() == 0);
}

TEST_CASE("safetensors: safetensors_bytes writes exact, deterministic F64 files") {
  const double tiny = std::numeric_limits<double>::denorm_min();
  const std::vector<WrittenTensor> tensors = {
      {"b", {2}, {0.1, -0.0}}, {"a", {}, {tiny}}, {"empty", {0, 3}, {}}};
  const std::string bytes = safetensors_bytes(tensors, {{"note", "x"}});
  CHECK(bytes == safetensors_bytes(tensors, {{"note", "x"}}));
  CHECK(bytes[8] == '{');
  const SafetensorsFile file = parse_safetensors("w", bytes);
  REQUIRE(file.tensors.size() == 3);
  CHECK(file.metadata == std::map<std::string, std::string>{{"note", "x"}});
  CHECK(file.find("a")->values == std::vector<Rational>{power_of_two(-1074)});
  CHECK(file.find("a")->begin == 0);  // sorted by name: a, b, empty
  CHECK(file.find("b")->values == std::vector<Rational>{rational_from_double(0.1), 0});
  CHECK(file.find("empty")->shape == std::vector<std::uint64_t>{0, 3});
  CHECK((bytes.size() - file.find("empty")->end) % 8 == 0);  // header padded to 8 bytes
  CHECK_THROWS_AS(safetensors_bytes({{"a", {2}, {1.0}}}, {}), std::invalid_argument);
  CHECK_THROWS_AS(safetensors_bytes({{"a", {1}, {1.0}}, {"a", {1}, {2.0}}}, {}),
                  std::invalid_argument);
  CHECK_THROWS_AS(safetensors_bytes({{"a", {1}, {std::nan("")}}}, {}), std::invalid_argument);
}

TEST_CASE("safetensors: head_to_safetensors reads back as parametric_model_from_weights") {
  HeadWeights weights = small_head();
  const std::string bytes = head_to_safetensors(weights);
  CHECK(bytes == head_to_safetensors(weights));
  const auto read = parametric_model_from_safetensors(parse_safetensors("h.safetensors", bytes));
  const auto direct = parametric_model_from_weights(weights);
  CHECK(same_maps(*read, *direct));
  // q = 10: phi_Q = relu(1 + 1/2, 1/2 - 1) = (3/2, 0); z = 11: phi_K = (2, 1 + 1 + 1/2):
  // alpha = 3. c(10) = 1 - 1/2, v(11) = 3 - 1 + 1/4, e(10) = 1/2 + 1: F = 9/8 + 3/2.
  CHECK(read->kernel(tok("10"), tok("11"), 0, 0) == 3);
  CHECK(read->readout(tok("10"), tok("11"), 0, 0) == q("21/8"));
  // q = 01: relu(-2 + 1/2, 1/4 - 1) = (0, 0), so alpha vanishes for every key.
  CHECK(read->kernel(tok("01"), tok("11"), 0, 0) == 0);

  // Position dependent, square: position 2 doubles the query weights.
  weights.activation = FeatureMap::Square;
  weights.positions = 2;
  weights.by_position.push_back(weights.by_position[0]);
  for (double& w : weights.by_position[1].query_weight) w *= 2;
  const auto read2 = parametric_model_from_safetensors(
      parse_safetensors("h2.safetensors", head_to_safetensors(weights)));
  CHECK(same_maps(*read2, *parametric_model_from_weights(weights)));
  CHECK(read2->position_dependent());
  // qpos 2, q = 10: (2 + 1/2)^2 and (1 - 1)^2; kpos 1, z = 11: 2^2 and (5/2)^2.
  CHECK(read2->kernel(tok("10"), tok("11"), 1, 0) == q("25/4") * 4);
}

TEST_CASE("safetensors: the weights form refuses what the file form refuses") {
  HeadWeights weights = small_head();
  weights.activation = FeatureMap::Softmax;
  weights.temperature = 0.5;
  CHECK_THROWS_AS(parametric_model_from_weights(weights), UsageError);
  const std::string softmax = head_to_safetensors(weights);
  const SafetensorsFile file = parse_safetensors("s.safetensors", softmax);
  CHECK(file.find("temperature") != nullptr);
  expect_refusal("s.safetensors", {"softmax head refused", "only in floating point"},
                 [&] { parametric_model_from_safetensors(file); });

  weights = small_head();
  weights.by_position[0].key_weight[3] = std::nan("");
  try {
    parametric_model_from_weights(weights);
    FAIL("no error for a NaN weight");
  } catch (const NonFiniteError& e) {
    CHECK(contains(e.what(), "key.weight: value at flat index 3"));
  }
  CHECK_THROWS_AS(head_to_safetensors(weights), std::invalid_argument);
  weights = small_head();
  weights.by_position[0].value_bias.push_back(1);
  CHECK_THROWS_WITH_AS(parametric_model_from_weights(weights),
                       "HeadWeights: value.bias has 2 values, expected 1", std::invalid_argument);
  weights = small_head();
  weights.temperature = 1;
  CHECK_THROWS_AS(head_to_safetensors(weights), std::invalid_argument);
  weights = small_head();
  weights.activation = FeatureMap::Taylor2;  // rational, but not a kernelrank-head activation
  CHECK_THROWS_WITH_AS(
      head_to_safetensors(weights),
      "HeadWeights: activation \"taylor2\" is not relu, square, identity or softmax",
      std::invalid_argument);
}

TEST_CASE("safetensors: parametric_model_to_text reads back equal and rewrites the same") {
  const auto model = parametric_model_from_weights(small_head());
  const std::string text = parametric_model_to_text(*model);
  CHECK(text ==
        "kernelrank-model 1 kind=parametric m=2 r=2 d=1 activation=relu\n"
        "# each row: the m weights of coordinates 1..m, then the bias\n"
        "WQ\n1 -2 1/2\n1/2 1/4 -1\nWK\n2 0 0\n1 1 1/2\nV\n3 -1 1/4\nC\n1 1 -1/2\nE\n1/2 0 1\n");
  for (const char* head : kHeads) {
    CAPTURE(head);
    const auto read = read_model(kDir + head + ".safetensors");
    const std::string written = parametric_model_to_text(as_parametric(*read));
    const auto reparsed = parse_model("w.model", written);
    CHECK(same_maps(as_parametric(*read), as_parametric(*reparsed)));
    CHECK(parametric_model_to_text(as_parametric(*reparsed)) == written);
  }
  const auto positional = read_model(kDir + "head_m3_square_pos3.safetensors");
  const std::string written = parametric_model_to_text(as_parametric(*positional));
  CHECK(contains(written, "activation=square positions=3\n"));
  CHECK(contains(written, "\nWQ 3\n3 -1 1/2 3/4\n"));
}
