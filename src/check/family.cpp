// Reading a family file into a set of instance keys; see family.hpp.
#include "check/family.hpp"

#include <algorithm>

#include "check/certificate.hpp"
#include "check/reader.hpp"
#include "check/status.hpp"

namespace krcheck {
namespace {

constexpr std::uint64_t kMaxFamilyLength = 1'000'000;

void append_token(std::string& key, const Token& token) {
  key.append(reinterpret_cast<const char*>(token.data()), token.size() * sizeof(std::uint64_t));
}

}  // namespace

std::string instance_key(int position, const std::vector<Token>& sequence,
                         bool dependent_positions) {
  std::string key = std::to_string(position) + ":";
  const std::size_t query = static_cast<std::size_t>(position - 1);
  if (dependent_positions) {
    for (const Token& token : sequence) append_token(key, token);
    return key;
  }
  append_token(key, sequence[query]);
  std::vector<const Token*> others;
  for (std::size_t t = 0; t < sequence.size(); ++t)
    if (t != query) others.push_back(&sequence[t]);
  std::sort(others.begin(), others.end(), [](const Token* x, const Token* y) { return *x < *y; });
  for (const Token* token : others) append_token(key, *token);
  return key;
}

std::string used_pair_key(const Token& query, const Token& key) {
  std::string pair;
  append_token(pair, query);
  append_token(pair, key);
  return pair;
}

Family read_family(std::istream& in, const std::string& file, bool dependent_positions,
                   bool record_used_pairs) {
  Sha256 hash;
  LineReader reader(in, file, &hash);
  Family family;
  family.file = file;
  Line line;
  // The header must come first; m and n are kept even when they differ from the task's,
  // which the caller reports as a failed check rather than as malformed input.
  if (!reader.next(line)) reader.malformed(0, "empty family file: expected 'kernelrank-family 1'");
  if (line.fields[0] != "kernelrank-family")
    reader.malformed(line.number, "expected header 'kernelrank-family 1 m=<m> n=<n>'");
  expect_field_count(reader, line, 4, "kernelrank-family 1 m=<m> n=<n>");
  if (line.fields[1] != "1")
    reader.malformed(line.number, "unsupported family format version '" +
                                      std::string(line.fields[1]) + "', expected 1");
  const auto m_text = key_value(reader, line.number, line.fields[2], "m");
  const auto n_text = key_value(reader, line.number, line.fields[3], "n");
  const auto m = parse_integer(reader, line.number, m_text, kMaxWidth, "m");
  const auto n = parse_integer(reader, line.number, n_text, kMaxFamilyLength, "n");
  if (m == 0 || n == 0) reader.malformed(line.number, "m and n must be at least 1");
  family.m = static_cast<int>(m);
  family.n = static_cast<int>(n);
  family.header_line = line.number;

  // Grown one token at a time, only after the tokens before it had the declared width:
  // allocating n tokens of width m up front let a one-line header (m=4096 n=1000000)
  // take half a gigabyte.
  std::vector<Token> sequence;
  while (reader.next(line)) {
    if (line.fields.size() != n + 1)
      reader.malformed(line.number, "expected a query position and " + std::to_string(n) +
                                        " tokens, found " + std::to_string(line.fields.size()) +
                                        " fields");
    const auto position =
        parse_integer(reader, line.number, line.fields[0], n, "the query position");
    if (position == 0) reader.malformed(line.number, "query positions count from 1");
    for (std::size_t t = 0; t < n; ++t) {
      if (sequence.size() == t) sequence.emplace_back(words_for_width(m));
      if (!pack_token(line.fields[t + 1], m, sequence[t].data()))
        reader.malformed(line.number, token_problem(line.fields[t + 1], m));
    }
    family.keys.insert(instance_key(static_cast<int>(position), sequence, dependent_positions));
    if (record_used_pairs)
      for (const Token& key : sequence)
        family.used_pairs.insert(used_pair_key(sequence[position - 1], key));
    ++family.instance_count;
  }
  family.digest = hash.finish();
  return family;
}

}  // namespace krcheck
