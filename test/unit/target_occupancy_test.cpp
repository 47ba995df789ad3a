// tcc::occupancy (compiler/Target/Occupancy.h) against the CUDA occupancy calculator's
// figures for sm_90 and sm_86, and which limit binds.

#include "Occupancy.h"

#include <gtest/gtest.h>

namespace {

TEST(Occupancy, RegistersLimitASmallKernel) {
  tcc::SmResources sm = tcc::smResources("sm_90");
  // Tutorial 04's seeded dropout, 4 warps: 48 registers give 10 programs, 32 give 16 (the
  // 64 warps of an SM).
  tcc::Occupancy o48 = tcc::occupancy(sm, 48, 4, 0);
  EXPECT_EQ(o48.byRegisters, 10);
  EXPECT_EQ(o48.programs(), 10);
  EXPECT_TRUE(o48.registerBound());
  tcc::Occupancy o32 = tcc::occupancy(sm, 32, 4, 0);
  EXPECT_EQ(o32.programs(), 16);
  EXPECT_EQ(o32.byWarps, 16);
  EXPECT_FALSE(o32.registerBound());
}

TEST(Occupancy, RegistersAreGivenPerWarpInUnits) {
  tcc::SmResources sm = tcc::smResources("sm_90");
  // 57 registers a thread (1824 a warp) take 2048, 8 units: 8 warps a scheduler, 32 an SM.
  EXPECT_EQ(tcc::occupancy(sm, 57, 1, 0).byRegisters, 32);
  EXPECT_EQ(tcc::occupancy(sm, 56, 1, 0).byRegisters, 36);
  // 255 registers: 2 warps a scheduler.
  EXPECT_EQ(tcc::occupancy(sm, 255, 8, 0).byRegisters, 1);
  EXPECT_EQ(tcc::occupancy(sm, 255, 4, 0).byRegisters, 2);
}

TEST(Occupancy, SharedMemoryBindsAGemm) {
  tcc::SmResources sm = tcc::smResources("sm_90");
  // A 4-stage 128x256x64 fp16 ring (192 KiB) on 8 warps at 255 registers: one program,
  // by registers and by shared memory alike, so registers alone do not bind.
  tcc::Occupancy o = tcc::occupancy(sm, 255, 8, 196608);
  EXPECT_EQ(o.bySharedMemory, 1);
  EXPECT_EQ(o.programs(), 1);
  EXPECT_FALSE(o.registerBound());
  // Each program's share includes the driver's kilobyte: 114 KiB fits once, 113 twice.
  EXPECT_EQ(tcc::occupancy(sm, 32, 4, 114 * 1024).bySharedMemory, 1);
  EXPECT_EQ(tcc::occupancy(sm, 32, 4, 113 * 1024).bySharedMemory, 2);
}

TEST(Occupancy, ArchitecturesDiffer) {
  // sm_86: 48 warps and 16 programs an SM, 100 KiB of shared memory.
  tcc::Occupancy o = tcc::occupancy(tcc::smResources("sm_86"), 16, 1, 0);
  EXPECT_EQ(o.byWarps, 48);
  EXPECT_EQ(o.programs(), 16);
  EXPECT_EQ(tcc::occupancy(tcc::smResources("sm_86"), 16, 1, 50 * 1024).bySharedMemory, 1);
  EXPECT_EQ(tcc::occupancy(tcc::smResources("sm_80"), 16, 1, 50 * 1024).bySharedMemory, 3);
}

} // namespace
