// Rule trace-uniform (generated rows): the generator against reference values, and the
// promise that the output depends neither on the thread count nor on sharding. The sums
// and bounds of the corpus certificates used here come from tests/check/generated_reference.py
// (Python, pair by pair, with fractions), through tests/certs/generate.py.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../source_dir.hpp"
#include "check/check.hpp"
#include "check/command_line.hpp"
#include "check/generated_rows.hpp"
#include "check/partial.hpp"
#include "check/tokens.hpp"
#include "check/uniform_rule.hpp"

using krcheck::CheckOptions;
using krcheck::NamedInput;
using krcheck::Status;

namespace {

const std::string kCorpus = std::string(KERNELRANK_SOURCE_DIR) + "/tests/certs/";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.is_open());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool has(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

struct Outcome {
  krcheck::CheckResult result;
  std::string out;
  std::string err;
};

Outcome check(const std::string& text, const CheckOptions& options,
              const std::string& name = "g.cert") {
  std::istringstream in(text);
  std::ostringstream out;
  std::ostringstream err;
  Outcome outcome;
  outcome.result =
      krcheck::check_certificate(NamedInput{name, &in}, std::nullopt, out, err, options);
  outcome.out = out.str();
  outcome.err = err.str();
  return outcome;
}

Outcome with_threads(const std::string& text, int threads) {
  CheckOptions options;
  options.threads = threads;
  return check(text, options);
}

Outcome shard(const std::string& text, std::uint64_t k, std::uint64_t shards, int threads = 1) {
  CheckOptions options;
  options.threads = threads;
  options.shard = std::make_pair(k, shards);
  return check(text, options);
}

Outcome merge(const std::string& text,
              const std::vector<std::pair<std::string, std::string>>& partials) {
  std::istringstream in(text);
  std::vector<std::istringstream> streams;
  streams.reserve(partials.size());
  std::vector<NamedInput> inputs;
  for (const auto& [name, body] : partials) {
    streams.emplace_back(body);
    inputs.push_back(NamedInput{name, &streams.back()});
  }
  std::ostringstream out;
  std::ostringstream err;
  Outcome outcome;
  outcome.result = krcheck::merge_partials(NamedInput{"g.cert", &in}, inputs, out, err);
  outcome.out = out.str();
  outcome.err = err.str();
  return outcome;
}

// The partials of all K shards, named p1 .. pK.
std::vector<std::pair<std::string, std::string>> all_shards(const std::string& text,
                                                            std::uint64_t shards) {
  std::vector<std::pair<std::string, std::string>> partials;
  for (std::uint64_t k = 1; k <= shards; ++k) {
    const Outcome run = shard(text, k, shards, static_cast<int>(k % 3));  // 1, 2 or 0 threads
    REQUIRE(!run.result.partial.empty());
    partials.emplace_back("p" + std::to_string(k), run.result.partial);
  }
  return partials;
}

std::string without_line(const std::string& text, const std::string& line) {
  std::string copy = text;
  const auto at = copy.find(line + "\n");
  if (at != std::string::npos) copy.erase(at, line.size() + 1);
  return copy;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// The SplitMix64 state whose next() returns `output`: the mixing steps are invertible
// (xor-shifts, and products by odd constants), so a test can reach the rare draws.
std::uint64_t state_before(std::uint64_t output) {
  const auto inverse = [](std::uint64_t a) {  // a^-1 mod 2^64 by Newton's iteration
    std::uint64_t x = a;
    for (int t = 0; t < 6; ++t) x *= 2 - a * x;
    return x;
  };
  const auto unshift = [](std::uint64_t y, int k) {
    std::uint64_t z = y;
    for (int t = 0; t < 64 / k + 1; ++t) z = y ^ (z >> k);
    return z;
  };
  std::uint64_t z = unshift(output, 31);
  z = unshift(z * inverse(0x94D049BB133111EBu), 27);
  z = unshift(z * inverse(0xBF58476D1CE4E5B9u), 30);
  return z - 0x9E3779B97F4A7C15u;  // the seed whose first next() mixes z
}

std::string word_text(const std::vector<std::uint64_t>& word, int width) {
  return krcheck::token_text(word.data(), static_cast<std::size_t>(width));
}

}  // namespace

TEST_CASE("generated: SplitMix64 and the word sampler match the reference values") {
  // Seed 0: the published first outputs of SplitMix64 (and generated_reference.py's).
  krcheck::SplitMix64 zero(0);
  CHECK(zero.next() == 0xE220A8397B1DCDAFu);
  CHECK(zero.next() == 0x6E789E6AA1B965F4u);
  CHECK(zero.next() == 0x06C45D188009454Fu);
  // Seed 1: below(8), below(7), below(6), below(5) as generated_reference.py draws them.
  krcheck::SplitMix64 one(1);
  CHECK(one.below(8) == 1);
  CHECK(one.below(7) == 0);
  CHECK(one.below(6) == 0);
  CHECK(one.below(5) == 0);
  // The rejection step: with bound 3, threshold = 2^64 mod 3 = 1, so a draw of 0 is thrown
  // away and the next draw decides; with bound 4 (threshold 0) the 0 is taken.
  const std::uint64_t seed = state_before(0);
  CHECK(krcheck::SplitMix64(seed).next() == 0);
  krcheck::SplitMix64 reference(seed);
  reference.next();
  const std::uint64_t second = reference.next();
  krcheck::SplitMix64 three(seed);
  CHECK(three.below(3) == second % 3);
  CHECK(three.next() == reference.next());  // exactly two draws were used
  krcheck::SplitMix64 four(seed);
  CHECK(four.below(4) == 0);
  // Draws just below and at the threshold of bound 4095: (2^64 - 4095) mod 4095 = 16.
  CHECK((0 - std::uint64_t{4095}) % 4095 == 16);
  krcheck::SplitMix64 low(state_before(15));
  krcheck::SplitMix64 low_reference(state_before(15));
  low_reference.next();
  CHECK(low.below(4095) == low_reference.next() % 4095);
  krcheck::SplitMix64 at(state_before(16));
  CHECK(at.below(4095) == 16);
  // seed=1, M=8, W=4: the first five words (docs/certificate-format.md quotes them).
  krcheck::WordGenerator generator(1, 8, 4);
  std::vector<std::uint64_t> word(1);
  const std::vector<std::string> expected = {"11110000", "01010110", "11010100", "11000011",
                                             "00011110"};
  for (const auto& text : expected) {
    generator.next(word.data());
    CHECK(word_text(word, 8) == text);
  }
  // Words wider than one machine word, and the weight is always exactly W.
  krcheck::WordGenerator wide(99, 100, 37);
  std::vector<std::uint64_t> two(2);
  for (int t = 0; t < 50; ++t) {
    wide.next(two.data());
    CHECK(std::popcount(two[0]) + std::popcount(two[1]) == 37);
    CHECK((two[1] >> 36) == 0);  // coordinates 100..127 stay zero
  }
}

TEST_CASE("generated: the partial pair counts of the shards add up to all pairs") {
  for (const std::uint64_t kept : {1ull, 2ull, 2048ull, 2049ull, 5000ull, 100000ull}) {
    for (const std::uint64_t shards : {1ull, 2ull, 3ull, 7ull, 1000ull}) {
      std::uint64_t total = 0;
      for (std::uint64_t k = 1; k <= shards; ++k)
        total += krcheck::shard_pair_count(kept, k, shards);
      CHECK(total == kept * (kept - 1) / 2);
    }
  }
  // 5000 rows: tiles of 2048, 2048, 904; tile pairs (0,0) (0,1) (0,2) (1,1) (1,2) (2,2).
  CHECK(krcheck::shard_pair_count(5000, 1, 3) == 2048ull * 2047 / 2 + 2048ull * 2047 / 2);
  CHECK(krcheck::shard_pair_count(5000, 2, 3) == 2048ull * 2048 + 2048ull * 904);
  CHECK(krcheck::shard_pair_count(5000, 3, 3) == 2048ull * 904 + 904ull * 903 / 2);
}

TEST_CASE("generated: 1, 2 and 3 threads give byte-identical output") {
  for (const char* name :
       {"valid/generated_m64_w32_5000.cert", "valid/generated_m24_w12_two_tiles_drops.cert",
        "invalid/generated_small_gap_in_second_tile.cert", "invalid/generated_altered_seed.cert"}) {
    CAPTURE(name);
    const std::string text = read_file(kCorpus + name);
    const Outcome one = with_threads(text, 1);
    for (const int threads : {2, 3, 0}) {
      const Outcome other = with_threads(text, threads);
      CHECK(other.result.status == one.result.status);
      CHECK(other.out == one.out);
      CHECK(other.err == one.err);
    }
  }
  const Outcome valid = with_threads(read_file(kCorpus + "valid/generated_m64_w32_5000.cert"), 2);
  CHECK(valid.result.status == Status::verified);
  CHECK(valid.result.bound == "2115");  // generated_reference.py: T = 2114.33...
  CHECK(has(valid.out, "c pairs: 12497500 unordered pairs of kept rows (24995000 ordered)"));
  const Outcome gap =
      with_threads(read_file(kCorpus + "invalid/generated_small_gap_in_second_tile.cert"), 3);
  CHECK(gap.result.status == Status::not_verified);
  CHECK(gap.err ==
        "g.cert:4: error: generated rows 58 and 2290: gap G = W - |c_i AND c_j| = 12 - 11 = 1 "
        "< 2\n");
}

TEST_CASE("generated: the explicit-rows trace pass gives the same output on any thread count") {
  for (const char* name :
       {"valid/golay_dodecads_m24.cert", "valid/hamming_m8_rows14.cert", "valid/wide_m130.cert",
        "invalid/gap_one.cert", "invalid/wide_m130_small_gap.cert", "invalid/sum_plus_one.cert"}) {
    CAPTURE(name);
    const std::string text = read_file(kCorpus + name);
    const Outcome one = with_threads(text, 1);
    for (const int threads : {2, 3}) {
      const Outcome other = with_threads(text, threads);
      CHECK(other.result.status == one.result.status);
      CHECK(other.out == one.out);
      CHECK(other.err == one.err);
    }
  }
}

TEST_CASE("generated: K shards merged give the unsharded output") {
  for (const char* name :
       {"valid/generated_m64_w32_5000.cert", "valid/generated_m24_w12_two_tiles_drops.cert",
        "valid/generated_single_kept_row.cert", "invalid/generated_altered_count.cert",
        "invalid/generated_claim_too_strong.cert",
        "invalid/generated_small_gap_in_second_tile.cert"}) {
    CAPTURE(name);
    const std::string text = read_file(kCorpus + name);
    const Outcome whole = with_threads(text, 2);
    for (const std::uint64_t shards : {1ull, 2ull, 3ull, 7ull, 25ull}) {
      CAPTURE(shards);
      const Outcome merged = merge(text, all_shards(text, shards));
      const std::string line = "c merged " + std::to_string(shards) + " shards";
      CHECK(has(merged.out, line + "\n"));
      CHECK(without_line(merged.out, line) == whole.out);
      CHECK(merged.err == whole.err);
      CHECK(merged.result.status == whole.result.status);
      CHECK(merged.result.bound == whole.result.bound);
    }
  }
}

TEST_CASE("generated: a shard run prints s PARTIAL, or the shard's own gap below 2") {
  const std::string text = read_file(kCorpus + "valid/generated_m64_w32_5000.cert");
  const Outcome second = shard(text, 2, 3, 2);
  CHECK(second.result.status == Status::partial);
  CHECK(krcheck::exit_code(Status::partial) == 0);
  CHECK(second.err.empty());
  CHECK(has(second.out, "c shard 2/3: 6045696 of the 12497500 unordered pairs"));
  CHECK(second.out.substr(second.out.size() - 10) == "s PARTIAL\n");
  CHECK(second.result.partial.rfind("kernelrank-check-partial 1\ncertificate ", 0) == 0);
  CHECK(has(second.result.partial, "\nshard 2/3\nweight 32\npairs 6045696\noverlap 0 0\n"));
  CHECK(has(second.result.partial, "\nsmall-gap none\nend\n"));
  // The same shard on another thread count writes the same partial.
  CHECK(shard(text, 2, 3, 1).result.partial == second.result.partial);

  // The pair (58, 2290) lies in tile pair (0, 1), which shard 2 of 3 counts.
  const std::string gap = read_file(kCorpus + "invalid/generated_small_gap_in_second_tile.cert");
  const Outcome failing = shard(gap, 2, 3);
  CHECK(failing.result.status == Status::not_verified);
  CHECK(has(failing.err, "generated rows 58 and 2290: gap G"));
  CHECK(has(failing.result.partial, "\nsmall-gap 58 2290 11\n"));
  // Every shard names its own smallest pair, never one before the global smallest.
  for (std::uint64_t k = 1; k <= 3; ++k) {
    const Outcome run = shard(gap, k, 3);
    const auto at = run.result.partial.find("\nsmall-gap ");
    REQUIRE(at != std::string::npos);
    std::istringstream fields(run.result.partial.substr(at + 11));
    std::string first;
    fields >> first;
    if (first == "none") {
      CHECK(run.result.status == Status::partial);
      continue;
    }
    CHECK(run.result.status == Status::not_verified);
    std::uint64_t j = 0;
    fields >> j;
    const std::uint64_t i = std::stoull(first);
    CHECK((i > 58 || (i == 58 && j >= 2290)));
    CHECK(has(run.err, "generated rows " + first + " and " + std::to_string(j) + ": "));
  }

  // Only rule trace-uniform can be sharded, and k/K must make sense.
  const Outcome explicit_rows = shard(read_file(kCorpus + "valid/spec_example.cert"), 1, 2);
  CHECK(explicit_rows.result.status == Status::malformed);
  CHECK(has(explicit_rows.err,
            "g.cert:4: error: a check in shards is for rule trace-uniform certificates only"));
  CHECK(explicit_rows.result.partial.empty());
  CHECK(shard(text, 4, 3).result.status == Status::malformed);
  CHECK(shard(text, 0, 3).result.status == Status::malformed);
  // A malformed certificate stays malformed in a shard run, with no partial.
  const Outcome bad = shard(read_file(kCorpus + "malformed/generated_weight_m.cert"), 1, 2);
  CHECK(bad.result.status == Status::malformed);
  CHECK(bad.result.partial.empty());
}

TEST_CASE("generated: merge rejects missing, duplicate, foreign and malformed partials") {
  const std::string text = read_file(kCorpus + "valid/generated_m64_w32_5000.cert");
  const auto partials = all_shards(text, 3);
  const auto rejected = [&](const std::vector<std::pair<std::string, std::string>>& given,
                            const std::string& message, const std::string& cert = "") {
    const Outcome run = merge(cert.empty() ? text : cert, given);
    CHECK(run.result.status == Status::malformed);
    CHECK(krcheck::exit_code(run.result.status) == 2);
    CHECK(run.err == message + "\n");
    CHECK(has(run.out, "s NOT VERIFIED\n"));
    CHECK(!has(run.out, "c merged"));
  };
  rejected({partials[0], partials[2]},
           "p1:3: error: shard 2 of 3 is missing: 2 partial result(s) given, every k = 1..3 must "
           "appear once");
  rejected({partials[0], partials[1], partials[1], partials[2]},
           "p2:3: error: shard 2/3 again: p2 (line 3) is the same shard");
  // A partial of another certificate.
  const std::string other = read_file(kCorpus + "valid/generated_m32_w16.cert");
  const auto other_partials = all_shards(other, 3);
  const std::string digest_line = partials[0].second.substr(0, partials[0].second.find("\nshard"));
  rejected(
      {partials[0], other_partials[1], partials[2]},
      "p2:2: error: this partial result is of the certificate with SHA-256 " +
          other_partials[1].second.substr(other_partials[1].second.find("certificate ") + 12, 64) +
          ", not of g.cert (SHA-256 " + digest_line.substr(digest_line.size() - 64) + ")");
  // Shards of another K.
  const auto four = all_shards(text, 4);
  rejected({partials[0], four[1], partials[2]},
           "p2:3: error: shard 2/4, but p1 (line 3) is a shard of 3");
  // Tampered partials: a count moved between overlaps keeps the sum (undetectable by
  // design: partials are trusted outputs), but any change of a sum is caught.
  auto tampered = partials;
  tampered[1].second = replaced(tampered[1].second, "pairs 6045696", "pairs 6045697");
  rejected({partials[0], tampered[1], partials[2]},
           "p2:38: error: the overlap counts sum to 6045696, but line 5 says pairs 6045697");
  tampered = partials;
  tampered[1].second =
      replaced(tampered[1].second, "kernelrank-check-partial 1", "kernelrank-check-partial 2");
  rejected({partials[0], tampered[1], partials[2]},
           "p2:1: error: unsupported partial format version '2', expected 1");
  tampered = partials;
  tampered[1].second = replaced(tampered[1].second, "weight 32", "weight 31");
  rejected(
      {partials[0], tampered[1], partials[2]},
      "p2:38: error: expected 'small-gap none' or 'small-gap <i> <j> <overlap>', found 'overlap'");
  tampered = partials;
  tampered[1].second = replaced(tampered[1].second, "overlap 3 0", "overlap 4 0");
  rejected(
      {partials[0], tampered[1], partials[2]},
      "p2:9: error: expected the line of overlap 3 (overlaps 0..32 in order), found overlap 4");
  tampered = partials;
  tampered[1].second = replaced(tampered[1].second, "small-gap none", "small-gap 1 2 31");
  rejected({partials[0], tampered[1], partials[2]},
           "p2:39: error: small-gap with overlap 31, but the count of that overlap is 0");
  tampered = partials;
  tampered[1].second = replaced(tampered[1].second, "end\n", "end\nend\n");
  rejected({partials[0], tampered[1], partials[2]}, "p2:41: error: unexpected 'end' after 'end'");
  tampered = partials;
  tampered[1].second = tampered[1].second.substr(0, tampered[1].second.size() - 4);
  rejected({partials[0], tampered[1], partials[2]},
           "p2:39: error: unexpected end of file: expected 'end'");
  // A whole shard's pairs claimed by a partial of another shard number: its pair count is
  // not that shard's.
  tampered = partials;
  tampered[2].second = replaced(tampered[2].second, "shard 3/3", "shard 2/3");
  tampered[1].second = replaced(tampered[1].second, "shard 2/3", "shard 3/3");
  rejected(
      {partials[0], tampered[1], tampered[2]},
      "p2:5: error: pairs 6045696, but shard 3 of 3 holds 2259548 pairs of the 5000 kept rows");
  // The rule must be trace-uniform, and there must be partials.
  rejected({partials[0]},
           "g.cert:4: error: only rule trace-uniform certificates are checked in "
           "shards and merged",
           read_file(kCorpus + "valid/spec_example.cert"));
  rejected({}, "g.cert:0: error: no partial results to merge");
  // A small-gap line must name kept rows: here one count moved to overlap 16 (W), so the
  // sums still match, and the pair names row 250, which the certificate drops.
  const std::string drops = read_file(kCorpus + "valid/generated_m32_w16_three_drops.cert");
  auto dropped = all_shards(drops, 1);
  std::string& body = dropped[0].second;
  const auto line = body.find("\noverlap 8 ");
  REQUIRE(line != std::string::npos);
  const auto value_at = line + 11;
  const auto value_end = body.find('\n', value_at);
  const std::uint64_t count = std::stoull(body.substr(value_at, value_end - value_at));
  REQUIRE(count > 0);
  body.replace(value_at, value_end - value_at, std::to_string(count - 1));
  body = replaced(body, "overlap 16 0\nsmall-gap none", "overlap 16 1\nsmall-gap 250 251 16");
  rejected(dropped,
           "p1:23: error: small-gap names generated row 250, which the certificate drops "
           "(count=500)",
           drops);
  body = replaced(body, "small-gap 250 251 16", "small-gap 251 501 16");
  rejected(dropped,
           "p1:23: error: small-gap names generated row 501, which the certificate does not "
           "generate (count=500)",
           drops);
  // Mended, the same partial merges to the unsharded verdict: not verified at rows 251, 252.
  body = replaced(body, "small-gap 251 501 16", "small-gap 251 252 16");
  const Outcome forged = merge(drops, dropped);
  CHECK(forged.result.status == Status::not_verified);
  CHECK(forged.err ==
        "g.cert:4: error: generated rows 251 and 252: gap G = W - |c_i AND c_j| = 16 - 16 = 0 "
        "< 2\n");
}

TEST_CASE("generated: the command line writes partials atomically and merges them") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("kernelrank-check-shards-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string cert = kCorpus + "valid/generated_m24_w12_two_tiles_drops.cert";
  const auto run = [](const std::vector<std::string>& args, std::string* out_text = nullptr,
                      std::string* err_text = nullptr) {
    std::ostringstream out;
    std::ostringstream err;
    const int code = krcheck::run_command_line(args, out, err);
    if (out_text) *out_text = out.str();
    if (err_text) *err_text = err.str();
    return code;
  };
  std::string whole;
  CHECK(run({"--threads", "2", cert}, &whole) == 0);
  std::string one;
  CHECK(run({"--threads", "1", cert}, &one) == 0);
  CHECK(one == whole);
  std::vector<std::string> merge_args = {"--merge", cert};
  for (int k = 1; k <= 3; ++k) {
    const std::string out = (dir / ("p" + std::to_string(k))).string();
    std::string text;
    CHECK(run({"--threads", std::to_string(k - 1), "--shard", std::to_string(k) + "/3", "--partial",
               out, cert},
              &text) == 0);
    CHECK(has(text, "s PARTIAL\n"));
    CHECK(std::filesystem::exists(out));
    merge_args.push_back(out);
  }
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  CHECK(files == 3);  // no temporary files left behind
  std::string merged;
  CHECK(run(merge_args, &merged) == 0);
  CHECK(without_line(merged, "c merged 3 shards") == whole);
  // Usage errors: exit 2, one usage error, NOT VERIFIED.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--shard", "1/3", cert},
           {"--partial", (dir / "x").string(), cert},
           {"--shard", "0/3", "--partial", (dir / "x").string(), cert},
           {"--shard", "4/3", "--partial", (dir / "x").string(), cert},
           {"--shard", "1-3", "--partial", (dir / "x").string(), cert},
           {"--threads", "x", cert},
           {"--threads", "-1", cert},
           {"--threads", "2000", cert},
           {"--threads"},
           {"--merge", cert},
           {"--merge", "--shard", "1/2", cert, "p"},
           {"--shard", "1/2", "--partial", cert, cert},
           {"--frobnicate", cert},
           {}}) {
    CAPTURE(args.size());
    std::string out;
    std::string err;
    CHECK(run(args, &out, &err) == 2);
    CHECK(out == "s NOT VERIFIED\n");
    CHECK(err.rfind("kernelrank-check: error: usage: ", 0) == 0);
  }
  CHECK(!std::filesystem::exists(dir / "x"));
  // A partial that cannot be written: exit 2, NOT VERIFIED instead of PARTIAL, no file.
  const std::string unwritable = (dir / "no-such-dir" / "p1").string();
  std::string out;
  std::string err;
  CHECK(run({"--shard", "1/3", "--partial", unwritable, cert}, &out, &err) == 2);
  CHECK(has(out, "s NOT VERIFIED\n"));
  CHECK(!has(out, "s PARTIAL"));
  CHECK(has(err, unwritable + ":0: error: cannot write the partial result"));
  CHECK(!std::filesystem::exists(unwritable));
  std::filesystem::remove_all(dir);
}
