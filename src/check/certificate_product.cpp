// The statements of rule trace-product (format 3): `blocks B`, then B blocks, each
// `block explicit length=L copies=C words=K` followed by K `word TOKEN` lines, or
// `block checksum length=L weight=W residue=A copies=C`; see parser.hpp and
// docs/certificate-format.md "Format 3".
#include <numeric>
#include <string>

#include "check/parser.hpp"

namespace krcheck::detail {

void Parser::parse_blocks() {
  cert_.blocks_line = line_.number;
  expect_field_count(reader_, line_, 2, "blocks <count>");
  const auto count = integer(line_.fields[1], kMaxBlocks, "the number of blocks");
  if (count == 0) malformed("blocks 0: a product needs at least one block");
  advance();
  for (std::uint64_t index = 1; index <= count; ++index) {
    // parse_block() leaves `line_` at the statement after the block, so no advance here.
    const std::string expected = "'block' line " + std::to_string(index) + " of the " +
                                 std::to_string(count) + " declared on line " +
                                 std::to_string(cert_.blocks_line);
    if (!has_line_) malformed_at_end(expected);
    if (keyword() != "block") malformed("expected " + expected + ", found " + quoted(keyword()));
    parse_block();
  }
  if (has_line_ && keyword() == "block")
    malformed("more 'block' lines than the " + std::to_string(count) + " declared on line " +
              std::to_string(cert_.blocks_line));
  // Every block is at most 4096 wide and copies are capped by m, so the sum fits easily.
  std::uint64_t width = 0;
  for (const ProductBlock& block : cert_.blocks)
    width += static_cast<std::uint64_t>(block.length) * block.copies;
  if (width != static_cast<std::uint64_t>(cert_.m))
    reader_.malformed(
        cert_.blocks_line,
        "the blocks cover " + std::to_string(width) +
            " coordinates (sum of length * copies), but the task has m=" + std::to_string(cert_.m));
}

// One `block` line (and its `word` lines); leaves `line_` at the statement after it.
void Parser::parse_block() {
  const auto& f = line_.fields;
  ProductBlock block;
  block.line = line_.number;
  const std::string_view kind = f.size() >= 2 ? f[1] : std::string_view();
  const auto length_of = [&](std::string_view field) {
    const auto length = integer(key_value(reader_, line_.number, field, "length"),
                                static_cast<std::uint64_t>(kMaxBlockLength), "the block length");
    if (length < 1) malformed("length=0: a block has at least one coordinate");
    return static_cast<int>(length);
  };
  const auto copies_of = [&](std::string_view field) {
    const auto copies = integer(key_value(reader_, line_.number, field, "copies"),
                                static_cast<std::uint64_t>(cert_.m), "the number of copies");
    if (copies < 1) malformed("copies=0: a block appears at least once");
    return copies;
  };
  if (kind == "checksum") {
    expect_field_count(reader_, line_, 6,
                       "block checksum length=<L> weight=<W> residue=<a> copies=<C>");
    block.checksum = true;
    block.length = length_of(f[2]);
    const auto weight = integer(key_value(reader_, line_.number, f[3], "weight"),
                                static_cast<std::uint64_t>(block.length), "the weight");
    if (weight < 1 || weight > static_cast<std::uint64_t>(block.length) - 1)
      malformed("weight=" + std::to_string(weight) + " is out of range 1.." +
                std::to_string(block.length - 1) + " (1..L-1)");
    block.weight = static_cast<int>(weight);
    if (std::gcd(block.weight, block.length) != 1)
      malformed("weight=" + std::to_string(weight) + " and length=" + std::to_string(block.length) +
                " have a common factor: the rule needs gcd(W, L) = 1 (all classes alike)");
    block.residue = integer(key_value(reader_, line_.number, f[4], "residue"),
                            static_cast<std::uint64_t>(block.length) - 1, "the residue");
    block.copies = copies_of(f[5]);
    cert_.blocks.push_back(std::move(block));
    advance();
    return;
  }
  if (kind != "explicit")
    malformed(
        "expected 'block explicit length=<L> copies=<C> words=<K>' or "
        "'block checksum length=<L> weight=<W> residue=<a> copies=<C>'");
  expect_field_count(reader_, line_, 5, "block explicit length=<L> copies=<C> words=<K>");
  block.length = length_of(f[2]);
  block.copies = copies_of(f[3]);
  const auto count =
      integer(key_value(reader_, line_.number, f[4], "words"), kMaxBlockWords, "the word count");
  if (count < 1) malformed("words=0: a block needs at least one word");
  block.words = TokenMatrix(static_cast<std::size_t>(block.length));
  const long block_line = line_.number;
  for (std::uint64_t index = 1; index <= count; ++index) {
    require_item("word", index, count, block_line);
    expect_field_count(reader_, line_, 2, "word <token>");
    const std::string_view text = line_.fields[1];
    if (text.size() != static_cast<std::size_t>(block.length))
      malformed("token " + quoted(text) + " has width " + std::to_string(text.size()) +
                ", expected the block length " + std::to_string(block.length));
    if (!block.words.append(text))
      malformed(token_problem(text, static_cast<std::size_t>(block.length)));
    block.word_lines.push_back(line_.number);
  }
  reject_extra_item("word", count, block_line);
  cert_.blocks.push_back(std::move(block));
}

}  // namespace krcheck::detail
