#pragma once
#include "cli/command_line.hpp"

namespace cumap::cli {

// `cumap check-coherence`: the L1 coherence table for one reader/writer pair.
int run_check_coherence(const CoherenceCommand& command);

}  // namespace cumap::cli
