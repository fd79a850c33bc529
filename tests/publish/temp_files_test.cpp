// The registry of temporary files that a second interrupt removes: what
// registers and unregisters, and what happens when it is full.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "publish/atomic_file.hpp"
#include "publish/temp_files.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

TEST(TempFiles, RegistrationLastsAsLongAsTheObject) {
  const std::size_t before = registered_temp_file_count();
  {
    RegisteredTempFile a("some/where.tmp");
    RegisteredTempFile b("else/where.tmp");
    EXPECT_TRUE(a.registered());
    EXPECT_EQ(registered_temp_file_count(), before + 2);
  }
  EXPECT_EQ(registered_temp_file_count(), before);
}

TEST(TempFiles, WriteFileAtomicUnregistersItsTempFile) {
  const test::TempDir tmp;
  const std::size_t before = registered_temp_file_count();
  write_file_atomic(tmp.path() / "x.csv", "x\n");
  EXPECT_EQ(registered_temp_file_count(), before);
  EXPECT_THROW(write_file_atomic(tmp.path() / "missing" / "x.csv", "x\n"), std::exception);
  EXPECT_EQ(registered_temp_file_count(), before);
}

TEST(TempFiles, AFullRegistryDegradesToUnregistered) {
  std::vector<std::unique_ptr<RegisteredTempFile>> many;
  for (int i = 0; i < 300; ++i) many.push_back(std::make_unique<RegisteredTempFile>("f" + std::to_string(i)));
  EXPECT_TRUE(many.front()->registered());
  EXPECT_FALSE(many.back()->registered());
}

}  // namespace
}  // namespace cumap
