//===- Autotune.h - an @autotune search space, as elaborated -----*- C++ -*-===//
//
// What Sema records of a kernel's @autotune decorator and the driver and the metadata
// need (docs/autotuning.md); plain C++, so that the back half can read it without the
// typed AST.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_AUTOTUNE_H
#define TCC_FRONTEND_AUTOTUNE_H

#include <string>
#include <vector>

namespace tcc {
namespace typed {

/// One configuration of the space.
struct AutotuneConfig {
  unsigned index = 0;      // its position among the declared configurations
  std::string description; // "BLOCK=1024, num_warps=4"
  std::string prunedBy;    // the prune condition that was false, as written; empty if kept
};
struct Autotune {
  std::vector<AutotuneConfig> configs; // every declared configuration, in order
  std::vector<std::string> key;        // integer parameters deciding the choice
  std::vector<std::string> restore;    // restore_value and reset_to_zero parameters
  std::string space;                   // 16 hex digits: the source and the space
  unsigned chosen = 0;                 // the configuration this elaboration used
};

} // namespace typed
} // namespace tcc

#endif // TCC_FRONTEND_AUTOTUNE_H
