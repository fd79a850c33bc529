#pragma once
// Output files made and written on other threads, side by side. A GPU map's
// files (a pairs.csv of tens of MB, meta.json, a dozen heatmaps) take longer
// to make than the map takes to measure, and each is synced to disk before
// it is renamed into place; they only read the result, so each is made and
// written on its own thread, into the set's staging directory.
#include <functional>
#include <future>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "publish/json_file.hpp"
#include "publish/output_set.hpp"

namespace cumap {

class PendingFiles {
 public:
  explicit PendingFiles(OutputSet& out) : out_(out) {}

  // Starts making the file's content now and writes it (whole or not at all)
  // when made; `make` must only read shared data.
  void add(std::string name, std::function<std::string()> make) {
    files_.push_back(std::async(std::launch::async, [this, name = std::move(name), make = std::move(make)] {
      out_.write(name, make());
    }));
  }

  // A file that writes itself (report/pairs_csv.hpp's PairsCsvFile), beside the others.
  void add_job(std::function<void()> job) { files_.push_back(std::async(std::launch::async, std::move(job))); }

  // Waits for every file, then writes meta.json, made by `make_meta`, last:
  // its presence says the other files are complete. An exception from a
  // maker or a write comes out here, and meta.json is not written.
  void write_all_then_meta(const std::function<nlohmann::json()>& make_meta) {
    for (std::future<void>& file : files_) file.get();
    files_.clear();
    out_.write("meta.json", json_file_text(make_meta()));
  }

  // Files still pending when an exception leaves are waited for (futures of
  // std::async join); the set's staging directory, unpublished, goes with them.

 private:
  OutputSet& out_;
  std::vector<std::future<void>> files_;
};

}  // namespace cumap
