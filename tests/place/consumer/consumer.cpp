// Uses cumap::place through its installed header and library alone. On a
// machine without a GPU a saved GPU run cannot be checked against the chip,
// and the library says so with cumap::place::Error; everything else about
// a run's chip needs the chip.
#include <cstdio>
#include <string>

#include <cumap/place.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer RUN_DIR\n");
    return 2;
  }
  try {
    const cumap::place::Chip chip = cumap::place::Chip::load(argv[1], 0);
    std::printf("loaded the run on GPU %d (%d home classes)\n", chip.gpu(), chip.class_count());
    return 0;
  } catch (const cumap::place::Error& e) {
    std::printf("refused: %s\n", e.what());
    return std::string(e.what()).find("serial") != std::string::npos ? 0 : 1;
  }
}
