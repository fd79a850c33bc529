#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cumap {

// What a list's messages call things: the option, one of its items, and what
// holds them ("--units: 99 is out of range: this device has units 0-7").
struct ListWords {
  std::string_view option = "--units";
  std::string_view item = "unit";
  std::string_view owner = "this device";
};

// Parses "0-7,16,32-47" into sorted, unique unit ids, each in [0, unit_count).
// Throws UsageError naming the offending token.
std::vector<int> parse_unit_list(std::string_view spec, int unit_count, const ListWords& words = {});

// An id that a list in parse_unit_list's syntax names more than once ("0,0",
// "0-3,2"): the lowest of the first entry that repeats one; nullopt if none.
// Entries that are not ids or ranges are left to parse_unit_list to name.
std::optional<int> first_repeated_id(std::string_view spec);

// The inverse, compressed into ranges: {0,1,2,5} -> "0-2,5".
std::string format_unit_list(const std::vector<int>& units);

// --units over several devices (ids by unit_id(): device * 100000 + unit).
// A plain token ("0-7", "16") names those units of every device in
// `unit_count_by_device`; a token "g<device>.<ids>" ("g1.0-7", "g0.16") of
// that device only. Sorted, unique ids. Throws UsageError naming the token.
std::vector<int> parse_device_unit_list(std::string_view spec, const std::map<int, int>& unit_count_by_device);

// How files write a unit id: its plain number on one device; in a run
// across devices (whose ids are unit_id()s) every id as "g<device>.<unit>"
// ("g0.5", "g1.5"), device 0's too. `across` says which the file is:
// ids_span_devices() of its ids.
bool ids_span_devices(const std::vector<int>& ids);
std::string format_unit_id(int id, bool across);
// Either form back ("5", "+5", "g1.5"); nullopt for anything else.
std::optional<int> parse_unit_id(std::string_view text);

}  // namespace cumap
