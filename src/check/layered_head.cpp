// The layered-head parser; see layered_head.hpp.
#include "check/layered_head.hpp"

#include <array>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "check/reader.hpp"
#include "check/status.hpp"

namespace krcheck {
namespace {

constexpr long kMaxExponent = 100000;

std::size_t digits_end(std::string_view text, std::size_t from) {
  while (from < text.size() && text[from] >= '0' && text[from] <= '9') ++from;
  return from;
}

// Decimal digits (never empty) as an integer; base 10 always, also with leading zeros.
BigInt decimal(const std::string& digits) {
  BigInt value;
  if (mpz_set_str(value.backend().data(), digits.c_str(), 10) != 0)
    throw std::logic_error("not a digit string: " + digits);
  return value;
}

std::string shown(std::string_view text) {
  constexpr std::size_t kShown = 60;
  return "'" + std::string(text.substr(0, kShown)) + (text.size() > kShown ? "...'" : "'");
}

class LayeredParser {
 public:
  LayeredParser(std::istream& in, const std::string& file) : reader_(in, file) {
    head_.file = file;
  }

  LayeredHead run() {
    if (!reader_.next(line_)) reader_.malformed(0, "empty file: expected a model header");
    parse_header();
    bool more = reader_.next(line_);
    while (more && line_.fields[0] == "layer") {
      parse_layer();
      more = reader_.next(line_);
    }
    if (head_.layers.empty()) expected(more, "'layer 0 <c_0>' (at least one layer, j = 0 first)");
    for (int w = 0; w <= head_.m; ++w) {
      if (!more || line_.fields[0] != "correction" || line_.fields.size() < 2 ||
          line_.fields[1] != std::to_string(w))
        expected(more, "'correction " + std::to_string(w) + " ...' (one line for each w = 0.." +
                           std::to_string(head_.m) + ", in order)");
      parse_correction(w);
      more = reader_.next(line_);
    }
    if (more)
      malformed("unexpected " + shown(line_.fields[0]) +
                " after the last correction line (w = " + std::to_string(head_.m) + ")");
    return std::move(head_);
  }

 private:
  [[noreturn]] void malformed(const std::string& message) const {
    reader_.malformed(line_.number, message);
  }
  // The current line (or the end of the file) is not `what`.
  [[noreturn]] void expected(bool more, const std::string& what) const {
    if (!more) reader_.malformed(reader_.lines_read(), "unexpected end of file: expected " + what);
    const bool numbered = line_.fields.size() > 1 && line_.fields[0] == "correction";
    malformed("expected " + what + ", found " +
              shown(numbered ? std::string(line_.fields[0]) + " " + std::string(line_.fields[1])
                             : std::string(line_.fields[0])));
  }

  Rational number(std::string_view text, const std::string& what) const {
    Rational value;
    if (!parse_exact_number(text, value))
      malformed("expected " + what + " as an exact number (integer, p/q or decimal), found " +
                shown(text));
    return value;
  }

  void parse_header() {
    if (line_.fields[0] != "kernelrank-model")
      malformed("expected the header 'kernelrank-model 1 kind=layered ...', found " +
                shown(line_.fields[0]));
    if (line_.fields.size() < 2 || line_.fields[1] != "1")
      malformed("unsupported model format version: expected 'kernelrank-model 1'");
    head_.header_line = line_.number;
    constexpr std::array<std::string_view, 4> kKeys = {"kind", "m", "r", "class"};
    std::array<std::optional<std::string_view>, 4> values;
    for (std::size_t f = 2; f < line_.fields.size(); ++f) {
      const std::string_view field = line_.fields[f];
      const auto equals = field.find('=');
      std::size_t k = 0;
      while (k < kKeys.size() && field.substr(0, equals) != kKeys[k]) ++k;
      if (equals == std::string_view::npos || k == kKeys.size())
        malformed("unknown header field " + shown(field) +
                  ": a layered head has the keys kind, m, r and class");
      if (values[k]) malformed("repeated header key '" + std::string(kKeys[k]) + "'");
      values[k] = field.substr(equals + 1);
    }
    for (std::size_t k = 0; k < kKeys.size(); ++k)
      if (!values[k]) malformed("missing header key '" + std::string(kKeys[k]) + "='");
    if (*values[0] != "layered")
      malformed("kind=" + std::string(*values[0]) +
                ": kernelrank-check verifies model files of kind=layered only");
    head_.m = static_cast<int>(parse_integer(reader_, line_.number, *values[1], kMaxWidth, "m"));
    if (head_.m < 1) malformed("m=0: expected m in 1.." + std::to_string(kMaxWidth));
    if (!is_canonical_integer(*values[2]))
      malformed("expected r as a decimal integer without sign or leading zeros, found " +
                shown(*values[2]));
    head_.declared_features = decimal(std::string(*values[2]));
    if (*values[3] != "PF" && *values[3] != "NK")
      malformed("class=" + std::string(*values[3]) + ": expected class=PF or class=NK");
    head_.model_class = *values[3] == "PF" ? ModelClass::PF : ModelClass::NK;
  }

