// The one head opener (models/head_opener.hpp): every kind of model file is read once through
// the injected reader and comes back as what it is.
#include <doctest/doctest.h>

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/head_opener.hpp"
#include "kernelrank/models/model_io.hpp"
#include "source_dir.hpp"

#include <fstream>
#include <map>
#include <string>

using namespace kernelrank;

namespace {

std::string path_of(const std::string& relative) {
  return std::string(kernelrank_test::source_dir()) + "/" + relative;
}

// Counts the reads of each path, and hands out the file system's bytes.
struct CountingReader {
  std::map<std::string, int> reads;
  ModelFileReader reader() {
    return [this](const std::string& path) {
      ++reads[path];
      return read_model_bytes(path);
    };
  }
};

}  // namespace

TEST_CASE("the opener reads each kind of model file once and says what it holds") {
  struct Case {
    const char* file;
    ModelFileKind kind;
    int exact, ball, multi;  // which result is set
    int m;                   // the width, known from the file
  };
  // Widths: tabular_m2 declares m=2; the heads are the m=3 fixtures of tests/data/safetensors
  // and instances/heads; nk2-m2-1+1 is two heads on m=2 (its name says so).
  const Case cases[] = {
      {"tests/data/models/tabular_m2.model", ModelFileKind::Text, 1, 0, 0, 2},
      {"tests/data/models/tabular_m2.json", ModelFileKind::Json, 1, 0, 0, 2},
      {"tests/data/safetensors/head_m3_relu_f64.safetensors", ModelFileKind::Safetensors, 1, 0, 0,
       3},
      {"instances/heads/elu1-m3-r4-trained.safetensors", ModelFileKind::Safetensors, 0, 1, 0, 3},
      {"instances/models/open/nk2-m2-1+1.multihead", ModelFileKind::MultiHead, 0, 0, 1, 2},
  };
  for (const Case& c : cases) {
    CAPTURE(c.file);
    CountingReader counter;
    OpenOptions options;
    options.ball_heads = true;
    const std::string path = path_of(c.file);
    const OpenedModel opened = open_model(path, options, counter.reader());
    CHECK(counter.reads.size() == 1);
    CHECK(counter.reads[path] == 1);
    CHECK(opened.kind == c.kind);
    CHECK((opened.exact != nullptr) == (c.exact == 1));
    CHECK(opened.ball.has_value() == (c.ball == 1));
    CHECK(opened.multi_head.has_value() == (c.multi == 1));
    if (opened.exact) CHECK(opened.exact->width() == c.m);
    if (opened.ball) CHECK(opened.ball->m == c.m);
    if (opened.multi_head) CHECK(opened.multi_head->head_count() == 2);
  }
}

TEST_CASE("the opener refuses a ball-only head where exact arithmetic is asked for") {
  const std::string path = path_of("instances/heads/elu1-m3-r4-trained.safetensors");
  CountingReader counter;
  try {
    open_model(path, OpenOptions{}, counter.reader());
    FAIL("an elu1 head was opened as an exact model");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("elu1 head refused") != std::string::npos);
  }
  CHECK(counter.reads[path] == 1);
  CHECK_THROWS_AS(read_model(path), InputError);  // every command but eval
}

TEST_CASE("single-head readers parse a multi-head file as a single head, as before") {
  // read_model never took multi-head files: its parser refuses the header word.
  const std::string path = path_of("instances/models/open/nk2-m2-1+1.multihead");
  OpenOptions single;
  single.multi_head = false;
  CHECK_THROWS_AS(open_model(path, single), InputError);
  CHECK_THROWS_AS(read_model(path), InputError);
}

TEST_CASE("read errors name the file as its kind's reader does") {
  const std::string missing_text = path_of("tests/data/models/no-such-file.model");
  const std::string missing_binary = path_of("tests/data/models/no-such-file.safetensors");
  // A text file's messages carry line 0; a safetensors file has no lines.
  CHECK_THROWS_WITH(read_model_file(missing_text),
                    (missing_text + ":0: error: cannot open file").c_str());
  CHECK_THROWS_WITH(read_model_file(missing_binary),
                    (missing_binary + ": error: cannot open file").c_str());
}

TEST_CASE("bytes in memory are recognised like a file") {
  CHECK(model_file_from_bytes("m.model", "kernelrank-model 1 kind=tabular m=1\n").kind ==
        ModelFileKind::Text);
  CHECK(model_file_from_bytes("m", " {\"format\": \"kernelrank-model\"}").kind ==
        ModelFileKind::Json);
  CHECK(model_file_from_bytes("m", "kernelrank-multihead 1 m=1 heads=1\n").kind ==
        ModelFileKind::MultiHead);
  CHECK(model_file_from_bytes("m.safetensors", "").kind == ModelFileKind::Safetensors);
}

TEST_CASE("a task of another width is refused, naming both widths") {
  CHECK_NOTHROW(require_model_width("f", 3, 0));  // 0: any width
  CHECK_NOTHROW(require_model_width("f", 3, 3));
  CHECK_THROWS_WITH_AS(require_model_width("f", 3, 4), "model f has width m=3 but the task has m=4",
                       UsageError);
}
