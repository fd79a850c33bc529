#pragma once
// Output files made on other threads and written here, one at a time, in the
// order they were added. A GPU map's files (a pairs.csv of tens of MB,
// meta.json, a dozen heatmaps) take longer to make than the map takes to
// measure; they only read the result, so they are made side by side.
#include <functional>
#include <future>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/output_set.hpp"

namespace cumap {

class PendingFiles {
 public:
  // Starts making the file's content now (`make` must only read shared data).
  void add(std::string name, std::function<std::string()> make) {
    files_.emplace_back(std::move(name), std::async(std::launch::async, std::move(make)));
  }

  // Adds meta.json, made by `make_meta`, last: its presence says the other
  // files are complete. Then waits for each file in turn and writes it (each
  // whole or not at all); an exception from a maker comes out here.
  void write_all_then_meta(OutputSet& out, std::function<nlohmann::json()> make_meta) {
    add("meta.json", [make_meta = std::move(make_meta)] { return make_meta().dump(2) + "\n"; });
    for (auto& [name, content] : files_) out.write(name, content.get());
    files_.clear();
  }

  // Files still pending when an exception leaves are waited for (futures of
  // std::async join), but not written.

 private:
  std::vector<std::pair<std::string, std::future<std::string>>> files_;
};

}  // namespace cumap
