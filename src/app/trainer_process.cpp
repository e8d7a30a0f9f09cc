// Running kernelrank-train as a child process (app/trainer_process.hpp).
#include "kernelrank/app/trainer_process.hpp"

#include "kernelrank/core/errors.hpp"

#include <fcntl.h>
#include <pty.h>
#include <spawn.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <type_traits>

extern char** environ;

namespace kernelrank {
namespace {

// "%.17g" gives back the same double when read.
std::string number_text(double value) {
  std::array<char, 40> text{};
  std::snprintf(text.data(), text.size(), "%.17g", value);
  return text.data();
}

template <typename T>
std::string joined(const std::vector<T>& values) {
  std::string text;
  for (const T& v : values) {
    if (!text.empty()) text += ",";
    if constexpr (std::is_same_v<T, std::string>)
      text += v;
    else
      text += std::to_string(v);
  }
  return text;
}

// The trainer's message with each option it names (--name) as the parameter {name}, and
// every other brace kept as text.
std::string parameter_pattern(const std::string& message) {
  std::string pattern, text;
  for (std::size_t i = 0; i < message.size();) {
    const bool starts = message.compare(i, 2, "--") == 0 && i + 2 < message.size() &&
                        std::islower(static_cast<unsigned char>(message[i + 2])) &&
                        (i == 0 || !std::isalnum(static_cast<unsigned char>(message[i - 1])));
    if (!starts) {
      text += message[i++];
      continue;
    }
    std::size_t end = i + 2;
    while (end < message.size() &&
           (std::islower(static_cast<unsigned char>(message[end])) ||
            std::isdigit(static_cast<unsigned char>(message[end])) || message[end] == '-'))
      ++end;
    pattern += ParameterMessage::literal(text) + "{" + message.substr(i + 2, end - i - 2) + "}";
    text.clear();
    i = end;
  }
  return pattern + ParameterMessage::literal(text);
}

// "FILE:LINE:COLUMN: error: MESSAGE", "FILE:LINE: error: MESSAGE" or "FILE: error: MESSAGE"
// (the line holds ": error: ").
[[noreturn]] void throw_input_error(const std::string& line) {
  const std::size_t at = line.find(": error: ");
  std::string head = line.substr(0, at);
  const std::string message = line.substr(at + 9);
  std::vector<std::size_t> numbers;
  for (int k = 0; k < 2; ++k) {
    const std::size_t colon = head.rfind(':');
    const std::string digits = colon == std::string::npos ? "" : head.substr(colon + 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) break;
    numbers.insert(numbers.begin(), std::stoull(digits));
    head.erase(colon);
  }
  if (numbers.empty()) throw InputError::whole_file(head, message);
  if (numbers.size() == 1) throw InputError(head, numbers[0], message);
  throw InputError(head, numbers[0], numbers[1], message);
}

// The trainer's last message (from its last line starting with "kernelrank"), without its
// prefix; "" when there is none.
std::string last_message(const std::string& errors, const std::string& prefix) {
  const std::size_t at = errors.rfind(prefix);
  if (at == std::string::npos) return "";
  std::string message = errors.substr(at + prefix.size());
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
  return message;
}

std::string last_line(const std::string& errors) {
  std::string text = errors;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const std::size_t at = text.find_last_of("\r\n");
  return at == std::string::npos ? text : text.substr(at + 1);
}

[[noreturn]] void throw_trainer_error(const std::string& program, int status,
                                      const std::string& errors) {
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == kExitMalformed) {
    const std::string usage = last_message(errors, "kernelrank: error: ");
    if (!usage.empty()) throw DomainError(parameter_pattern(usage));
    const std::string line = last_line(errors);
    if (line.find(": error: ") != std::string::npos) throw_input_error(line);
    // A message of the option parser: the first line says it.
    throw DomainError(parameter_pattern(errors.substr(0, errors.find('\n'))));
  }
  if (code == kExitResource)
    throw DomainResourceError(
        parameter_pattern(last_message(errors, "kernelrank: resource limit: ")));
  if (code == kExitInternal) {
    const std::string bug = last_message(errors, "kernelrank: INTERNAL ERROR (please report): ");
    throw InternalError(bug.empty() ? last_message(errors, "kernelrank: error: ") : bug);
  }
  const std::string how = WIFSIGNALED(status)
                              ? "was ended by signal " + std::to_string(WTERMSIG(status))
                              : "exited with status " + std::to_string(code);
  throw InternalError("the trainer " + program + " " + how + ": " + last_line(errors));
}

// Reads the child's stderr to its end (a pseudo-terminal's read fails once the child has
// closed it), copying it to ours when asked.
std::string drain(int fd, bool copy) {
  std::string text;
  std::array<char, 4096> buffer{};
  for (;;) {
    const ssize_t got = read(fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(got));
    if (copy) (void)!write(STDERR_FILENO, buffer.data(), static_cast<std::size_t>(got));
  }
  return text;
}

// The channel of the child's stderr: a pseudo-terminal when its lines are shown on ours and
// ours is a terminal, so that the trainer draws its progress line (it does only on a
// terminal); else a pipe. Both ends close on exec; the child gets the write end as fd 2.
std::array<int, 2> error_channel(bool progress) {
  std::array<int, 2> fds{};  // read end, write end
  if (progress && isatty(STDERR_FILENO) == 1) {
    termios raw{};
    cfmakeraw(&raw);
    if (openpty(&fds[0], &fds[1], nullptr, &raw, nullptr) == 0) {
      for (const int fd : fds) fcntl(fd, F_SETFD, FD_CLOEXEC);
      return fds;
    }
  }
  if (pipe2(fds.data(), O_CLOEXEC) != 0)
    throw ResourceError(std::string("cannot create a pipe: ") + std::strerror(errno));
  return fds;
}

}  // namespace

