// Tests for line-oriented text input (include/kernelrank/core/text_input.hpp) and
// atomic output files (src/core/atomic_write.hpp).
#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

using kernelrank::InputError;
using kernelrank::key_value;
using kernelrank::OutputError;
using kernelrank::read_file_checked;
using kernelrank::TextLine;
using kernelrank::TextReader;

namespace fs = std::filesystem;

namespace {

using Fields = std::vector<std::string>;

// Runs `action`, which must throw InputError, and returns the error.
InputError input_error_from(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  return InputError("", 0, "");
}

// All non-blank lines as (number, fields).
std::vector<std::pair<std::size_t, Fields>> read_all(const std::string& contents) {
  TextReader reader("mem.txt", contents);
  std::vector<std::pair<std::size_t, Fields>> lines;
  while (const auto line = reader.next()) lines.emplace_back(line->number, line->fields);
  return lines;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A fresh, empty directory under the system temporary directory, removed at the end.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device entropy;
    path_ = fs::temp_directory_path() /
            ("kernelrank-test-" + std::to_string(getpid()) + "-" + std::to_string(entropy()));
    fs::create_directory(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const fs::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::set<std::string> entries() const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_))
      names.insert(entry.path().filename().string());
    return names;
  }

 private:
  fs::path path_;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_raw(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary);
  out << contents;
}

}  // namespace

// ---- TextReader ----------------------------------------------------------------

TEST_CASE("text: comments and blank lines are skipped, line numbers kept") {
  const auto lines = read_all(
      "# header comment\n"
      "\n"
      "  a b\t c # trailing comment\n"
      "   \n"
      "\t\n"
      "#x y z\n"
      "d#no space before the comment\n"
      "e");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].first == 3);
  CHECK(lines[0].second == Fields{"a", "b", "c"});
  CHECK(lines[1].first == 7);
  CHECK(lines[1].second == Fields{"d"});
  CHECK(lines[2].first == 8);  // last line without a newline
  CHECK(lines[2].second == Fields{"e"});

  TextReader reader("mem.txt", "x\n");
  REQUIRE(reader.next().has_value());
  CHECK(reader.current_line() == 1);
  CHECK_FALSE(reader.next().has_value());
  CHECK_FALSE(reader.next().has_value());  // stays at end

  CHECK(read_all("").empty());
  CHECK(read_all("\n\n# only comments\n").empty());
}

TEST_CASE("text: CRLF line endings are tolerated") {
  const auto lines = read_all("a b\r\n\r\n# comment\r\nc\r\nd # x\r\n");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].first == 1);
  CHECK(lines[0].second == Fields{"a", "b"});
  CHECK(lines[1].first == 4);
  CHECK(lines[1].second == Fields{"c"});
  CHECK(lines[2].first == 5);
  CHECK(lines[2].second == Fields{"d"});
}

TEST_CASE("text: control characters inside a line are rejected with its number") {
  const InputError cr = input_error_from([] { (void)read_all("ok\n\na\rb\n"); });
  CHECK(cr.line() == 3);
  const InputError soh = input_error_from([] { (void)read_all("# c\nx \x01y\n"); });
  CHECK(soh.line() == 2);
  // In a comment they are harmless.
  CHECK(read_all("x # \x01\n").size() == 1);
}

TEST_CASE("text: NUL bytes and invalid UTF-8 are rejected naming the line") {
  struct Case {
    std::string contents;
    std::size_t line;
  };
  const std::vector<Case> cases = {
      {std::string("a\nb\n\0c\n", 7), 3},
      {std::string("\0", 1), 1},
      {"a\n\xff\n", 2},
      {"# ok\n\n\nx \xe2\x82", 4},   // truncated 3-byte sequence at end of file
      {"x\n\x80\n", 2},              // lone continuation byte
      {"\xc0\xaf\n", 1},             // overlong '/'
      {"\xc1\xbf\n", 1},             // overlong
      {"a\n\xe0\x80\xaf\n", 2},      // overlong 3-byte '/'
      {"a\n\xed\xa0\x80\n", 2},      // UTF-16 surrogate U+D800
      {"a\n\xf0\x80\x80\xaf\n", 2},  // overlong 4-byte
      {"a\n\xf4\x90\x80\x80\n", 2},  // U+110000, beyond Unicode
      {"a\n\xf5\x80\x80\x80\n", 2},
      {"a\n# comment \xe2\x28\xa1\n", 2},  // bad continuation in a comment
      {"\xf0\x9f\x98", 1},                 // truncated 4-byte at end
  };
  for (const Case& c : cases) {
    CAPTURE(c.line);
    const InputError e = input_error_from([&] { TextReader reader("bad.txt", c.contents); });
    CHECK(e.file() == "bad.txt");
    CHECK(e.line() == c.line);
    CHECK(std::string(e.what()).rfind("bad.txt:" + std::to_string(c.line) + ": error: ", 0) == 0);
  }
}

