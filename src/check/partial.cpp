// Partial results: writing, reading, atomic files; see partial.hpp.
#include "check/partial.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

#include "check/reader.hpp"
#include "check/status.hpp"

namespace krcheck {
namespace {

constexpr std::string_view kHeader = "kernelrank-check-partial";

class PartialReader {
 public:
  PartialReader(std::istream& in, const std::string& file) : reader_(in, file) {
    partial_.file = file;
  }

  Partial run() {
    statement("kernelrank-check-partial", 2, "kernelrank-check-partial 1");
    if (line_.fields[1] != "1")
      malformed("unsupported partial format version '" + std::string(line_.fields[1]) +
                "', expected 1");
    statement("certificate", 2, "certificate <sha256>");
    const auto digest = digest_from_hex(line_.fields[1], false);
    if (!digest) malformed("expected the certificate's SHA-256 as 64 lowercase hex digits");
    partial_.certificate = *digest;
    partial_.certificate_line = line_.number;
    parse_shard();
    statement("weight", 2, "weight <W>");
    partial_.weight_line = line_.number;
    const auto weight = integer(line_.fields[1], kMaxWidth - 1, "the weight");
    if (weight == 0) malformed("weight 0: the weight is at least 1");
    partial_.weight = static_cast<int>(weight);
    statement("pairs", 2, "pairs <count>");
    partial_.pairs_line = line_.number;
    partial_.pairs =
        integer(line_.fields[1], std::numeric_limits<std::uint64_t>::max(), "the number of pairs");
    parse_overlaps();
    parse_small_gap();
    statement("end", 1, "end");
    if (reader_.next(line_))
      malformed("unexpected '" + std::string(line_.fields[0]) + "' after 'end'");
    return std::move(partial_);
  }

 private:
  [[noreturn]] void malformed(const std::string& message) const {
    reader_.malformed(line_.number, message);
  }
  std::uint64_t integer(std::string_view text, std::uint64_t max, const std::string& what) {
    return parse_integer(reader_, line_.number, text, max, what);
  }
  // The next line must be `keyword` with `fields` fields.
  void statement(std::string_view keyword, std::size_t fields, const std::string& shape) {
    if (!reader_.next(line_))
      reader_.malformed(reader_.lines_read(), "unexpected end of file: expected '" + shape + "'");
    if (line_.fields[0] != keyword)
      malformed("expected '" + shape + "', found '" + std::string(line_.fields[0]) + "'");
    expect_field_count(reader_, line_, fields, shape);
  }

  void parse_shard() {
    statement("shard", 2, "shard <k>/<K>");
    partial_.shard_line = line_.number;
    const std::string_view text = line_.fields[1];
    const auto slash = text.find('/');
    if (slash == std::string_view::npos) malformed("expected 'shard <k>/<K>'");
    const auto max = std::numeric_limits<std::uint64_t>::max();
    partial_.shard_index = integer(text.substr(0, slash), max, "the shard number k");
    partial_.shard_count = integer(text.substr(slash + 1), max, "the shard count K");
    if (partial_.shard_index < 1 || partial_.shard_index > partial_.shard_count)
      malformed("shard " + std::string(text) + ": expected 1 <= k <= K");
  }

  void parse_overlaps() {
    auto& counts = partial_.histogram.counts;
    std::uint64_t total = 0;
    for (int o = 0; o <= partial_.weight; ++o) {
      statement("overlap", 3, "overlap <o> <count>");
      const auto value = integer(line_.fields[1], kMaxWidth, "the overlap");
      if (value != static_cast<std::uint64_t>(o))
        malformed("expected the line of overlap " + std::to_string(o) + " (overlaps 0.." +
                  std::to_string(partial_.weight) + " in order), found overlap " +
                  std::to_string(value));
      const auto count =
          integer(line_.fields[2], std::numeric_limits<std::uint64_t>::max(), "the count");
      if (count > partial_.pairs - total)
        malformed("the overlap counts so far exceed the " + std::to_string(partial_.pairs) +
                  " pairs of line " + std::to_string(partial_.pairs_line));
      total += count;
      counts.push_back(count);
    }
    if (total != partial_.pairs)
      malformed("the overlap counts sum to " + std::to_string(total) + ", but line " +
                std::to_string(partial_.pairs_line) + " says pairs " +
                std::to_string(partial_.pairs));
  }

