#include "cli/option_words.hpp"

#include <charconv>
#include <sstream>

namespace cumap::cli {
namespace {

constexpr std::uint64_t kFlagOffsetAlignment = 128;  // one cache line of every supported device
constexpr std::uint64_t kMaxFlagOffset = std::uint64_t{1} << 30;

}  // namespace

// A digit string, a minus sign in front at most (the range checks say what
// negative means), and for fractional options a decimal point and exponent.
std::string decimal_number_problem(const std::string& text, bool fractional) {
  if (text.empty()) return "an empty value is not a number";
  std::size_t i = text[0] == '-' ? 1 : 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - from;
  };
  std::size_t mantissa = digits();
  if (fractional && i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  bool ok = mantissa > 0;
  if (ok && fractional && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    ok = digits() > 0;
  }
  if (ok && i == text.size()) return "";
  return fmt::format("'{}' is not a {} number", printable_excerpt(text), fractional ? "decimal" : "whole decimal");
}

std::uint64_t parse_flag_offset(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return UsageError(fmt::format("--flag-offset '{}': {}", printable_excerpt(text), why));
  };
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ptr != end || ec == std::errc::invalid_argument) throw bad("not a non-negative whole number of bytes");
  if (ec == std::errc::result_out_of_range || value > kMaxFlagOffset) throw bad("more than 1 GiB (1073741824 bytes)");
  if (value % kFlagOffsetAlignment != 0)
    throw bad(fmt::format("not a multiple of {} bytes (a cache line)", kFlagOffsetAlignment));
  return value;
}

KSweep parse_k(const std::string& text) {
  KSweep sweep{{}, false, false};
  std::stringstream in(text);
  for (std::string token; std::getline(in, token, ',');) {
    if (token == "all") {
      sweep.every_unit = true;
      continue;
    }
    if (!decimal_number_problem(token, false).empty() || token.starts_with('-') || token.size() > 9 ||
        std::stoi(token) < 1)
      throw UsageError(fmt::format("--k: '{}' is not a participant count (a whole number of at least 1, or all)",
                                   printable_excerpt(token)));
    sweep.values.push_back(std::stoi(token));
  }
  if (sweep.values.empty() && !sweep.every_unit)
    throw UsageError("--k: the list is empty (leave out --k for the doubling sweep and every unit)");
  std::sort(sweep.values.begin(), sweep.values.end());
  sweep.values.erase(std::unique(sweep.values.begin(), sweep.values.end()), sweep.values.end());
  return sweep;
}

}  // namespace cumap::cli
