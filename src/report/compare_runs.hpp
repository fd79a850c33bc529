#pragma once
// `cumap compare A B` over two run directories: the comparison made from
// their files (core/run_comparison.hpp computes it), and the difference
// heatmaps it writes where the user asks for an output directory.
#include <filesystem>
#include <string>

#include "core/run_comparison.hpp"
#include "report/saved_run.hpp"

namespace cumap {

// A against B. UsageError, one line, where the two do not compare at all: a
// CPU run against a GPU run, or a map against a barrier or contention run.
// On one chip every matrix file (a barrier's or contention's every case) is
// compared by name; on two only the structure, sides and groups.
RunComparison compare_saved_runs(const SavedRun& a, const SavedRun& b, double threshold);

// `-o DIR`: compare.md and compare.json (the comparison as printed) and, on
// one chip, diff-<matrix>.png for every matrix file both runs hold (B - A in
// A's display order, on a scale symmetric about 0), with a meta.json naming
// the two runs, published as one set (publish/output_set.hpp). UsageError
// for DIR inside A or B, or where the set cannot be written.
void write_comparison_set(const RunComparison& comparison, const SavedRun& a, const SavedRun& b,
                          const std::filesystem::path& dir);

}  // namespace cumap
