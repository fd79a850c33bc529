#pragma once
#include <string>
#include <vector>

namespace cumap {

// One cell of `cumap check-coherence`: a reader SM loads a line with `load`
// (which may keep it in L1), a writer SM stores to it with `store`, and the
// reader reloads with `load` for a bounded time.
struct CoherenceCase {
  std::string store;        // "st.wb", "st.cg", "st.wt"
  std::string load;         // "ld.ca", "ld.cg", "ld.volatile", "ld.nc"
  bool load_caches_in_l1 = false;  // ld.ca and ld.nc may; ld.cg and ld.volatile bypass L1
  bool saw_new_value = false;
  bool handshake_timed_out = false;
  double first_seen_ns = 0;  // time from the writer's signal to the new value
  double window_ns = 0;      // how long the reader kept looking
  // Cycles per reload in a chain of dependent reloads just after priming:
  // tens of cycles mean the line really sat in the reader's L1; hundreds
  // mean it did not, and an L1-caching case proves nothing either way.
  double primed_reload_cycles = 0;
};

struct CoherenceReport {
  int reader_unit = 0;
  int writer_unit = 0;
  std::vector<CoherenceCase> cases;
};

}  // namespace cumap
