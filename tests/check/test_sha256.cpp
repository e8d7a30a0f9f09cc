// SHA-256 against the FIPS 180-2 / NIST example vectors (expected digests copied from
// the standard's appendix and NIST's examples, not produced by this code).
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "check/reader.hpp"
#include "check/sha256.hpp"

using krcheck::sha256;
using krcheck::to_hex;

namespace {
const std::string kMessage448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
const std::string kDigest448 = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
const std::string kMessage896 =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopq"
    "rsmnopqrstnopqrstu";
const std::string kDigest896 = "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1";
const std::string kDigestMillionA =
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
}  // namespace

TEST_CASE("sha256: FIPS 180 test vectors") {
  CHECK(to_hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(to_hex(sha256("abc")) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(to_hex(sha256(kMessage448)) == kDigest448);
  CHECK(to_hex(sha256(kMessage896)) == kDigest896);
  CHECK(to_hex(sha256(std::string(1000000, 'a'))) == kDigestMillionA);
}

TEST_CASE("sha256: incremental updates split anywhere give the FIPS digest") {
  // Splitting at every offset crosses the 56- and 64-byte padding boundaries.
  for (std::size_t cut = 0; cut <= kMessage896.size(); ++cut) {
    krcheck::Sha256 hash;
    hash.update(std::string_view(kMessage896).substr(0, cut));
    hash.update(std::string_view(kMessage896).substr(cut));
    CHECK(to_hex(hash.finish()) == kDigest896);
  }
  krcheck::Sha256 bytewise;
  for (int i = 0; i < 1000000; ++i) bytewise.update("a", 1);
  CHECK(to_hex(bytewise.finish()) == kDigestMillionA);
}

TEST_CASE("sha256: the line reader hashes every byte it reads") {
  // One million 'a' in one line (no newline) and "abc" with lines and comments around it
  // would differ if the reader skipped or repeated any block.
  std::istringstream million(std::string(1000000, 'a'));
  krcheck::Sha256 hash;
  krcheck::LineReader reader(million, "a.txt", &hash);
  krcheck::Line line;
  CHECK(reader.next(line));
  CHECK(line.fields.size() == 1);
  CHECK(line.fields[0].size() == 1000000);
  CHECK_FALSE(reader.next(line));
  CHECK(to_hex(hash.finish()) == kDigestMillionA);

  std::istringstream abc("abc");
  krcheck::Sha256 hash_abc;
  krcheck::LineReader reader_abc(abc, "abc.txt", &hash_abc);
  CHECK(reader_abc.next(line));
  CHECK_FALSE(reader_abc.next(line));
  CHECK(to_hex(hash_abc.finish()) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
