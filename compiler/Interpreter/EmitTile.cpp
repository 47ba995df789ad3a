//===- EmitTile.cpp - grid queries, tile shapes, pointers, reduce, dot, print ===//

#include "compiler/Interpreter/Elementwise.h"
#include "compiler/Interpreter/Format.h"

#include "dialects/Tile/TileDialect.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <limits>

using namespace mlir;

namespace tcc::interp {
namespace {

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

Inst splatInst(const Slot &d, const Slot &s) {
  return visitBytes(d.dtype, [&](auto tag) -> Inst {
    using E = decltype(tag);
    E *pd = d.as<E>();
    const E *ps = s.as<E>();
    int64_t n = d.numel;
    return [=](ExecState &) {
      E v = *ps;
      for (int64_t i = 0; i < n; ++i)
        pd[i] = v;
    };
  });
}

/// d[c] = s[sum of c[i] * stride[i]]: each element of d gathered from s, `stride` in
/// source elements per step along each dimension of d (a transpose, a broadcast).
Inst stridedGatherInst(const Slot &d, const Slot &s, std::vector<int64_t> stride) {
  size_t rank = d.shape.size();
  std::vector<int64_t> shape = d.shape;
  return visitBytes(d.dtype, [&](auto tag) -> Inst {
    using E = decltype(tag);
    E *pd = d.as<E>();
    const E *ps = s.as<E>();
    int64_t total = d.numel;
    return [=](ExecState &) {
      for (int64_t lin = 0; lin < total; ++lin) {
        int64_t rest = lin, src = 0;
        for (size_t i = rank; i-- > 0;) {
          src += (rest % shape[i]) * stride[i];
          rest /= shape[i];
        }
        pd[lin] = ps[src];
      }
    };
  });
}

/// d[c] = s[c permuted back]: dimension i of d is dimension order[i] of s.
Inst transInst(const Slot &d, const Slot &s, llvm::ArrayRef<int32_t> order) {
  size_t rank = d.shape.size();
  std::vector<int64_t> srcStride(rank), stride(rank);
  int64_t st = 1;
  for (size_t i = rank; i-- > 0;) {
    srcStride[i] = st;
    st *= s.shape[i];
  }
  for (size_t i = 0; i < rank; ++i)
    stride[i] = srcStride[order[i]]; // source elements per step along d's dimension i
  return stridedGatherInst(d, s, std::move(stride));
}

Inst broadcastInst(const Slot &d, const Slot &s) {
  // Source strides in elements, 0 along the dimensions that repeat.
  size_t rank = d.shape.size();
  std::vector<int64_t> stride(rank, 0);
  int64_t st = 1;
  for (size_t i = rank; i-- > 0;) {
    stride[i] = s.shape[i] == 1 ? 0 : st;
    st *= s.shape[i];
  }
  if (rank != 2)
    return stridedGatherInst(d, s, std::move(stride));
  return visitBytes(d.dtype, [&](auto tag) -> Inst {
    using E = decltype(tag);
    E *pd = d.as<E>();
    const E *ps = s.as<E>();
    int64_t m = d.shape[0], n = d.shape[1], s0 = stride[0], s1 = stride[1];
    return [=](ExecState &) {
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          pd[i * n + j] = ps[i * s0 + j * s1];
    };
  });
}

Inst addptrInst(const Slot &d, const Slot &p, const Slot &off) {
  int64_t es = int64_t(dtypeSize(d.pointee));
  return visitInt(off.dtype, [&](auto tag) -> Inst {
    using T = decltype(tag);
    return zipInst<PtrVal, PtrVal, T>(d, p, off, [es](PtrVal ptr, T o) {
      return PtrVal{int64_t(uint64_t(ptr.offset) + uint64_t(IntOps<T>::s(o)) * uint64_t(es)),
                    ptr.buffer};
    });
  });
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// The combining functions on the compute type C of storage type T.
template <typename T> struct Reducer {
  static constexpr bool isF = isFloatStorage<T>;
  // Floats compare and add in their compute type; integers as int64 (i1 unsigned, so that
  // max is "any" and min "all").
  static auto key(T v) {
    if constexpr (isF)
      return FloatOps<T>::get(v);
    else if constexpr (std::is_same_v<T, uint8_t>)
      return int64_t(v & 1);
    else
      return IntOps<T>::s(v);
  }
  static bool isNaN(T v) {
    if constexpr (isF)
      return std::isnan(FloatOps<T>::get(v));
    else
      return false;
  }
  static T add(T a, T b) {
    if constexpr (isF)
      return FloatOps<T>::put(FloatOps<T>::get(a) + FloatOps<T>::get(b));
    else
      return IntOps<T>::wrap(IntOps<T>::u(a) + IntOps<T>::u(b));
  }
  /// NaN-propagating max/min; +0 above -0.
  static T pick(T a, T b, bool max) {
    if (isNaN(a))
      return a;
    if (isNaN(b))
      return b;
    auto ka = key(a), kb = key(b);
    if constexpr (isF)
      if (ka == kb)
        return std::signbit(ka) == max ? b : a;
    if (max)
      return ka < kb ? b : a;
    return kb < ka ? b : a;
  }
};

template <typename T>
Inst reduceInst(tile::ReduceKind kind, const Slot &d, const Slot &s, unsigned axis) {
  int64_t outer = 1, len = s.shape[axis], inner = 1;
  for (unsigned i = 0; i < axis; ++i)
    outer *= s.shape[i];
  for (size_t i = axis + 1; i < s.shape.size(); ++i)
    inner *= s.shape[i];
  const T *ps = s.as<T>();
  using R = Reducer<T>;
  if (kind == tile::ReduceKind::ArgMax || kind == tile::ReduceKind::ArgMin) {
    bool max = kind == tile::ReduceKind::ArgMax;
    int32_t *pd = d.as<int32_t>();
    return [=](ExecState &) {
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t in = 0; in < inner; ++in) {
          const T *col = ps + o * len * inner + in;
          int64_t best = 0;
          for (int64_t j = 1; j < len && !R::isNaN(col[best * inner]); ++j) {
            T v = col[j * inner];
            if (R::isNaN(v) || (max ? R::key(col[best * inner]) < R::key(v)
                                    : R::key(v) < R::key(col[best * inner])))
              best = j;
          }
          pd[o * inner + in] = int32_t(best);
        }
    };
  }
  // Sum, max and min combine pairwise, halving the active width each step: the order of a
  // shuffle-based reduction on the GPU, and a smaller error than a running sum.
  T *pd = d.as<T>();
  auto scratch = std::make_shared<std::vector<T>>(size_t(len));
  return [=](ExecState &) {
    T *tmp = scratch->data();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t in = 0; in < inner; ++in) {
        const T *col = ps + o * len * inner + in;
        for (int64_t j = 0; j < len; ++j)
          tmp[j] = col[j * inner];
        for (int64_t w = len; w > 1;) {
          int64_t h = (w + 1) / 2;
          for (int64_t j = 0; j + h < w; ++j)
            tmp[j] = kind == tile::ReduceKind::Sum ? R::add(tmp[j], tmp[j + h])
                                                   : R::pick(tmp[j], tmp[j + h],
                                                             kind == tile::ReduceKind::Max);
          w = h;
        }
        pd[o * inner + in] = tmp[0];
      }
  };
}

//===----------------------------------------------------------------------===//
// dot: f32 accumulation with one fused multiply-add per k, in k order
//===----------------------------------------------------------------------===//

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2,fma"))) void dotKernelFma(const float *a, const float *b, float *d,
                                                      int64_t m, int64_t n, int64_t k) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t l = 0; l < k; ++l) {
      float av = a[i * k + l];
      const float *brow = b + l * n;
      float *drow = d + i * n;
      for (int64_t j = 0; j < n; ++j)
        drow[j] = __builtin_fmaf(av, brow[j], drow[j]);
    }
}
bool haveFma() { return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2"); }
#else
void dotKernelFma(const float *, const float *, float *, int64_t, int64_t, int64_t) {}
bool haveFma() { return false; }
#endif

void dotKernel(const float *a, const float *b, float *d, int64_t m, int64_t n, int64_t k) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t l = 0; l < k; ++l) {
      float av = a[i * k + l];
      for (int64_t j = 0; j < n; ++j)
        d[i * n + j] = std::fma(av, b[l * n + j], d[i * n + j]);
    }
}

