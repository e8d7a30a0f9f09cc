// Output files appear whole or not at all.
//
// Content is written to a temporary file in the destination's directory, flushed
// to disk and renamed over the destination. A SIGINT/SIGTERM arriving meanwhile
// removes the temporary file, so an interrupted run leaves no partial output.
#pragma once

#include <string>

namespace kernelrank {

// Throws OutputError naming the path when the file cannot be written.
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace kernelrank
