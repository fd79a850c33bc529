#include "core/enum_names.hpp"

#include <string>

#include "core/printable.hpp"
#include "cumap/error.hpp"

namespace cumap {

void throw_unknown_name(std::string_view what, std::string_view word, const std::vector<std::string_view>& known) {
  std::string list;
  for (std::string_view name : known) list += (list.empty() ? "" : ", ") + std::string(name);
  throw UsageError("unknown " + std::string(what) + " \"" + printable_excerpt(word) + "\" (known: " + list + ")");
}

std::string said_as_choices(const std::vector<std::string_view>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  return text;
}

}  // namespace cumap
