// bench_floor OUT_DIR: compares the device time of cumap's measuring
// launches (meta.json: device.kernel_seconds) with the serial floor, the sum
// over pairs of every round trip the pair ran (cold + warm-up + samples, each
// at its measured median). Their ratio is the harness's own cost.
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bench_floor OUT_DIR\n");
    return 2;
  }
  try {
    const std::string dir = argv[1];
    std::ifstream mf(dir + "/meta.json");
    const auto meta = nlohmann::json::parse(mf);
    const int warmup = meta["options"]["warmup"].get<int>();
    std::ifstream pf(dir + "/pairs.csv");
    std::string line;
    // pairs.csv is cumap's own output: numbers and fixed words, never quoted,
    // so splitting on commas is exact here (user-edited CSVs go through
    // libcsv in read_matrix_csv).
    std::getline(pf, line);  // header, fixed by cumap's pairs_csv
    nlohmann::json floor_s = nlohmann::json::object();
    while (std::getline(pf, line)) {
      std::stringstream ss(line);
      std::string f[14];
      for (auto& x : f) std::getline(ss, x, ',');
      // a,b,placement,copy,oneway,rtt,p05,p95,min,cycles,cold,samples,iters,timed_out
      if (f[5].empty()) continue;
      const double rtt = std::stod(f[5]);
      const double cold = f[10].empty() ? rtt : std::stod(f[10]);
      const double n = std::stod(f[11]) * std::stod(f[12]) + warmup;
      floor_s[f[2]] = floor_s.value(f[2], 0.0) + (n * rtt + cold) * 1e-9;
    }
    for (auto& [placement, fl] : floor_s.items()) {
      const double k = meta["device"]["kernel_seconds"].value(placement, NAN);
      std::printf("%-10s kernel %.4f s  floor %.4f s  overhead %+.2f%%  launches %d\n", placement.c_str(), k,
                  fl.get<double>(), 100.0 * (k / fl.get<double>() - 1.0),
                  meta["device"]["launches"].value(placement, 0));
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_floor: %s\n", e.what());
    return 2;
  }
}