TEST_CASE("text: valid multi-byte UTF-8 is accepted") {
  // 2-, 3- and 4-byte sequences, including the boundary code points
  // U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000 and U+10FFFF.
  const auto lines = read_all(
      "# caf\xc3\xa9 \xe2\x80\x93 \xe2\x88\x91 \xf0\x9d\x94\xbd\n"
      "# \xc2\x80 \xdf\xbf \xe0\xa0\x80 \xed\x9f\xbf \xee\x80\x80 \xef\xbf\xbf\n"
      "# \xf0\x90\x80\x80 \xf4\x8f\xbf\xbf\n"
      "1 2 # \xe2\x9c\x93\n");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].first == 4);
  CHECK(lines[0].second == Fields{"1", "2"});
}

TEST_CASE("text: field converters name the file, line and field") {
  TextReader reader("model.txt", "\n# comment\nw 1/2 abc 0101 7\n");
  const std::optional<TextLine> line = reader.next();
  REQUIRE(line.has_value());
  REQUIRE(line->number == 3);
  CHECK(reader.rational_field(*line, 1, "a weight") == kernelrank::Rational(1) / 2);
  CHECK(reader.token_field(*line, 3, 4, "a token").to_string() == "0101");
  CHECK(reader.integer_field(*line, 4, 1, 7, "a count") == 7);

  const auto starts_at_line_3 = [](const InputError& e) {
    return std::string(e.what()).rfind("model.txt:3: error: ", 0) == 0;
  };

  SUBCASE("bad rational") {
    const InputError e =
        input_error_from([&] { (void)reader.rational_field(*line, 2, "a weight"); });
    CHECK(starts_at_line_3(e));
    CHECK(e.line() == 3);
    CHECK(contains(e.what(), "field 3"));
    CHECK(contains(e.what(), "a weight"));
    CHECK(contains(e.what(), "abc"));
  }
  SUBCASE("missing rational") {
    const InputError e =
        input_error_from([&] { (void)reader.rational_field(*line, 5, "a weight"); });
    CHECK(starts_at_line_3(e));
    CHECK(contains(e.what(), "field 6"));
    CHECK(contains(e.what(), "end of line"));
  }
  SUBCASE("token of the wrong width") {
    const InputError e =
        input_error_from([&] { (void)reader.token_field(*line, 3, 5, "a token"); });
    CHECK(starts_at_line_3(e));
    CHECK(contains(e.what(), "field 4"));
    CHECK(contains(e.what(), "a token"));
  }
  SUBCASE("token with a bad character") {
    const InputError e =
        input_error_from([&] { (void)reader.token_field(*line, 2, 3, "a token"); });
    CHECK(starts_at_line_3(e));
    CHECK(contains(e.what(), "field 3"));
  }
  SUBCASE("missing token") {
    const InputError e =
        input_error_from([&] { (void)reader.token_field(*line, 9, 4, "a token"); });
    CHECK(starts_at_line_3(e));
    CHECK(contains(e.what(), "field 10"));
  }
  SUBCASE("integer out of range") {
    const InputError e =
        input_error_from([&] { (void)reader.integer_field(*line, 4, 1, 6, "a count"); });
    CHECK(starts_at_line_3(e));
    CHECK(contains(e.what(), "field 5"));
    CHECK(contains(e.what(), "1..6"));
    CHECK(contains(e.what(), "'7'"));
  }
  SUBCASE("integer field that is not an integer") {
    const InputError e =
        input_error_from([&] { (void)reader.integer_field(*line, 1, 0, 100, "a count"); });
    CHECK(starts_at_line_3(e));
    CHECK(contains(e.what(), "field 2"));
  }
  SUBCASE("missing integer") {
    const InputError e =
        input_error_from([&] { (void)reader.integer_field(*line, 5, 0, 9, "a count"); });
    CHECK(starts_at_line_3(e));
    CHECK(contains(e.what(), "field 6"));
  }
}

