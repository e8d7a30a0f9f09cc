// SHA-256 (FIPS 180-4), written out here so the checker depends on no hashing library.
//
// A family certificate names its family file by digest; the checker hashes the file's
// bytes while it reads them and compares. Incremental: update() any number of times,
// then finish() once.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krcheck {

using Digest = std::array<std::uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);
  void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
  Digest finish();  // the object must not be used afterwards

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

Digest sha256(std::string_view bytes);
std::string to_hex(const Digest& digest);
// The digest 64 hex digits spell; nullopt for any other text. Certificates, written by hand
// too, may use capitals; the checker's own partial files only ever hold lowercase.
std::optional<Digest> digest_from_hex(std::string_view text, bool allow_uppercase);

}  // namespace krcheck
