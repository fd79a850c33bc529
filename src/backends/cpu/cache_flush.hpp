#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace cumap::cpu {

// Size in bytes of the largest data or unified cache of cpu0, from sysfs
// ("32768K" and the like); 0 when sysfs does not say.
std::size_t last_level_cache_bytes();

// Parses a sysfs cache size such as "512K", "32M" or "1024"; 0 if malformed.
std::size_t parse_cache_size(const std::string& text);

// --flush-cache on a CPU: writing a buffer twice the last-level cache pushes
// the flag lines out to memory, so the next round trip starts cold.
class CacheFlusher {
 public:
  explicit CacheFlusher(std::size_t llc_bytes);
  void flush();
  std::size_t bytes() const { return buffer_.size(); }

 private:
  std::vector<unsigned char> buffer_;
  unsigned char round_ = 0;
};

}  // namespace cumap::cpu
