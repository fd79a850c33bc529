#include "cli/option_checks.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>

#include <fmt/format.h>

#include "core/option_table.hpp"
#include "core/printable.hpp"
#include "core/units.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {

bool given(const CLI::App& app, const std::string& flag) { return app.get_option(flag)->count() > 0; }

bool has_control_character(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7F) return true;
  return false;
}

std::size_t char_count(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

void check_output_path(std::string_view flag, const std::filesystem::path& path) {
  const std::string& text = path.native();
  if (text.empty()) throw UsageError(fmt::format("{} must name a path", flag));
  if (has_control_character(text))
    throw UsageError(fmt::format("{} '{}': a path with control characters (line breaks, tabs...) is not accepted",
                                 flag, printable_excerpt(text)));
  if (text.size() >= PATH_MAX)
    throw UsageError(fmt::format("{} '{}': the path is too long ({} bytes; at most {})", flag,
                                 printable_excerpt(text), text.size(), PATH_MAX - 1));
  for (const auto& part : path)
    if (part.native().size() > NAME_MAX)
      throw UsageError(fmt::format("{} '{}': a file name in the path is too long ({} bytes; at most {})", flag,
                                   printable_excerpt(text), part.native().size(), NAME_MAX));
}

std::string one_line(const std::string& s) {
  std::string flat = s;
  for (char& c : flat)
    if (c == '\n') c = ' ';  // CLI11's own line breaks
  while (!flat.empty() && flat.back() == ' ') flat.pop_back();
  return printable_excerpt(flat, 300);
}

void reject_top_level_options(const CLI::App& app, const std::string& what,
                              const std::vector<const CLI::Option*>& allowed) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0 || std::find(allowed.begin(), allowed.end(), option) != allowed.end()) continue;
    throw UsageError(fmt::format("{} does not apply to {} (options before a subcommand belong to the map)",
                                 option->get_name(), what));
  }
}

void check_device_options(const Options& o, const CLI::App& app) {
  if (o.device < 0) throw UsageError(fmt::format("--device must not be negative (got {})", o.device));
  if (o.backend == BackendKind::Auto) return;  // the backend that opens checks them (map_run.cpp)
  const BackendFacts facts = backend_facts(o.backend);
  if (!facts.several_devices && o.device != 0)
    throw UsageError(fmt::format("--device {}: the {} backend has only device 0", o.device, to_string(o.backend)));
  if (given(app, "--unit") && !facts.unit_choice)
    throw UsageError(fmt::format("--unit applies to the hip backend only, not to --backend {}", to_string(o.backend)));
}

void check_home_flags(const CLI::App& app, const Options& o, const std::string& leave_out_means) {
  const auto blank = [](const std::string& s) { return s.find_first_not_of(" \t") == std::string::npos; };
  if (given(app, "--units") && blank(o.units_spec))
    throw UsageError(fmt::format("--units: the unit list is empty (leave out --units to {})", leave_out_means));
  if (!given(app, "--devices")) return;
  if (blank(o.devices_spec)) throw UsageError("--devices: the GPU list is empty (leave it out for --device's one GPU)");
  if (given(app, "--device")) throw UsageError("--device and --devices both name GPUs: give one of them");
  // Before any GPU is counted or opened: "0,0" would quietly be one GPU.
  if (const std::optional<int> twice = first_repeated_id(o.devices_spec))
    throw UsageError(fmt::format("--devices: '{}' names GPU {} twice; name each GPU once",
                                 printable_excerpt(o.devices_spec), *twice));
}

void validate_options(const Options& o) {
  check_ranges(map_option_rows(), kMapCommand, o);
  // More lines per pair than were probed would only repeat lines.
  if (o.lines_per_class && *o.lines_per_class > o.home_lines)
    throw UsageError(fmt::format("--lines-per-class {} asks for more lines per class than the {} lines probed "
                                 "(--home-lines)", *o.lines_per_class, o.home_lines));
  if (o.cross_lines && o.devices_spec.empty())
    throw UsageError("--cross-lines sets the lines of pairs across GPUs: it needs a map across GPUs (--devices)");
  if ((o.cross_samples || o.cross_warmup) && o.devices_spec.empty())
    throw UsageError(fmt::format("{} sets the round trips of pairs across GPUs: it needs a map across GPUs (--devices)",
                                 o.cross_samples ? "--cross-samples" : "--cross-warmup"));
  if (o.cross_lines && (*o.cross_lines < 1 || *o.cross_lines > o.home_lines))
    throw UsageError(fmt::format("--cross-lines must be from 1 to the {} lines probed (--home-lines); got {}",
                                 o.home_lines, *o.cross_lines));
  constexpr std::uint64_t kMaxArenaBytes = std::uint64_t{1} << 30;
  if (static_cast<std::uint64_t>(o.home_stride) * static_cast<std::uint64_t>(o.home_lines) > kMaxArenaBytes)
    throw UsageError(fmt::format("--home-lines {} x --home-stride {} is more than {} bytes of flag arena",
                                 o.home_lines, o.home_stride, kMaxArenaBytes));
  check_output_path("--out", o.out_dir);
}

}  // namespace cumap::cli
