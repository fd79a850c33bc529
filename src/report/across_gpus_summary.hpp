#pragma once
// summary.md's and report.html's "Across GPUs": the GPU x GPU table, the
// cross-GPU structure (pairs between GPUs by the GPU holding the flags, the
// flag line's home class and both units' sides) and the sentences a reader
// acts on, made from the numbers.
//
// One source: it is made from meta.json's "gpus" and "cross_gpu_structure"
// (gpu_table.hpp writes both). summary.md reads them from the meta.json a
// run writes (and `cumap summary DIR` from DIR/meta.json), report.html from
// the same functions' JSON, so the three never disagree.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cumap {

struct AcrossGpus {
  // A row of the GPU x GPU table (a GPU with itself too).
  struct GpuPair {
    std::string placement;
    int gpu_a = 0;
    int gpu_b = 0;
    std::string flags_on;  // "g0", or "both": each GPU's lines weighing the same
    std::string link;      // "same GPU" for a GPU with itself
    std::size_t cells = 0;  // unit pairs (each direction once with --ordered)
    std::optional<double> median_ns, p05_ns, p95_ns;
  };
  // Pairs between two GPUs by where the flag is and where the units are.
  struct Structure {
    std::string placement;
    int gpu_a = 0;  // < gpu_b
    int gpu_b = 0;
    int flags_on = 0;    // the GPU holding the flags
    int home_class = 0;  // of the flag's line, a class of that GPU
    int side_a = 0;      // the unit on gpu_a, its side there
    int side_b = 0;
    std::optional<double> median_ns, p05_ns, p95_ns;
    std::size_t cells = 0;
  };
  std::vector<GpuPair> gpu_pairs;
  std::vector<Structure> structure;
  std::vector<std::string> findings;

  // Not a map across GPUs (or a meta.json from before these keys).
  bool empty() const { return gpu_pairs.empty() && structure.empty(); }
};

// From meta.json's "gpus" and "cross_gpu_structure" (null or missing:
// none). `unit_name` ("SM") words the findings.
AcrossGpus across_gpus_summary(const nlohmann::json& gpus, const nlohmann::json& cross_gpu_structure,
                               const std::string& unit_name);

// The section of summary.md ("## Across GPUs"); empty when `a` is.
std::string across_gpus_markdown(const AcrossGpus& a, const std::string& unit_name);
// summary_csv's rows (placement,home_class,relation,near_units,where,
// median_ns,p05_ns,p95_ns,cells): the GPU x GPU table as relation
// "gpu-pair", the structure as "across-gpus", `where` naming GPUs, flags
// and sides.
std::string across_gpus_csv_rows(const AcrossGpus& a);
nlohmann::json to_json(const AcrossGpus& a);

// What the findings call a factor's effect worth naming: a difference of
// medians over this share of their mean.
inline constexpr double kAcrossGpusEffectShare = 0.01;

}  // namespace cumap