  void parse_small_gap() {
    if (!reader_.next(line_))
      reader_.malformed(reader_.lines_read(),
                        "unexpected end of file: expected 'small-gap none' or "
                        "'small-gap <i> <j> <overlap>'");
    partial_.small_gap_line = line_.number;
    const auto& counts = partial_.histogram.counts;
    const int weight = partial_.weight;
    const std::uint64_t small = counts[static_cast<std::size_t>(weight)] +
                                (weight >= 1 ? counts[static_cast<std::size_t>(weight - 1)] : 0);
    if (line_.fields[0] == "small-gap" && line_.fields.size() == 2 && line_.fields[1] == "none") {
      if (small != 0)
        malformed("small-gap none, but the counts of overlaps " + std::to_string(weight - 1) +
                  " and " + std::to_string(weight) + " (gaps 1 and 0) are not 0");
      return;
    }
    if (line_.fields[0] != "small-gap")
      malformed("expected 'small-gap none' or 'small-gap <i> <j> <overlap>', found '" +
                std::string(line_.fields[0]) + "'");
    expect_field_count(reader_, line_, 4, "small-gap <i> <j> <overlap>");
    const auto max = static_cast<std::uint64_t>(kMaxGeneratedCount);
    SmallGap pair;
    pair.first = integer(line_.fields[1], max, "the generated row i");
    pair.second = integer(line_.fields[2], max, "the generated row j");
    const auto overlap =
        integer(line_.fields[3], static_cast<std::uint64_t>(weight), "the overlap");
    pair.overlap = static_cast<int>(overlap);
    if (pair.first < 1 || pair.first >= pair.second)
      malformed("small-gap " + std::to_string(pair.first) + " " + std::to_string(pair.second) +
                ": expected generated rows 1 <= i < j");
    if (pair.overlap < weight - 1)
      malformed("small-gap with overlap " + std::to_string(pair.overlap) + ": its gap " +
                std::to_string(weight - pair.overlap) + " is not below 2");
    if (counts[static_cast<std::size_t>(pair.overlap)] == 0)
      malformed("small-gap with overlap " + std::to_string(pair.overlap) +
                ", but the count of that overlap is 0");
    partial_.histogram.smallest = pair;
  }

  LineReader reader_;
  Line line_;
  Partial partial_;
};

}  // namespace

std::string partial_text(const Digest& certificate, std::uint64_t shard_index,
                         std::uint64_t shard_count, const OverlapHistogram& histogram) {
  std::string text = std::string(kHeader) + " 1\ncertificate " + to_hex(certificate) + "\nshard " +
                     std::to_string(shard_index) + "/" + std::to_string(shard_count) + "\nweight " +
                     std::to_string(histogram.counts.size() - 1) + "\npairs " +
                     std::to_string(histogram.pairs()) + "\n";
  for (std::size_t o = 0; o < histogram.counts.size(); ++o)
    text += "overlap " + std::to_string(o) + " " + std::to_string(histogram.counts[o]) + "\n";
  if (histogram.smallest)
    text += "small-gap " + std::to_string(histogram.smallest->first) + " " +
            std::to_string(histogram.smallest->second) + " " +
            std::to_string(histogram.smallest->overlap) + "\n";
  else
    text += "small-gap none\n";
  return text + "end\n";
}

Partial read_partial(std::istream& in, const std::string& file) {
  return PartialReader(in, file).run();
}

void write_file_atomically(const std::string& path, const std::string& text) {
  static std::atomic<unsigned> serial{0};
  const std::string temporary =
      path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial.fetch_add(1));
  const auto fail = [&](const std::string& what) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    fail_malformed(path, 0, "cannot write the partial result: " + what + ": " + reason);
  };
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create " + temporary);
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      fail("write to " + temporary);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail("fsync " + temporary);
  }
  if (::close(fd) != 0) fail("close " + temporary);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail("rename to " + path);
}

}  // namespace krcheck
