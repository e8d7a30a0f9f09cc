// The train job in the trainer executable, and its JSON protocol (app/trainer_process.hpp).
#include "kernelrank/app/trainer_process.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/progress.hpp"
#include "kernelrank/models/model.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <new>

extern char** environ;

namespace kernelrank {
namespace trainer_process_detail {

using nlohmann::json;

constexpr const char* kResponseFormat = "kernelrank-train-response";

json error_json(const std::string& kind, const std::string& message, int exit_code) {
  return {{"kind", kind}, {"message", message}, {"exit_code", exit_code}};
}

// A message as a pattern: its parameters {name} when it names them, else its text.
std::string pattern_of(const std::exception& e) {
  if (const auto* named = dynamic_cast<const ParameterMessage*>(&e)) return named->pattern();
  return ParameterMessage::literal(e.what());
}

void write_all(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t wrote = write(fd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0)
      throw OutputError(std::string("cannot write the response: ") + std::strerror(errno));
    done += static_cast<std::size_t>(wrote);
  }
}

std::string read_all(int fd) {
  std::string text;
  std::array<char, 65536> buffer{};
  for (;;) {
    const ssize_t got = read(fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(got));
  }
  return text;
}

// Writes the request to the child's stdin. SIGPIPE (a child that ended without reading it) is
// held back and discarded, so that it cannot end this process: the missing response says so.
void send_request(int fd, const std::string& text) {
  sigset_t pipe_signal, old;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old);
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t wrote = write(fd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) break;
    done += static_cast<std::size_t>(wrote);
  }
  const timespec none{0, 0};
  while (sigtimedwait(&pipe_signal, nullptr, &none) == SIGPIPE) {
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

json response_of(const json& body, int exit_code) {
  json response = {{"format", kResponseFormat}, {"version", 1}, {"exit_code", exit_code}};
  response.update(body);
  return response;
}

}  // namespace trainer_process_detail

std::string trainer_missing_message(const std::string& program, const std::string& reason) {
  return "cannot run the trainer " + program + ": " + reason +
         " (scripts/build.sh builds it, or cmake --build build --target kernelrank-train; "
         "a trainer that can train needs libtorch-dev, which scripts/install-deps.sh "
         "installs)";
}

nlohmann::json trainer_error_to_json(const std::exception_ptr& error) {
  using namespace trainer_process_detail;
  try {
    std::rethrow_exception(error);
  } catch (const InputError& e) {
    json j = error_json("input", e.message(), kExitMalformed);
    j["file"] = e.file();
    j["line"] = e.line();
    j["column"] = e.column();
    j["whole_file"] = std::string(e.what()) == e.file() + ": error: " + e.message();
    return j;
  } catch (const UsageError& e) {
    return error_json("usage", pattern_of(e), kExitMalformed);
  } catch (const ResourceError& e) {
    return error_json("resource", pattern_of(e), kExitResource);
  } catch (const OutputError& e) {
    return error_json("output", e.what(), kExitMalformed);
  } catch (const ModelDomainError& e) {
    return error_json("model-domain", e.what(), kExitMalformed);
  } catch (const std::bad_alloc&) {
    return error_json("resource", "out of memory", kExitResource);
  } catch (const std::exception& e) {
    return error_json("internal", e.what(), kExitInternal);
  } catch (...) {
    return error_json("internal", "an exception of unknown type", kExitInternal);
  }
}

void throw_trainer_error(const nlohmann::json& error) {
  using namespace trainer_process_detail;
  const std::string kind = error.at("kind").get<std::string>();
  const std::string message = error.at("message").get<std::string>();
  if (kind == "input") {
    const std::string file = error.at("file").get<std::string>();
    const auto line = error.at("line").get<std::size_t>();
    const auto column = error.at("column").get<std::size_t>();
    if (error.at("whole_file").get<bool>()) throw InputError::whole_file(file, message);
    if (column > 0) throw InputError(file, line, column, message);
    throw InputError(file, line, message);
  }
  if (kind == "usage") throw DomainError(message);
  if (kind == "resource") throw DomainResourceError(message);
  if (kind == "output") throw OutputError(message);
  if (kind == "model-domain") throw ModelDomainError(message);
  throw InternalError(message);
}

int serve_train_request(const HeadTrainer& trainer) {
  using namespace trainer_process_detail;
  // Only the response goes to stdout: anything else written there goes to stderr.
  const int response_fd = dup(STDOUT_FILENO);
  if (response_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) return kExitInternal;
  json response;
  try {
    const std::string text(std::istreambuf_iterator<char>(std::cin), {});
    const json parsed = json::parse(text, nullptr, false);
    if (parsed.is_discarded()) throw UsageError("the train request is not JSON");
    const TrainRequest request = train_request_from_json(parsed);
    if (!request.progress) Progress::set_enabled(false);
    response =
        response_of({{"report", train_report_to_json(run_train_job(request, trainer))}}, kExitOk);
  } catch (...) {
    const json error = trainer_error_to_json(std::current_exception());
    response = response_of({{"error", error}}, error.at("exit_code").get<int>());
  }
  std::cout.flush();
  write_all(response_fd, response.dump() + "\n");
  close(response_fd);
  return response.at("exit_code").get<int>();
}

TrainReport run_trainer(const std::string& trainer, const TrainRequest& request) {
  using namespace trainer_process_detail;
  check_train_request(request);  // before starting anything: the same errors as the child's
  std::error_code ec;
  if (!std::filesystem::is_regular_file(trainer, ec))
    throw UsageError(trainer_missing_message(trainer, std::strerror(ENOENT)));
  std::array<int, 2> in{}, out{};  // read end, write end
  if (pipe2(in.data(), O_CLOEXEC) != 0 || pipe2(out.data(), O_CLOEXEC) != 0)
    throw ResourceError(std::string("cannot create a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  std::string mode = kTrainerRequestMode;
  std::array<char*, 3> argv{const_cast<char*>(trainer.c_str()), mode.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, trainer.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  if (spawned != 0) {
    close(in[1]);
    close(out[0]);
    throw UsageError(trainer_missing_message(trainer, std::strerror(spawned)));
  }
  send_request(in[1], train_request_to_json(request).dump());
  close(in[1]);
  const std::string text = read_all(out[0]);
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const json response = json::parse(text, nullptr, false);
  const bool exited = WIFEXITED(status);
  if (response.is_discarded() || !response.is_object() ||
      response.value("format", "") != kResponseFormat || !exited ||
      response.value("exit_code", -1) != WEXITSTATUS(status)) {
    const std::string how = !exited ? "was ended by signal " + std::to_string(WTERMSIG(status))
                                    : "exited with status " + std::to_string(WEXITSTATUS(status));
    throw InternalError("the trainer " + trainer + " " + how + " without a valid response");
  }
  if (response.contains("error")) throw_trainer_error(response.at("error"));
  return train_report_from_json(response.at("report"));
}

}  // namespace kernelrank