template <typename T> const float *asFloats(const T *p, int64_t n, std::vector<float> &tmp) {
  if constexpr (std::is_same_v<T, float>) {
    return p;
  } else {
    for (int64_t i = 0; i < n; ++i)
      tmp[size_t(i)] = FloatOps<T>::get(p[i]);
    return tmp.data();
  }
}

Inst dotInst(const Slot &d, const Slot &a, const Slot &b, const Slot &acc) {
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  auto kernel = haveFma() ? dotKernelFma : dotKernel;
  float *pd = d.as<float>();
  const float *pacc = acc.as<float>();
  return visitFloat(a.dtype, [&](auto tag) -> Inst {
    using T = decltype(tag);
    const T *pa = a.as<T>(), *pb = b.as<T>();
    auto ta = std::make_shared<std::vector<float>>(size_t(m * k));
    auto tb = std::make_shared<std::vector<float>>(size_t(k * n));
    return [=](ExecState &) {
      const float *fa = asFloats(pa, m * k, *ta), *fb = asFloats(pb, k * n, *tb);
      if (pd != pacc)
        std::memcpy(pd, pacc, size_t(m * n) * sizeof(float));
      kernel(fa, fb, pd, m, n, k);
    };
  });
}

//===----------------------------------------------------------------------===//
// print
//===----------------------------------------------------------------------===//

