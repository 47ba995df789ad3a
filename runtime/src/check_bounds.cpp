// Launches of kernels built with `tcc --check-bounds` (docs/runtime.md, "Bounds-checked
// kernels"): the extent of every pointer argument (the bytes from it to the end of its
// allocation, cuMemGetAddressRange) and a zeroed error record go after the arguments; after
// the launch the stream is synchronised and the record read; a violation throws.
#include "internal.h"

#include "tcc/driver.h"
#include "tcc/metadata.h"

#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace tcc {
namespace detail {
namespace {

// One error record per context and stream, allocated on first use and kept for the process;
// its mutex serialises the checked launches that share it (zero, launch, wait, read).
struct RecordSlot {
  CUdeviceptr ptr = 0;
  std::mutex mu;
};

RecordSlot& recordFor(CUcontext ctx, CUstream stream, int64_t bytes, const std::string& kernel) {
  static std::mutex mu;
  static std::map<std::pair<CUcontext, CUstream>, std::unique_ptr<RecordSlot>> slots;
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<RecordSlot>& slot = slots[{ctx, stream}];
  if (!slot) {
    auto s = std::make_unique<RecordSlot>();
    // Every record of a process is as large as the largest asked for (4 KiB at most).
    check(driver().cuMemAlloc(&s->ptr, 4096),
          "allocating the error record of a bounds-checked launch (" + std::to_string(bytes) +
              " bytes)",
          kernel);
    slot = std::move(s);
  }
  return *slot;
}

const char* kindName(uint32_t kind) {
  switch (kind) {
  case 0: return "load";
  case 1: return "store";
  case 2: return "atomic_add";
  case 3: return "asynchronous copy (load)";
  default: return "access";
  }
}

std::string baseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

std::string describeBoundsViolation(const unsigned char* record, const std::vector<ParamInfo>& params,
                                    const BoundsCheckInfo& info, const int64_t* extents,
                                    const bool* inAllocation, const std::string& source) {
  uint32_t w[8];
  std::memcpy(w, record, sizeof w);
  int64_t offset;
  std::memcpy(&offset, record + 32, sizeof offset);
  uint32_t line = w[1], column = w[2], kind = w[3], arg = w[4];
  std::string where = source.empty() ? std::string("line ") + std::to_string(line)
                                     : baseName(source) + ":" + std::to_string(line);
  if (column)
    where += ":" + std::to_string(column);
  std::string s = std::string("out-of-bounds ") + kindName(kind) + " at " + where +
                  " by program (" + std::to_string(w[5]) + ", " + std::to_string(w[6]) + ", " +
                  std::to_string(w[7]) + "): byte offset " + std::to_string(offset);
  size_t e = info.extentParams.size();
  for (size_t i = 0; i < info.extentParams.size(); ++i)
    if (info.extentParams[i] == arg)
      e = i;
  if (arg >= params.size() || e == info.extentParams.size())
    return s + " of argument " + std::to_string(arg) + " (not a pointer parameter: a corrupt record)";
  const ParamInfo& p = params[arg];
  int bytes = p.elementBits / 8 > 0 ? p.elementBits / 8 : 1;
  s += " of '" + p.name + "' (" + std::to_string(extents[e]) + " bytes valid";
  if (!inAllocation[e])
    s += ": the pointer is in no device allocation";
  s += "; element " + std::to_string(offset >= 0 ? offset / bytes : -((-offset + bytes - 1) / bytes)) +
       " of " + p.type + ")";
  return s;
}

void launchBoundsChecked(CUfunction fn, const Dim3& g, unsigned threads, unsigned shared,
                         CUstream stream, void** args, const std::vector<ParamInfo>& params,
                         const BoundsCheckInfo& info, const std::string& source,
                         const std::string& kernel, CUcontext moduleCtx,
                         const std::vector<void*>& trailing) {
  const Driver& d = driver();
  size_t n = info.extentParams.size();
  std::vector<int64_t> extents(n, 0);
  std::unique_ptr<bool[]> inAllocation(new bool[n + 1]());
  for (size_t i = 0; i < n; ++i) {
    CUdeviceptr p = 0, base = 0;
    size_t size = 0;
    std::memcpy(&p, args[info.extentParams[i]], sizeof p);
    if (p && d.cuMemGetAddressRange(&base, &size, p) == CUDA_SUCCESS && p >= base &&
        p - base <= size) {
      extents[i] = static_cast<int64_t>(base + size - p);
      inAllocation[i] = true;
    }
  }
  CUcontext ctx = nullptr;
  check(d.cuCtxGetCurrent(&ctx), "finding the current context (--check-bounds)", kernel);
  RecordSlot& slot = recordFor(ctx, stream, info.recordBytes, kernel);
  std::lock_guard<std::mutex> lock(slot.mu);
  check(d.cuMemsetD8Async(slot.ptr, 0, static_cast<size_t>(info.recordBytes), stream),
        "zeroing the error record (--check-bounds)", kernel);
  std::vector<void*> all(args, args + params.size());
  for (size_t i = 0; i < n; ++i)
    all.push_back(&extents[i]);
  CUdeviceptr record = slot.ptr;
  all.push_back(&record);
  all.insert(all.end(), trailing.begin(), trailing.end());
  launchChecked(fn, g, threads, shared, stream, all.data(), kernel, moduleCtx);
  check(d.cuStreamSynchronize(stream), "running (--check-bounds)", kernel);
  std::vector<unsigned char> host(static_cast<size_t>(info.recordBytes));
  check(d.cuMemcpyDtoH(host.data(), slot.ptr, host.size()),
        "reading the error record (--check-bounds)", kernel);
  uint32_t flag;
  std::memcpy(&flag, host.data(), sizeof flag);
  if (flag)
    throw Error("running (--check-bounds)",
                describeBoundsViolation(host.data(), params, info, extents.data(),
                                        inAllocation.get(), source),
                kernel);
}

} // namespace detail
} // namespace tcc
