#pragma once
// A file's whole content, byte for byte, for tests that read back what a run
// or an output writer wrote.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace cumap::test {

inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace cumap::test
