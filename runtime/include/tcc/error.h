// The runtime's one error type. Every failure (a CUDA call, a malformed metadata file, a
// launch with the wrong arguments) throws a tcc::Error whose message says what was being
// done, for which kernel, and, for CUDA failures, the driver's error name.
#pragma once

#include "tcc/cuda_api.h"

#include <stdexcept>
#include <string>

namespace tcc {

class Error : public std::runtime_error {
public:
  // `doing`: what was being done ("loading vector_add.cubin"); `detail`: what went wrong.
  Error(const std::string& doing, const std::string& detail, const std::string& kernel = "",
        cu::CUresult code = cu::CUDA_SUCCESS, const std::string& cudaErrorName = "");

  // The kernel concerned, or empty.
  const std::string& kernel() const { return kernel_; }
  // The CUDA driver's name of the error ("CUDA_ERROR_INVALID_VALUE"), or empty when the
  // error did not come from the driver.
  const std::string& cudaErrorName() const { return cudaErrorName_; }
  // The CUresult (0 when the error did not come from the driver).
  cu::CUresult code() const { return code_; }
  const std::string& doing() const { return doing_; }

private:
  std::string kernel_;
  std::string cudaErrorName_;
  std::string doing_;
  cu::CUresult code_;
};

// Throws a tcc::Error if `result` is not CUDA_SUCCESS, naming the error (cuGetErrorName),
// what was being done and the kernel.
void check(cu::CUresult result, const std::string& doing, const std::string& kernel = "");

} // namespace tcc
