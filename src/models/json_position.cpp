// See json_position.hpp. One recursive-descent walk over the text with three goals.
#include "models/json_position.hpp"

#include <set>
#include <vector>

namespace kernelrank::json_position {
namespace {

// A path step: an object key, or an array index (key empty, index set).
struct Step {
  std::string key;
  std::optional<std::size_t> index;
};

std::optional<std::vector<Step>> parse_path(const std::string& path) {
  std::vector<Step> steps;
  const std::size_t bracket = path.find_first_of(".[");
  const std::string head = path.substr(0, bracket);
  if (!head.empty()) steps.push_back(Step{head, std::nullopt});
  std::size_t i = head.size();
  while (i < path.size()) {
    if (path[i] == '.') {  // a key inside an element: "heads[1].kernel"
      const std::size_t next = path.find_first_of(".[", i + 1);
      const std::size_t end = next == std::string::npos ? path.size() : next;
      if (end == i + 1) return std::nullopt;
      steps.push_back(Step{path.substr(i + 1, end - i - 1), std::nullopt});
      i = end;
      continue;
    }
    if (path[i] != '[') return std::nullopt;
    const std::size_t close = path.find(']', i);
    if (close == std::string::npos || close == i + 1) return std::nullopt;
    std::size_t index = 0;
    for (std::size_t c = i + 1; c < close; ++c) {
      if (path[c] < '0' || path[c] > '9') return std::nullopt;
      index = index * 10 + static_cast<std::size_t>(path[c] - '0');
    }
    steps.push_back(Step{"", index});
    i = close + 1;
  }
  return steps;
}

class Walker {
 public:
  enum class Goal { path, duplicate, depth };
  Walker(const std::string& text, Goal goal) : text_(text), goal_(goal) {}

  std::optional<std::size_t> find_path(const std::vector<Step>& steps) {
    path_ = &steps;
    value(0, 0);
    return found_;
  }
  std::optional<std::size_t> find_other(int depth) {
    max_depth_ = depth;
    value(0, 0);
    return found_;
  }

 private:
  void skip_space() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
      ++at_;
  }
  std::string string_token() {  // at_ on the opening quote; returns the raw contents
    const std::size_t start = ++at_;
    while (at_ < text_.size() && text_[at_] != '"') at_ += text_[at_] == '\\' ? 2 : 1;
    const std::string raw = text_.substr(start, std::min(at_, text_.size()) - start);
    ++at_;
    return raw;
  }
  // matched: how many path steps lead here (only meaningful for Goal::path).
  void value(std::size_t matched, int depth) {
    skip_space();
    if (found_ || at_ >= text_.size()) return;
    if (goal_ == Goal::path && matched == path_->size()) {
      found_ = at_;
      return;
    }
    const char c = text_[at_];
    if ((c == '{' || c == '[') && goal_ == Goal::depth && depth == max_depth_) {
      found_ = at_;
      return;
    }
    if (c == '{') {
      object(matched, depth);
    } else if (c == '[') {
      array(matched, depth);
    } else if (c == '"') {
      string_token();
    } else {
      const std::size_t start = at_;
      while (at_ < text_.size() && text_[at_] != ',' && text_[at_] != ']' && text_[at_] != '}' &&
             text_[at_] != ' ' && text_[at_] != '\n' && text_[at_] != '\t' && text_[at_] != '\r')
        ++at_;
      if (at_ == start) ++at_;  // a stray delimiter: move on rather than loop
    }
  }
  bool on_path(std::size_t matched) const { return goal_ == Goal::path && matched < path_->size(); }
  void object(std::size_t matched, int depth) {
    ++at_;
    std::set<std::string> keys;
    while (!found_) {
      skip_space();
      if (at_ >= text_.size() || text_[at_] == '}') break;
      if (text_[at_] == ',') {
        ++at_;
        continue;
      }
      const std::size_t key_at = at_;
      const std::string key = string_token();
      if (goal_ == Goal::duplicate && !keys.insert(key).second) {
        found_ = key_at;
        return;
      }
      skip_space();
      ++at_;  // ':'
      const bool follows =
          on_path(matched) && !(*path_)[matched].index && (*path_)[matched].key == key;
      value(follows ? matched + 1 : matched_off(), depth + 1);
    }
    ++at_;
  }
  void array(std::size_t matched, int depth) {
    ++at_;
    std::size_t index = 0;
    while (!found_) {
      skip_space();
      if (at_ >= text_.size() || text_[at_] == ']') break;
      if (text_[at_] == ',') {
        ++at_;
        ++index;
        continue;
      }
      const bool follows = on_path(matched) && (*path_)[matched].index == index;
      value(follows ? matched + 1 : matched_off(), depth + 1);
    }
    ++at_;
  }
  // A depth of the walk that can never complete the path.
  std::size_t matched_off() const { return goal_ == Goal::path ? path_->size() + 1 : 0; }

  const std::string& text_;
  Goal goal_;
  const std::vector<Step>* path_ = nullptr;
  int max_depth_ = 0;
  std::size_t at_ = 0;
  std::optional<std::size_t> found_;
};

Position position_of(const std::string& text, std::size_t offset) {
  Position p;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

std::optional<Position> to_position(const std::string& text, std::optional<std::size_t> offset) {
  if (!offset) return std::nullopt;
  return position_of(text, *offset);
}

}  // namespace

Position of_offset(const std::string& text, std::size_t offset) {
  return position_of(text, offset);
}

std::optional<Position> of_path(const std::string& text, const std::string& path) {
  const auto steps = parse_path(path);
  if (!steps) return std::nullopt;
  return to_position(text, Walker(text, Walker::Goal::path).find_path(*steps));
}

std::optional<Position> of_duplicate_key(const std::string& text) {
  return to_position(text, Walker(text, Walker::Goal::duplicate).find_other(0));
}

std::optional<Position> of_depth(const std::string& text, int depth) {
  return to_position(text, Walker(text, Walker::Goal::depth).find_other(depth));
}

}  // namespace kernelrank::json_position
