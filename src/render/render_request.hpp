#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cumap/matrix.hpp"
#include "cumap/topology.hpp"

// The checks behind `cumap render`, separate from drawing so they can be tested alone.
namespace cumap::render {

// "auto" -> nullopt; "MIN:MAX" with finite MIN < MAX -> the pair. Else UsageError.
std::optional<std::pair<double, double>> parse_scale_spec(const std::string& spec);

// Reads a topology JSON file and checks that every unit it names is in
// `units`; UsageError naming the file otherwise.
Topology read_order_file(const std::filesystem::path& path, const std::vector<int>& units);

}  // namespace cumap::render
