#pragma once
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace cumap::test {

// A fresh directory under the system temp dir, removed with everything in it
// when the test ends. mkdtemp, so that parallel test runs never collide.
class TempDir {
 public:
  TempDir() {
    const std::filesystem::path parent = std::filesystem::temp_directory_path();
    std::string pattern = (parent / "cumap_test_XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed in " + parent.string());
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // Writes `content` to the file `name` in the directory; its path.
  std::filesystem::path file(const std::string& name, const std::string& content) const {
    const std::filesystem::path p = path_ / name;
    std::ofstream out(p, std::ios::binary);
    out << content;
    if (!out) throw std::runtime_error("cannot write " + p.string());
    return p;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace cumap::test
