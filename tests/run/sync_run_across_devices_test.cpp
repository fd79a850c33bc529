// `cumap barrier` and `cumap contention` over a fake of two chips joined by
// a link: homes per chip, sets interleaving the chips, counters on each chip
// in turn, two-level by chip, grid.sync() refused across, and what the
// files then say.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "fake_chip_backend.hpp"
#include "core/sync_summary.hpp"
#include "report/sync_csv.hpp"
#include "report/sync_summary_md.hpp"
#include "run/sync_run.hpp"
#include "small_map.hpp"

namespace cumap {
namespace sync_run_across_devices_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

test::FakeChip two_chips() {
  test::FakeChip chip;
  chip.devices = 2;
  chip.units = 8;
  chip.link_ns = 900.0;       // into device 0's memory
  chip.link_step_ns = 100.0;  // into device 1's: 1000
  return chip;
}

SyncOptions sync_options(bool contention = false) {
  SyncOptions o;
  o.common = test::small_options();
  o.common.home_lines = 64;
  o.contention = contention;
  o.sets = {ParticipantSet::OneSide, ParticipantSet::Alternating};
  o.episodes = 10;
  o.warmup = 2;
  o.launches = 2;
  return o;
}

const SyncCaseResult& find_case(const SyncResult& r, const std::string& what, const std::string& set, int k,
                                const std::string& home, const std::string& counter_gpu) {
  for (const SyncCaseResult& c : r.cases)
    if (c.what == what && c.label.set == set && c.label.k == k && c.label.counter_home == home &&
        c.label.counter_gpu == counter_gpu)
      return c;
  throw std::logic_error("no case " + what + " " + set + " " + std::to_string(k) + " " + home + " " + counter_gpu);
}

TEST(SyncRunAcrossDevices, EveryCaseOfBothChipsIsMeasuredWithItsCounterGpu) {
  test::FakeChipBackend chip(two_chips());
  const SyncResult r = measure_sync_run(chip, chip.units(), sync_options());
  EXPECT_EQ(chip.sync_calls, 1);
  ASSERT_EQ(r.discovery.homes.size(), 2u);
  ASSERT_TRUE(r.complete());
  std::set<std::string> gpus, grouped_by;
  for (const SyncCaseResult& c : r.cases) {
    gpus.insert(c.label.counter_gpu);
    if (c.what == "two-level") grouped_by.insert(c.label.grouped_by);
    EXPECT_EQ(c.launches, 2);
    if (c.what == "platform") {
      EXPECT_TRUE(c.unsupported) << "no grid spans the chips";
      EXPECT_EQ(c.label.counter_gpu, "");
    } else {
      EXPECT_TRUE(c.measured()) << c.what << " " << c.label.set << " k=" << c.label.k;
    }
  }
  EXPECT_EQ(gpus, (std::set<std::string>{"g0", "g1", "each", ""}));
  EXPECT_EQ(grouped_by, (std::set<std::string>{"gpu"}));
  // k = 2 is a unit of each chip; the largest k every unit of both.
  const SyncCaseResult& two = find_case(r, "counter", "alternating", 2, "near", "g0");
  EXPECT_EQ(two.participants, (std::vector<int>{0, kDeviceUnitStride}));
  EXPECT_EQ(find_case(r, "counter", "alternating", 16, "near", "g1").participants.size(), 16u);
  // The far chip reaches the counter over the link: into chip 0's memory 900
  // ns, chip 1's 1000; two-level by chip polls only its own chip and pays the
  // link once, for the exchange.
  EXPECT_DOUBLE_EQ(two.per_barrier_ns, 2 * 900.0);
  EXPECT_DOUBLE_EQ(find_case(r, "counter", "alternating", 2, "near", "g1").per_barrier_ns, 2 * 1000.0);
  EXPECT_DOUBLE_EQ(find_case(r, "two-level", "alternating", 2, "near", "each").per_barrier_ns, 2 * 150.0 + 1000.0);
}

TEST(SyncRunAcrossDevices, TheFilesNameTheCounterGpuAndTheSummarySaysWhichConstructionWins) {
  test::FakeChipBackend chip(two_chips());
  SyncOptions o = sync_options();
  o.impls = {BarrierImpl::Counter, BarrierImpl::TwoLevel};
  const SyncResult r = measure_sync_run(chip, chip.units(), o);
  EXPECT_TRUE(sync_spans_gpus(r));
  const std::string csv = sync_csv(r);
  EXPECT_EQ(csv.rfind("implementation,k,set,counter_home,counter_gpu,counter_class,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\ncounter,2,alternating,near,g1,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ntwo-level,2,alternating,near,each,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",g0.0 g1.0,"), std::string::npos) << "participants named as the map names units: " << csv;
  const std::string md = sync_summary_markdown(sync_summary(r));
  EXPECT_NE(md.find("## Across GPUs"), std::string::npos) << md;
  EXPECT_NE(md.find("- alternating k=16: two-level by GPU is cheapest"), std::string::npos) << md;
  EXPECT_NE(md.find("counter on g0"), std::string::npos) << md;
  EXPECT_NE(md.find("| counter GPU |"), std::string::npos) << md;
}

TEST(SyncRunAcrossDevices, ContentionPutsTheLineOnEachChipOfItsContenders) {
  test::FakeChipBackend chip(two_chips());
  SyncOptions o = sync_options(true);
  o.ops = {ContentionOp::Add};
  o.sets = {ParticipantSet::OneSide};
  const SyncResult r = measure_sync_run(chip, chip.units(), o);
  std::map<int, std::set<std::string>> gpus_by_k;
  for (const SyncCaseResult& c : r.cases) {
    EXPECT_TRUE(c.measured());
    gpus_by_k[c.label.k].insert(c.label.counter_gpu);
  }
  EXPECT_EQ(gpus_by_k.at(1), (std::set<std::string>{"g0"})) << "one contender: its own chip's line";
  EXPECT_EQ(gpus_by_k.at(2), (std::set<std::string>{"g0", "g1"}));
  // Chip 1's contender reaches chip 0's line over the link.
  EXPECT_DOUBLE_EQ(find_case(r, "add", "one-side", 2, "near", "g0").ns.p95, 900.0);
}

TEST(SyncRunAcrossDevices, OneChipNamesNoGpuAnywhere) {
  test::FakeChipBackend chip(test::FakeChip{});
  const SyncResult r = measure_sync_run(chip, chip.units(), sync_options());
  EXPECT_FALSE(sync_spans_gpus(r));
  for (const SyncCaseResult& c : r.cases) EXPECT_EQ(c.label.counter_gpu, "");
  const std::string csv = sync_csv(r);
  EXPECT_EQ(csv.find("counter_gpu"), std::string::npos);
  EXPECT_EQ(sync_summary_markdown(sync_summary(r)).find("Across GPUs"), std::string::npos);
}

}  // namespace
}  // namespace cumap
