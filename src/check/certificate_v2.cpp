// The statements of the two rules that format 2 adds; see parser.hpp.
#include <utility>

#include "parser.hpp"

namespace krcheck::detail {

// `core C`, then C lines `keypair X Y : <step id> ...`. The count is capped because the
// checker enumerates all 2^C orientations of the key pairs.
void Parser::parse_core() {
  cert_.core_line = line_.number;
  expect_field_count(reader_, line_, 2, "core <count>");
  const auto count = integer(line_.fields[1], kMaxRows, "the number of keypairs");
  if (count > kMaxKeyPairs)
    malformed("core " + std::to_string(count) + ": at most " + std::to_string(kMaxKeyPairs) +
              " keypairs (the checker examines all 2^C orientations)");
  for (std::uint64_t index = 1; index <= count; ++index) {
    require_item("keypair", index, count, cert_.core_line);
    const auto& f = line_.fields;
    if (f.size() < 5 || f[3] != ":")
      malformed("expected 'keypair <token> <token> : <step id> ...' with at least one step id");
    KeyPairLine pair;
    pair.line = line_.number;
    pair.x = token(f[1]);
    pair.y = token(f[2]);
    if (pair.x == pair.y) malformed("a keypair needs two different key tokens");
    pair.first_step = cert_.core_steps.size();
    step_ids(4, cert_.core_steps);
    pair.step_count = f.size() - 4;
    cert_.keypairs.push_back(std::move(pair));
  }
  reject_extra_item("keypair", count, cert_.core_line);
}

// `begin-embedded`, a complete certificate read by the same parser from the same reader (so
// its errors name this file and its lines), then `end-embedded`.
void Parser::parse_embedded() {
  cert_.begin_embedded_line = line_.number;
  expect_field_count(reader_, line_, 1, "begin-embedded");
  if (!advance()) malformed_at_end("the embedded certificate's header 'kernelrank-certificate'");
  Certificate outer = std::move(cert_);
  cert_ = Certificate();
  cert_.file = outer.file;
  parse_body(true);
  auto inner = std::make_unique<Certificate>(std::move(cert_));
  cert_ = std::move(outer);
  cert_.embedded = std::move(inner);
  advance();
  require("end-embedded");
  expect_field_count(reader_, line_, 1, "end-embedded");
  cert_.end_embedded_line = line_.number;
  advance();
}

}  // namespace krcheck::detail
