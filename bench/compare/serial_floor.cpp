// bench_floor OUT_DIR: compares the device time of cumap's measuring
// launches (meta.json: maps[].stats.device_seconds) with the serial floor,
// the sum over measurements of every round trip the pair ran (cold + warm-up
// + samples, each at its measured median). For a serial schedule their ratio
// is the harness's own cost; for a concurrent one, the speed-up.
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <map>
#include <string>
#include <vector>

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
    std::getline(pf, line);  // header, fixed by cumap's pairs_csv: columns found by name
    std::map<std::string, std::size_t> col;
    {
      std::stringstream hs(line);
      std::string name;
      for (std::size_t i = 0; std::getline(hs, name, ','); ++i) col[name] = i;
    }
    nlohmann::json floor_s = nlohmann::json::object();
    std::vector<std::string> f(col.size());
    while (std::getline(pf, line)) {
      std::stringstream ss(line);
      for (auto& x : f) std::getline(ss, x, ',');
      const std::string& rtt_s = f[col.at("rtt_ns_median")];
      if (rtt_s.empty()) continue;
      const double rtt = std::stod(rtt_s);
      const std::string& cold_s = f[col.at("cold_ns")];
      const double cold = cold_s.empty() ? rtt : std::stod(cold_s);
      const double n = std::stod(f[col.at("samples")]) * std::stod(f[col.at("iters")]) + warmup;
      const std::string& placement = f[col.at("placement")];
      floor_s[placement] = floor_s.value(placement, 0.0) + (n * rtt + cold) * 1e-9;
    }
    for (const auto& m : meta["maps"]) {
      const std::string placement = m["placement"];
      const double k = m["stats"]["device_seconds"].get<double>();
      const double fl = floor_s.value(placement, NAN);
      std::printf("%-10s kernel %.4f s  serial floor %.4f s  kernel/floor %.4f  launches %d  pairs/round %d\n",
                  placement.c_str(), k, fl, k / fl, m["stats"]["launches"].get<int>(), m["pairs_per_round"].get<int>());
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_floor: %s\n", e.what());
    return 2;
  }
}