std::string trainer_missing_message(const std::string& program, const std::string& reason) {
  return "cannot run the trainer " + program + ": " + reason +
         " (scripts/build.sh builds it, or cmake --build build --target kernelrank-train; "
         "a trainer that can train needs libtorch-dev, which scripts/install-deps.sh "
         "installs)";
}

std::vector<std::string> trainer_arguments(const TrainerRequest& q) {
  std::vector<std::string> args;
  if (!q.progress) args.push_back("--quiet");
  args.push_back("train");
  const auto add = [&](const char* name, const std::string& value) {
    args.push_back(std::string("--") + name + "=" + value);
  };
  if (!q.family.empty()) add("family", q.family);
  if (!q.train.empty()) add("train", q.train);
  if (!q.test.empty()) add("test", q.test);
  add("out", q.out);
  if (!q.r.empty()) add("r", joined(q.r));
  if (!q.feature.empty()) add("feature", joined(q.feature));
  if (!q.seed.empty()) add("seed", joined(q.seed));
  const auto add_text = [&](const char* name, const std::optional<std::string>& v) {
    if (v) add(name, *v);
  };
  add_text("recipe", q.recipe);
  add_text("bumps", q.bumps);
  add_text("loss", q.loss);
  add_text("init", q.init);
  const auto add_int = [&](const char* name, const auto& v) {
    if (v) add(name, std::to_string(*v));
  };
  add_int("epochs", q.epochs);
  add_int("batch", q.batch);
  add_int("d", q.d);
  add_int("constant-features", q.constant_features);
  add_int("polish", q.polish);
  add_int("threads", q.threads);
  add_int("disagreements", q.disagreements);
  const auto add_number = [&](const char* name, const std::optional<double>& v) {
    if (v) add(name, number_text(*v));
  };
  add_number("lr", q.lr);
  add_number("band", q.band);
  add_number("init-noise", q.init_noise);
  add_number("constant-query-bias", q.constant_query_bias);
  add_number("temperature", q.temperature);
  add_number("epsilon", q.epsilon);
  if (q.freeze_constant_features)
    args.push_back(*q.freeze_constant_features ? "--freeze-constant-features"
                                               : "--no-freeze-constant-features");
  if (q.position_dependent) args.push_back("--position-dependent");
  if (q.last_step) args.push_back("--last-step");
  return args;
}

TrainerRun run_trainer(const TrainerRequest& request) {
  const std::vector<std::string> args = trainer_arguments(request);
  std::vector<char*> argv{const_cast<char*>(request.trainer.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::array<int, 2> pipe_fds = error_channel(request.progress);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, request.trainer.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    throw UsageError(trainer_missing_message(request.trainer, std::strerror(spawned)));
  }
  const std::string errors = drain(pipe_fds[0], request.progress);
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != kExitOk)
    throw_trainer_error(request.trainer, status, errors);
  TrainerRun run;
  run.report_path = request.out + "/report.json";
  std::ifstream in(run.report_path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw InternalError("the trainer wrote no readable " + run.report_path);
  run.report = text.str();
  return run;
}

}  // namespace kernelrank
