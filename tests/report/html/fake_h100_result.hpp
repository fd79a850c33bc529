#pragma once
// A whole map's result for report.html, without a device: the engine's fake
// chip (tests/engine) with H100-like numbers (132 SMs, two home classes, 512
// lines probed for homes) and a topology of GPCs, so the page has sides,
// groups and labels to draw. Built the way `cumap map` builds its result,
// with 4 lines per class (a GPU run has 16; the page's size does not depend on
// it, and under ASan the map takes seconds this way rather than minutes).
#include <string>
#include <utility>
#include <vector>

#include "run/map_run.hpp"
#include "fake_chip_backend.hpp"

namespace cumap::test {

// The fake chip under another name, with consecutive ids in GPCs of `per_gpc`
// (on each chip, with `devices` > 1: a map across GPUs).
class GpcChip final : public Backend {
 public:
  GpcChip(FakeChip spec, int per_gpc, std::string name) : chip_(spec), per_gpc_(per_gpc), name_(std::move(name)) {}
  DeviceInfo device() const override {
    DeviceInfo d = chip_.device();
    d.name = name_;
    d.unit_name = "SM";
    return d;
  }
  std::vector<int> units() const override { return chip_.units(); }
  Capabilities capabilities() const override { return chip_.capabilities(); }
  Topology topology() override {
    Topology t;
    t.source = "file";
    for (int id : chip_.units()) {
      const int u = unit_ref(id, 0).unit;  // across devices each chip's own GPCs
      if (u % per_gpc_ == 0) t.groups.push_back({"GPC" + std::to_string(u / per_gpc_), {}});
      t.groups.back().units.push_back(id);
    }
    return t;
  }
  LineLatencyTable probe_lines(const LineProbePlan& plan, const ProgressFn& p) override { return chip_.probe_lines(plan, p); }
  Measurements measure(const MeasurementPlan& plan, const ProgressFn& p) override { return chip_.measure(plan, p); }

 private:
  FakeChipBackend chip_;
  int per_gpc_;
  std::string name_;
};

inline MapResult fake_h100_result(int units = 132, std::string name = "fake H100-like chip", int devices = 1) {
  FakeChip spec;
  spec.units = units;
  spec.devices = devices;
  spec.near_ns = 150.0;
  spec.far_ns = 250.0;
  spec.noise = 0.01;
  spec.cycles_per_ns = 1.98;
  GpcChip chip(spec, 18, std::move(name));
  Options o;
  o.iters = 20;
  o.samples = 3;
  o.lines_per_class = 4;
  o.quiet = true;
  MapResult r = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o);
  r.run.command_line = "cumap --out fake (tests/report_html)";
  return r;
}

}  // namespace cumap::test