Inst printInst(std::string prefix, std::vector<Slot> args) {
  return [prefix = std::move(prefix), args = std::move(args)](ExecState &st) {
    std::string line = "pid " + st.pidString() + " " + prefix;
    if (!args.empty() && !prefix.empty() && prefix.back() != ' ')
      line += ' ';
    Memory *mem = st.memory;
    for (size_t i = 0; i < args.size(); ++i) {
      const Slot &s = args[i];
      size_t es = dtypeSize(s.pointee);
      auto pointer = [mem, es](const PtrVal &p) {
        std::string name = p.buffer >= 0 && p.buffer < mem->size()
                               ? (*mem)[p.buffer].name
                               : "buffer" + std::to_string(p.buffer);
        if (p.offset % int64_t(es))
          return "&" + name + " + " + std::to_string(p.offset) + " bytes";
        return "&" + name + "[" + std::to_string(p.offset / int64_t(es)) + "]";
      };
      line += (i ? ", " : "") + formatTile(s.dtype, s.shape, s.data, st.options->printLimit,
                                           pointer);
    }
    st.print(line);
  };
}

} // namespace

Emitted emitTile(Compiler &c, Operation *op, InstList &out) {
  if (!isa_and_nonnull<tile::TileDialect>(op->getDialect()))
    return Emitted::NotMine;
  if (isa<tile::LoadOp, tile::StoreOp, tile::AtomicAddOp, tile::AtomicRMWOp, tile::AtomicCASOp,
          tile::BarrierOp, tile::ExternElementwiseOp>(op))
    return Emitted::NotMine; // EmitMemory.cpp, EmitMath.cpp
  for (Value v : op->getOperands()) {
    DType t;
    if (!c.dtypeOf(v.getType(), &t))
      return c.fail(op, "the interpreter does not support values of this type");
  }

  if (auto pid = dyn_cast<tile::ProgramIdOp>(op)) {
    int32_t *p = c.slot(pid.getResult()).as<int32_t>();
    unsigned axis = pid.getAxis();
    out.push_back([p, axis](ExecState &st) { *p = st.pid[axis]; });
    return Emitted::Done;
  }
  if (auto np = dyn_cast<tile::NumProgramsOp>(op)) {
    int32_t *p = c.slot(np.getResult()).as<int32_t>();
    unsigned axis = np.getAxis();
    out.push_back([p, axis](ExecState &st) { *p = st.nprog[axis]; });
    return Emitted::Done;
  }
  if (auto range = dyn_cast<tile::MakeRangeOp>(op)) {
    const Slot &d = c.slot(range.getResult());
    int32_t *p = d.as<int32_t>();
    int32_t start = int32_t(range.getStart());
    for (int64_t i = 0; i < d.numel; ++i)
      p[i] = start + int32_t(i);
    return Emitted::Done; // a constant: filled once
  }
  if (auto splat = dyn_cast<tile::SplatOp>(op)) {
    out.push_back(splatInst(c.slot(splat.getResult()), c.slot(splat.getSrc())));
    return Emitted::Done;
  }
  if (auto bc = dyn_cast<tile::BroadcastOp>(op)) {
    if (bc.getSrc().getType().getShape() == bc.getType().getShape()) {
      c.alias(bc.getResult(), bc.getSrc());
      return Emitted::Done;
    }
    out.push_back(broadcastInst(c.slot(bc.getResult()), c.slot(bc.getSrc())));
    return Emitted::Done;
  }
  // Same elements in the same row-major order: the result shares the operand's storage.
  if (isa<tile::ExpandDimsOp, tile::ConvertLayoutOp, tile::HintOp, tile::ReshapeOp>(op)) {
    if (!c.alias(op->getResult(0), op->getOperand(0)))
      return c.fail(op, "result and operand differ in size");
    return Emitted::Done;
  }
  if (auto px = dyn_cast<tile::PermuteXorOp>(op)) {
    // Element c along the axis takes the source's element c ^ mask.
    const Slot &d = c.slot(px.getResult());
    const Slot &src = c.slot(px.getSrc());
    unsigned axis = px.getAxis();
    int64_t len = d.shape[axis], inner = 1, mask = px.getMask();
    for (size_t k = axis + 1; k < d.shape.size(); ++k)
      inner *= d.shape[k];
    size_t size = dtypeSize(d.dtype);
    out.push_back([=, pd = d.as<unsigned char>(), ps = src.as<unsigned char>(),
                   numel = d.numel](ExecState &) {
      for (int64_t lin = 0; lin < numel; ++lin) {
        int64_t k = (lin / inner) % len;
        int64_t from = lin + ((k ^ mask) - k) * inner;
        std::memcpy(pd + lin * size, ps + from * size, size);
      }
    });
    return Emitted::Done;
  }
  if (auto trans = dyn_cast<tile::TransOp>(op)) {
    out.push_back(transInst(c.slot(trans.getResult()), c.slot(trans.getSrc()), trans.getOrder()));
    return Emitted::Done;
  }
  // Addresses: the interpreter's own (addressOf, Values.h), so that a pointer made from one
  // points into the buffer it came from.
  if (auto toPtr = dyn_cast<tile::IntToPtrOp>(op)) {
    out.push_back(mapInst<PtrVal, int64_t>(c.slot(toPtr.getResult()), c.slot(toPtr.getSrc()),
                                           [](int64_t a) { return pointerAt(a); }));
    return Emitted::Done;
  }
  if (auto toInt = dyn_cast<tile::PtrToIntOp>(op)) {
    out.push_back(mapInst<int64_t, PtrVal>(c.slot(toInt.getResult()), c.slot(toInt.getSrc()),
                                           [](PtrVal p) { return addressOf(p); }));
    return Emitted::Done;
  }
  if (auto add = dyn_cast<tile::AddPtrOp>(op)) {
    out.push_back(addptrInst(c.slot(add.getResult()), c.slot(add.getPtr()),
                             c.slot(add.getOffset())));
    return Emitted::Done;
  }
  if (auto red = dyn_cast<tile::ReduceOp>(op)) {
    const Slot &s = c.slot(red.getSrc());
    const Slot &d = c.slot(red.getResult());
    if (s.dtype == DType::Ptr)
      return c.fail(op, "cannot reduce pointers");
    out.push_back(visitScalar(s.dtype, [&](auto tag) -> Inst {
      return reduceInst<decltype(tag)>(red.getKind(), d, s, red.getAxis());
    }));
    return Emitted::Done;
  }
  if (auto scan = dyn_cast<tile::ScanOp>(op)) {
    // The combiner runs on scalar slots of its own: its arguments are the running value
    // (earlier part) and the next element (later part), its results the new running value.
    Block &body = scan.getCombiner().front();
    auto combiner = std::make_shared<InstList>();
    if (!c.emitBlock(body, *combiner))
      return Emitted::Failed;
    size_t n = scan.getSrcs().size();
    struct Part {
      const unsigned char *src;
      unsigned char *dst, *earlier, *later;
      const unsigned char *combined;
      size_t size;
    };
    std::vector<Part> parts;
    for (size_t i = 0; i < n; ++i) {
      const Slot &src = c.slot(scan.getSrcs()[i]);
      const Slot &dst = c.slot(scan.getResult(i));
      Part p;
      p.src = src.as<unsigned char>();
      p.dst = dst.as<unsigned char>();
      p.earlier = c.slot(body.getArgument(i)).as<unsigned char>();
      p.later = c.slot(body.getArgument(n + i)).as<unsigned char>();
      p.combined = c.slot(body.getTerminator()->getOperand(i)).as<unsigned char>();
      p.size = dtypeSize(src.dtype);
      parts.push_back(p);
    }
    const Slot &first = c.slot(scan.getSrcs()[0]);
    unsigned axis = scan.getAxis();
    int64_t len = first.shape[axis], inner = 1, outer = 1;
    for (size_t d = 0; d < first.shape.size(); ++d) {
      if (d < axis)
        outer *= first.shape[d];
      else if (d > axis)
        inner *= first.shape[d];
    }
    bool reverse = scan.getReverse();
    out.push_back([=](ExecState &st) {
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i)
          for (int64_t step = 0; step < len; ++step) {
            int64_t k = reverse ? len - 1 - step : step;
            int64_t at = (o * len + k) * inner + i;
            if (step == 0) {
              for (const Part &p : parts)
                std::memcpy(p.dst + at * p.size, p.src + at * p.size, p.size);
              continue;
            }
            int64_t prev = (o * len + (reverse ? k + 1 : k - 1)) * inner + i;
            for (const Part &p : parts) {
              std::memcpy(p.earlier, p.dst + prev * p.size, p.size);
              std::memcpy(p.later, p.src + at * p.size, p.size);
            }
            runList(*combiner, st);
            if (st.failed)
              return;
            for (const Part &p : parts)
              std::memcpy(p.dst + at * p.size, p.combined, p.size);
          }
    });
    return Emitted::Done;
  }
  if (auto dot = dyn_cast<tile::DotOp>(op)) {
    out.push_back(dotInst(c.slot(dot.getResult()), c.slot(dot.getA()), c.slot(dot.getB()),
                          c.slot(dot.getAcc())));
    return Emitted::Done;
  }
  if (auto assertOp = dyn_cast<tile::AssertOp>(op)) {
    // device_assert: the message, and the site's file and line (the error is located).
    const Slot &cond = c.slot(assertOp.getCond());
    OpSite *site = c.site(op);
    std::string msg = assertOp.getMessage().str();
    out.push_back([site, msg, data = cond.as<uint8_t>(), numel = cond.numel](ExecState &st) {
      for (int64_t i = 0; i < numel; ++i)
        if (!(data[i] & 1)) {
          std::string where = numel == 1 ? "" : " at element " + std::to_string(i);
          st.fail(site, "device_assert failed" + where + (msg.empty() ? "" : ": " + msg));
          return;
        }
    });
    return Emitted::Done;
  }
  if (auto assume = dyn_cast<tile::AssumeOp>(op)) {
    // The compiled program may rely on the promise: here it is checked, element by element.
    const Slot &cond = c.slot(assume.getCond());
    OpSite *site = c.site(op);
    out.push_back([site, data = cond.as<uint8_t>(), numel = cond.numel](ExecState &st) {
      for (int64_t i = 0; i < numel; ++i)
        if (!(data[i] & 1)) {
          std::string where = numel == 1 ? "" : " at element " + std::to_string(i);
          st.fail(site, "assume() does not hold" + where + ": the compiled program may rely "
                                                           "on it");
          return;
        }
    });
    return Emitted::Done;
  }
  if (auto print = dyn_cast<tile::PrintOp>(op)) {
    std::vector<Slot> args;
    for (Value v : print.getArgs())
      args.push_back(c.slot(v));
    out.push_back(printInst(print.getPrefix().str(), std::move(args)));
    return Emitted::Done;
  }
  return Emitted::NotMine;
}

} // namespace tcc::interp
