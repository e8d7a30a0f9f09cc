#include "train_forward.hpp"

#include "kernelrank/app/trainer_process.hpp"
#include "kernelrank/core/errors.hpp"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace kernelrank::cli {

bool invokes_train(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json" || arg == "--quiet") continue;  // the global flags take no value
    return arg == "train";
  }
  return false;
}

int forward_to_trainer(int argc, char** argv) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path trainer =
      (ec ? std::filesystem::path(argv[0]) : self).parent_path() / "kernelrank-train";
  std::vector<char*> args(argv, argv + argc);
  std::string program = trainer.string();
  args[0] = program.data();
  args.push_back(nullptr);
  execv(program.c_str(), args.data());
  std::cerr << "kernelrank: error: " << trainer_missing_message(program, std::strerror(errno))
            << "\n";
  return kExitMalformed;
}

void add_train_placeholder(CLI::App& app) {
  app.add_subcommand("train",
                     "Train linear-attention heads (libtorch) and verify every trained model "
                     "exactly (runs kernelrank-train; see `kernelrank train --help`)");
}

}  // namespace kernelrank::cli