  void parse_layer() {
    expect_field_count(reader_, line_, 3, "layer <j> <c_j>");
    const auto size = static_cast<int>(
        parse_integer(reader_, line_.number, line_.fields[1], kMaxWidth, "the layer size j"));
    if (size > head_.m)
      malformed("layer j = " + std::to_string(size) + " is outside 0.." + std::to_string(head_.m) +
                " (m = " + std::to_string(head_.m) + ")");
    if (head_.layers.empty() && size != 0)
      malformed("the first layer must be j = 0, found j = " + std::to_string(size));
    if (!head_.layers.empty() && size <= head_.layers.back().size)
      malformed("layer sizes must increase strictly: j = " + std::to_string(size) +
                " after j = " + std::to_string(head_.layers.back().size) + " on line " +
                std::to_string(head_.layers.back().line));
    head_.layers.push_back(
        {size, number(line_.fields[2], "c_" + std::to_string(size)), line_.number});
  }

  void parse_correction(int w) {
    expect_field_count(reader_, line_, static_cast<std::size_t>(w) + 3,
                       "correction " + std::to_string(w) + " <g(0)> ... <g(" + std::to_string(w) +
                           ")>: w + 1 = " + std::to_string(w + 1) + " numbers");
    LayeredHead::Correction correction;
    correction.line = line_.number;
    for (int u = 0; u <= w; ++u)
      correction.values.push_back(number(line_.fields[static_cast<std::size_t>(u) + 2],
                                         "g_" + std::to_string(w) + "(" + std::to_string(u) + ")"));
    head_.corrections.push_back(std::move(correction));
  }

  LineReader reader_;
  Line line_;
  LayeredHead head_;
};

}  // namespace

bool parse_exact_number(std::string_view text, Rational& value) {
  std::size_t pos = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) pos = 1;
  const std::size_t whole_end = digits_end(text, pos);
  const std::string whole(text.substr(pos, whole_end - pos));
  BigInt numerator;
  BigInt denominator = 1;
  if (whole_end < text.size() && text[whole_end] == '/') {
    const std::size_t below = whole_end + 1;
    if (whole.empty() || digits_end(text, below) != text.size() || below == text.size())
      return false;
    numerator = decimal(whole);
    denominator = decimal(std::string(text.substr(below)));
    if (denominator == 0) return false;
  } else {
    std::size_t end = whole_end;
    std::string fraction;
    if (end < text.size() && text[end] == '.') {
      end = digits_end(text, whole_end + 1);
      fraction = text.substr(whole_end + 1, end - whole_end - 1);
    }
    if (whole.empty() && fraction.empty()) return false;
    long exponent = 0;
    if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
      std::size_t at = end + 1;
      const bool below_one = at < text.size() && text[at] == '-';
      if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
      end = digits_end(text, at);
      if (end == at || end - at > 6) return false;
      exponent = std::strtol(std::string(text.substr(at, end - at)).c_str(), nullptr, 10);
      if (exponent > kMaxExponent) return false;
      if (below_one) exponent = -exponent;
    }
    if (end != text.size()) return false;
    numerator = decimal(whole + fraction);
    exponent -= static_cast<long>(fraction.size());
    BigInt power;
    mpz_ui_pow_ui(power.backend().data(), 10, static_cast<unsigned long>(std::labs(exponent)));
    if (exponent >= 0) numerator *= power;
    if (exponent < 0) denominator = power;
  }
  value = Rational(negative ? BigInt(-numerator) : numerator, denominator);
  return true;
}

bool is_model_file(std::istream& in, const std::string& file) {
  const std::istream::pos_type start = in.tellg();
  if (start == std::istream::pos_type(-1)) return false;  // not seekable: read as a certificate
  LineReader reader(in, file);
  Line line;
  const bool model = reader.next(line) && line.fields[0] == "kernelrank-model";
  in.clear();
  in.seekg(start);
  return model;
}

LayeredHead parse_layered_head(std::istream& in, const std::string& file) {
  return LayeredParser(in, file).run();
}

}  // namespace krcheck