TEST_CASE("text: integer_field accepts exactly the integers in range") {
  TextReader reader("ints.txt",
                    "0 -3 +3 18446744073709551617 999999999999999999 3.0 -0 - 0x1 07\n");
  const auto line = reader.next();
  REQUIRE(line.has_value());
  CHECK(reader.integer_field(*line, 0, 0, 0, "x") == 0);
  CHECK(reader.integer_field(*line, 1, -5, 5, "x") == -3);
  CHECK_THROWS_AS((void)reader.integer_field(*line, 1, 0, 5, "x"), InputError);
  CHECK_THROWS_AS((void)reader.integer_field(*line, 2, 0, 5, "x"), InputError);
  // Beyond 64 bits: rejected, not wrapped.
  CHECK_THROWS_AS((void)reader.integer_field(*line, 3, 0, 1000, "x"), InputError);
  CHECK(reader.integer_field(*line, 4, 0, 999'999'999'999'999'999LL, "x") ==
        999'999'999'999'999'999LL);
  CHECK_THROWS_AS((void)reader.integer_field(*line, 4, 0, 999'999'999'999'999'998LL, "x"),
                  InputError);
  CHECK_THROWS_AS((void)reader.integer_field(*line, 5, 0, 5, "x"), InputError);
  // Only canonical spellings, as the certificate checker requires: no "-0", no "07".
  CHECK_THROWS_AS((void)reader.integer_field(*line, 6, -1, 1, "x"), InputError);
  CHECK_THROWS_AS((void)reader.integer_field(*line, 7, -5, 5, "x"), InputError);
  CHECK_THROWS_AS((void)reader.integer_field(*line, 8, 0, 5, "x"), InputError);
  CHECK_THROWS_AS((void)reader.integer_field(*line, 9, 0, 10, "x"), InputError);
}

TEST_CASE("text: fail reports the given line") {
  TextReader reader("f.txt", "a\n");
  const InputError e = input_error_from([&] { reader.fail(12, "expected something"); });
  CHECK(std::string(e.what()) == "f.txt:12: error: expected something");
  CHECK(e.message() == "expected something");
  CHECK(e.line() == 12);
  CHECK(reader.name() == "f.txt");
}

TEST_CASE("text: key_value") {
  CHECK(key_value("m=5", "m") == std::optional<std::string_view>("5"));
  CHECK(key_value("n=100", "n") == std::optional<std::string_view>("100"));
  CHECK(key_value("m=a=b", "m") == std::optional<std::string_view>("a=b"));
  CHECK_FALSE(key_value("m5", "m").has_value());
  CHECK_FALSE(key_value("mm=5", "m").has_value());
  CHECK_FALSE(key_value("n=5", "m").has_value());
  CHECK_FALSE(key_value("m", "m").has_value());
  CHECK_FALSE(key_value("", "m").has_value());
  CHECK_FALSE(key_value("=5", "m").has_value());
  CHECK_FALSE(key_value("M=5", "m").has_value());
}

TEST_CASE("text: reading files from disk") {
  ScratchDir dir;
  const std::string missing = dir.file("does-not-exist.txt");
  const InputError e = input_error_from([&] { (void)read_file_checked(missing); });
  CHECK(e.line() == 0);
  CHECK(e.file() == missing);
  CHECK(std::string(e.what()).rfind(missing + ":0: error: ", 0) == 0);
  CHECK(input_error_from([&] { TextReader reader(missing); }).line() == 0);

  const std::string good = dir.file("good.txt");
  const std::string text = "# c\xc3\xa9\r\n1 2\n\n3\n";
  write_raw(good, text);
  CHECK(read_file_checked(good) == text);
  TextReader reader(good);
  CHECK(reader.name() == good);
  const auto first = reader.next();
  REQUIRE(first.has_value());
  CHECK(first->number == 2);
  CHECK(first->fields == Fields{"1", "2"});

  const std::string empty = dir.file("empty.txt");
  write_raw(empty, "");
  CHECK(read_file_checked(empty).empty());

  // read_file_checked applies the same encoding checks as TextReader.
  const std::string binary = dir.file("binary.txt");
  write_raw(binary, std::string("ok\nok\n\0", 7));
  const InputError nul = input_error_from([&] { (void)read_file_checked(binary); });
  CHECK(nul.line() == 3);
  CHECK(nul.file() == binary);
  CHECK(input_error_from([&] { TextReader r(binary); }).line() == 3);

  const std::string latin1 = dir.file("latin1.txt");
  write_raw(latin1, "caf\xe9\n");
  CHECK(input_error_from([&] { (void)read_file_checked(latin1); }).line() == 1);

  // A directory is not a readable text file, and the message says so (it used to say
  // "file larger than 1 GiB", the size a directory reports when read as a file).
  const InputError directory =
      input_error_from([&] { (void)read_file_checked(dir.path().string()); });
  CHECK(directory.line() == 0);
  CHECK(directory.message() == "is a directory, expected a file");
}

// ---- write_file_atomically -------------------------------------------------------

TEST_CASE("text: write_file_atomically creates and overwrites files whole") {
  ScratchDir dir;
  const std::string path = dir.file("out.txt");
  const std::string first = std::string("line 1\nbinary \0 byte\n", 21) + std::string(100'000, 'x');
  kernelrank::write_file_atomically(path, first);
  CHECK(slurp(path) == first);
  CHECK(dir.entries() == std::set<std::string>{"out.txt"});

  // Overwriting with something shorter leaves no tail of the old contents.
  kernelrank::write_file_atomically(path, "short\n");
  CHECK(slurp(path) == "short\n");
  CHECK(fs::file_size(path) == 6);

  kernelrank::write_file_atomically(path, "");
  CHECK(fs::exists(path));
  CHECK(fs::file_size(path) == 0);

  kernelrank::write_file_atomically(dir.file("second.txt"), "2");
  CHECK(slurp(dir.file("second.txt")) == "2");
  // No ".<name>.tmp-*" files left behind.
  CHECK(dir.entries() == std::set<std::string>{"out.txt", "second.txt"});
}

TEST_CASE("text: write_file_atomically failures throw OutputError and leave nothing") {
  ScratchDir dir;
  write_raw(dir.file("keep.txt"), "keep");
  const std::set<std::string> before = dir.entries();

  const std::string into_missing_dir = dir.file("no-such-dir/out.txt");
  try {
    kernelrank::write_file_atomically(into_missing_dir, "data");
    FAIL("writing into a missing directory succeeded");
  } catch (const OutputError& e) {
    CHECK(contains(e.what(), into_missing_dir));
  }
  CHECK_FALSE(fs::exists(dir.path() / "no-such-dir"));
  CHECK(dir.entries() == before);

  // The destination is an existing directory: the rename fails and the
  // temporary file is removed.
  fs::create_directory(dir.path() / "subdir");
  CHECK_THROWS_AS(kernelrank::write_file_atomically(dir.file("subdir"), "data"), OutputError);
  CHECK(fs::is_directory(dir.path() / "subdir"));
  CHECK(fs::is_empty(dir.path() / "subdir"));
  CHECK(dir.entries() == std::set<std::string>{"keep.txt", "subdir"});

  // A path naming a directory rather than a file.
  CHECK_THROWS_AS(kernelrank::write_file_atomically(dir.path().string() + "/", "data"),
                  OutputError);
  CHECK_THROWS_AS(kernelrank::write_file_atomically("", "data"), OutputError);
  CHECK(dir.entries() == std::set<std::string>{"keep.txt", "subdir"});
  CHECK(slurp(dir.file("keep.txt")) == "keep");
}
