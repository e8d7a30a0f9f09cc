// The family text format: a versioned header, then one instance per line.
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/text_input.hpp"

namespace kernelrank {
namespace {

constexpr int kMaxFamilyLength = 1'000'000;
constexpr std::size_t kMaxFamilyCells = std::size_t{1} << 31;  // instances x n x m bits
// Held in memory a token is a Token object plus its heap block, about 64 bytes even at
// m = 1: a 1 GiB file of one-bit tokens would need over 30 GB without this cap.
constexpr std::size_t kMaxFamilyBytes = std::size_t{1} << 32;

long long header_value(const TextReader& reader, const TextLine& line, std::size_t index,
                       std::string_view key, long long hi) {
  if (index >= line.fields.size())
    reader.fail(line.number, "expected '" + std::string(key) + "=<value>' in the header");
  const auto value = key_value(line.fields[index], key);
  if (!value)
    reader.fail(line.number, "expected '" + std::string(key) + "=<value>' in the header, found '" +
                                 line.fields[index] + "'");
  TextLine single{line.number, {std::string(*value)}};
  return reader.integer_field(single, 0, 1, hi, key == "m" ? "the width m" : "the length n");
}

}  // namespace

Family parse_family(const std::string& name, const std::string& contents) {
  TextReader reader(name, contents);
  const auto header = reader.next();
  if (!header)
    reader.fail(1, "expected header 'kernelrank-family 1 m=<m> n=<n>', found empty file");
  if (header->fields[0] != "kernelrank-family")
    reader.fail(header->number, "expected header 'kernelrank-family 1 m=<m> n=<n>', found '" +
                                    header->fields[0] + "'");
  if (header->fields.size() < 2 || header->fields[1] != "1")
    reader.fail(header->number, "expected format version 1 after 'kernelrank-family'");
  Family family;
  family.m = static_cast<int>(header_value(reader, *header, 2, "m", kMaxTokenWidth));
  family.n = static_cast<int>(header_value(reader, *header, 3, "n", kMaxFamilyLength));
  if (header->fields.size() > 4)
    reader.fail(header->number, "unexpected field '" + header->fields[4] + "' in the header");
  std::size_t cells = 0;
  std::size_t bytes = 0;
  const std::size_t bytes_per_line =
      static_cast<std::size_t>(family.n) *
      (sizeof(Token) + 32 + 8 * ((static_cast<std::size_t>(family.m) + 63) / 64));
  while (const auto line = reader.next()) {
    const std::size_t expected = static_cast<std::size_t>(family.n) + 1;
    if (line->fields.size() != expected)
      reader.fail(line->number, "expected a query position and " + std::to_string(family.n) +
                                    " tokens (" + std::to_string(expected) + " fields), found " +
                                    std::to_string(line->fields.size()) + " fields");
    Instance instance;
    instance.query =
        static_cast<int>(reader.integer_field(*line, 0, 1, family.n, "the query position")) - 1;
    instance.tokens.reserve(static_cast<std::size_t>(family.n));
    for (int i = 1; i <= family.n; ++i)
      instance.tokens.push_back(
          reader.token_field(*line, static_cast<std::size_t>(i), family.m, "a 0/1 token"));
    cells += static_cast<std::size_t>(family.n) * static_cast<std::size_t>(family.m);
    if (cells > kMaxFamilyCells)
      reader.fail(line->number, "family too large (more than 2^31 token bits); split it");
    bytes += bytes_per_line;
    if (bytes > kMaxFamilyBytes)
      reader.fail(line->number,
                  "family too large (its instances need more than 4 GiB in "
                  "memory); split it");
    family.instances.push_back(std::move(instance));
  }
  return family;
}

Family read_family(const std::string& path) { return parse_family(path, read_file_checked(path)); }

std::string family_to_text(const Family& family) {
  std::string text =
      "kernelrank-family 1 m=" + std::to_string(family.m) + " n=" + std::to_string(family.n) + "\n";
  for (const Instance& instance : family.instances) {
    text += std::to_string(instance.query + 1);
    for (const Token& x : instance.tokens) text += " " + x.to_string();
    text += "\n";
  }
  return text;
}

}  // namespace kernelrank
