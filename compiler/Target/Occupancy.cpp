//===- Occupancy.cpp - programs per SM from registers and shared memory ---===//

#include "Occupancy.h"

#include <algorithm>

namespace tcc {

SmResources smResources(const std::string &arch) {
  SmResources sm; // sm_90 / sm_90a: 228 KiB of shared memory, 64 warps, 32 programs
  if (arch == "sm_80") {
    sm.sharedBytes = 167936; // 164 KiB
  } else if (arch == "sm_86") {
    sm.sharedBytes = 102400; // 100 KiB
    sm.maxWarps = 48;
    sm.maxPrograms = 16;
  } else if (arch == "sm_89") {
    sm.sharedBytes = 102400;
    sm.maxWarps = 48;
    sm.maxPrograms = 24;
  }
  return sm;
}

int Occupancy::programs() const {
  return std::min({byRegisters, bySharedMemory, byWarps, byPrograms});
}

bool Occupancy::registerBound() const {
  return byRegisters < std::min({bySharedMemory, byWarps, byPrograms});
}

Occupancy occupancy(const SmResources &sm, int registersPerThread, int warpsPerProgram,
                    int64_t sharedBytesPerProgram) {
  Occupancy o;
  int warps = std::max(warpsPerProgram, 1);
  int perThread = std::clamp(registersPerThread, 1, sm.maxRegistersPerThread);
  // A warp's registers are given in units of registerUnit (ptxas rounds a thread's count
  // so that its warp's fills whole units).
  int perWarp = (perThread * 32 + sm.registerUnit - 1) / sm.registerUnit * sm.registerUnit;
  // The register file is split over the SM's four schedulers, each holding whole warps.
  o.byRegisters = (sm.registers / 4 / perWarp) * 4 / warps;
  int64_t shared = std::max<int64_t>(sharedBytesPerProgram, 0) + sm.reservedSharedPerProgram;
  o.bySharedMemory = int(std::min<int64_t>(sm.sharedBytes / shared, sm.maxPrograms));
  o.byWarps = sm.maxWarps / warps;
  o.byPrograms = sm.maxPrograms;
  return o;
}

} // namespace tcc
