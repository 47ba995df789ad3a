// The artifacts folder against the table that made it (test/gpu/artifacts.cmake): every file
// the table promises must be there on a GPU machine, so that a tcc regression or a carry
// cut short shows up as a failure, not as GPU tests that find nothing to run. The runtime-
// only build checks the same when it is configured (test/gpu/CMakeLists.txt); this checks the
// folder the tests actually read ($TCC_ARTIFACTS).
#include "gpu_util.h"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

TEST(ArtifactTable, EveryPromisedFileIsThere) {
  TCC_REQUIRE_GPU();
  const std::vector<std::string>& promised = gputest::promisedArtifacts();
  ASSERT_FALSE(promised.empty()) << "no list of promised artifacts at " TCC_EXPECTED_ARTIFACTS;
  std::vector<std::string> missing;
  for (const std::string& f : promised)
    if (!gputest::exists(gputest::artifactsDir() + "/" + f))
      missing.push_back(f);
  std::string shown;
  for (size_t i = 0; i < missing.size() && i < 20; ++i)
    shown += "\n  " + missing[i];
  EXPECT_TRUE(missing.empty()) << missing.size() << " of the " << promised.size()
                               << " files test/gpu/artifacts.cmake promises are missing from "
                               << gputest::artifactsDir() << ":" << shown;
}

// The helper the tests use for one file: in a folder that lacks a promised file, a failure
// naming it; a file the table does not promise (another subset's) only skips.
TEST(ArtifactTable, AMissingPromisedFileIsAFailure) {
  TCC_REQUIRE_GPU();
  const std::vector<std::string>& promised = gputest::promisedArtifacts();
  ASSERT_FALSE(promised.empty());
  const std::string saved = gputest::artifactsDir();
  const std::string empty = testing::TempDir() + "tcc-empty-artifacts";
  std::filesystem::create_directories(empty);
  setenv("TCC_ARTIFACTS", empty.c_str(), 1);
  std::string message;
  bool fail = false;
  bool present = gputest::artifactPresent(promised.front(), &message, &fail);
  setenv("TCC_ARTIFACTS", saved.c_str(), 1);
  EXPECT_FALSE(present);
  EXPECT_TRUE(fail);
  EXPECT_NE(message.find(promised.front()), std::string::npos) << message;
  fail = true;
  EXPECT_FALSE(gputest::artifactPresent("tcc/no_such_kernel/X/no_such.json", &message, &fail));
  EXPECT_FALSE(fail) << message;
}

} // namespace
