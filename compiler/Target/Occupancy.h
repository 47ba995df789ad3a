//===- Occupancy.h - programs per SM from registers and shared memory -*- C++ -*-===//
//
// How many programs (thread blocks) of a kernel one SM holds at once, from what ptxas
// allocated (registers per thread), the shared memory a program uses and the warps it has:
// the CUDA occupancy calculator's arithmetic for the architectures tcc targets. The driver
// uses it to tell whether registers are what limits a kernel (Codegen.cpp chooses the
// instruction order by it). Plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_TARGET_OCCUPANCY_H
#define TCC_COMPILER_TARGET_OCCUPANCY_H

#include <cstdint>
#include <string>

namespace tcc {

/// What one SM of an architecture offers.
struct SmResources {
  int registers = 65536;                // 32-bit registers
  int maxWarps = 64;                    // resident warps
  int maxPrograms = 32;                 // resident thread blocks
  int64_t sharedBytes = 233472;         // shared memory that programs can be given
  int64_t reservedSharedPerProgram = 1024; // the driver's part of each program's share
  int registerUnit = 256;               // registers are given to a warp in units of this
  int maxRegistersPerThread = 255;
};

/// sm_80, sm_86, sm_89, sm_90 and sm_90a (an unknown name: sm_90's).
SmResources smResources(const std::string &arch);

/// What limits the programs an SM holds, each limit on its own.
struct Occupancy {
  int byRegisters = 0, bySharedMemory = 0, byWarps = 0, byPrograms = 0;
  /// The programs an SM holds: the least of the four.
  int programs() const;
  /// Registers, and nothing else, hold it below what the other limits allow.
  bool registerBound() const;
};

Occupancy occupancy(const SmResources &sm, int registersPerThread, int warpsPerProgram,
                    int64_t sharedBytesPerProgram);

} // namespace tcc

#endif // TCC_COMPILER_TARGET_OCCUPANCY_H
