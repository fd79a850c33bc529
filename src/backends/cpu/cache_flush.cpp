#include "backends/cpu/cache_flush.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace cumap::cpu {

std::size_t parse_cache_size(const std::string& text) {
  std::size_t pos = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(text, &pos);
  } catch (...) {
    return 0;
  }
  const std::string unit = text.substr(pos);
  if (unit.empty() || unit == "\n") return n;
  switch (unit[0]) {
    case 'K': return n << 10;
    case 'M': return n << 20;
    case 'G': return n << 30;
    default: return 0;
  }
}

std::size_t last_level_cache_bytes() {
  std::size_t best = 0;
  int best_level = 0;
  std::error_code ec;
  const std::filesystem::path root = "/sys/devices/system/cpu/cpu0/cache";
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    std::ifstream level_file(entry.path() / "level"), type_file(entry.path() / "type"), size_file(entry.path() / "size");
    int level = 0;
    std::string type, size;
    if (!(level_file >> level) || !(type_file >> type) || !(size_file >> size)) continue;
    if (type == "Instruction") continue;
    if (level > best_level) {
      best_level = level;
      best = parse_cache_size(size);
    }
  }
  return best;
}

CacheFlusher::CacheFlusher(std::size_t llc_bytes)
    : buffer_(2 * std::max<std::size_t>(llc_bytes, std::size_t{32} << 20)) {}

void CacheFlusher::flush() {
  // A new value each time, so the stores cannot be skipped as redundant.
  std::memset(buffer_.data(), ++round_, buffer_.size());
}

}  // namespace cumap::cpu
