// libFuzzer target: what `tcc run --interpret` makes of its command line and input files,
// without a kernel: `--arg NAME=SPEC` (parseArgSpec, then materializeArg against a parameter
// of some type: scalars, rand/randn/const/arange/zeros/ones/empty buffers, .npy files),
// `--grid X,Y,Z` (parseGrid), and .npy images (parseNpy; readNpy through a file when the
// spec names one), each buffer printed (formatTile) and written back (encodeNpy).
//
// Input: byte 0 picks the parameter (bits 0-3: i1 i8 i16 i32 i64 f16 bf16 f32 f64; bit 4: a
// pointer to it), byte 1 the seed; then the spec text up to the first '\n' (also tried as a
// grid), and the .npy image after it (also what a spec naming a .npy file reads).
//
// A finding is a crash, a sanitizer report, a timeout, an allocation beyond -malloc_limit_mb
// (a size taken from the input before it is checked), or a .npy round trip that changes the
// buffer: what parseNpy read, written by encodeNpy and read again, must be the same buffer.
#include "compiler/Interpreter/ArgSpec.h"
#include "compiler/Interpreter/Format.h"
#include "compiler/Interpreter/Memory.h"
#include "compiler/Interpreter/Npy.h"
#include "compiler/Interpreter/RunCommand.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tcc::interp;

namespace {

/// Larger buffers are valid but only slow the search: checkShape is exercised on them, and
/// they are not made.
constexpr uint64_t kMaxFuzzBufferBytes = 1u << 20;

std::string npyPath;

[[noreturn]] void finding(const std::string &what) {
  std::fprintf(stderr, "interpreter_args_fuzz: %s\n", what.c_str());
  std::abort();
}

/// Prints `b` and checks that its .npy encoding reads back as the same buffer.
void checkBuffer(const Buffer &b) {
  (void)formatTile(b.dtype, b.shape, b.bytes.data(), 64);
  if (b.dtype == DType::BF16 || b.dtype == DType::Ptr)
    return; // NumPy has no bfloat16: written as float32 (and no pointer buffers)
  std::string encoded = encodeNpy(b);
  Buffer again;
  std::string error;
  if (!parseNpy(encoded, b.name, &again, &error))
    finding("encodeNpy wrote a .npy parseNpy rejects: " + error);
  std::vector<uint8_t> expected = b.bytes;
  if (b.dtype == DType::I1) // NumPy's booleans are 0 and 1
    for (uint8_t &v : expected)
      v = v ? 1 : 0;
  if (again.dtype != b.dtype || again.shape != b.shape || again.bytes != expected) {
    size_t at = 0;
    while (at < b.bytes.size() && at < again.bytes.size() && expected[at] == again.bytes[at])
      ++at;
    finding("a .npy round trip changed buffer '" + b.name + "' " + dtypeName(b.dtype) +
            shapeString(b.shape) + " -> " + dtypeName(again.dtype) + shapeString(again.shape) +
            (at < b.bytes.size() && at < again.bytes.size()
                 ? ", byte " + std::to_string(at) + ": " + std::to_string(b.bytes[at]) + " -> " +
                       std::to_string(again.bytes[at])
                 : std::string()));
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  npyPath = "/tmp/tcc-fuzz-interpreter-" + std::to_string(getpid()) + ".npy";
  std::atexit([] { std::remove(npyPath.c_str()); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2 || size > (1u << 16))
    return 0;
  static const DType kTypes[] = {DType::I1,  DType::I8,   DType::I16, DType::I32, DType::I64,
                                 DType::F16, DType::BF16, DType::F32, DType::F64};
  Param param;
  param.name = "x";
  DType t = kTypes[(data[0] & 15) % 9];
  if (data[0] & 16) {
    param.type = DType::Ptr;
    param.pointee = t;
  } else {
    param.type = t;
  }
  uint64_t seed = data[1];
  std::string rest(reinterpret_cast<const char *>(data + 2), size - 2);
  size_t nl = rest.find('\n');
  std::string specText = rest.substr(0, nl);
  std::string npy = nl == std::string::npos ? "" : rest.substr(nl + 1);

  std::string error;
  std::array<int64_t, 3> grid;
  (void)parseGrid(specText, &grid, &error);

  // The .npy image as a file of its own.
  Buffer b;
  if (parseNpy(npy, "x", &b, &error)) {
    if (b.numel() != int64_t(b.bytes.size() / b.elementSize()) ||
        b.bytes.size() != size_t(b.numel()) * b.elementSize())
      finding("parseNpy made a buffer whose bytes do not match its elements");
    checkBuffer(b);
    if (b.dtype != t && uint64_t(b.numel()) * dtypeSize(t) <= kMaxFuzzBufferBytes)
      checkBuffer(convertBuffer(b, t));
  }

  // The spec, materialised for the parameter.
  ArgSpec spec;
  if (!parseArgSpec(specText, &spec, &error))
    return 0;
  if (spec.kind == ArgSpec::Kind::File) {
    // Whatever file it names, it reads the input's .npy image.
    {
      std::ofstream out(npyPath, std::ios::binary | std::ios::trunc);
      out.write(npy.data(), std::streamsize(npy.size()));
    }
    spec.text = npyPath;
    if (param.type == DType::Ptr) {
      Buffer fromFile;
      if (readNpy(npyPath, "x", &fromFile, &error) &&
          uint64_t(fromFile.numel()) * dtypeSize(t) > kMaxFuzzBufferBytes)
        return 0; // converting a large file is valid, and slow
    }
  } else if (spec.isBuffer() && param.type == DType::Ptr) {
    int64_t count = 0;
    if (!checkShape(spec.shape, dtypeSize(t), &count, &error))
      return 0;
    if (uint64_t(count) * dtypeSize(t) > kMaxFuzzBufferBytes)
      return 0;
  }
  Memory memory;
  ArgValue value;
  if (!materializeArg(spec, param, seed, memory, &value, &error))
    return 0;
  if (value.kind == ArgValue::Kind::Buffer) {
    if (value.buffer < 0 || value.buffer >= memory.size())
      finding("materializeArg gave a buffer index outside the memory");
    const Buffer &made = memory[value.buffer];
    if (made.dtype != t)
      finding("materializeArg made a buffer of another element type");
    checkBuffer(made);
  }
  return 0;
}
