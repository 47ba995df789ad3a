//===- EmitMemory.cpp - checked loads, stores and atomics -----------------===//
//
// The memory checker: every active lane of a load, store or atomic_add must point inside
// the buffer its pointer was derived from, aligned to the element size; loads and atomics
// must read elements something has written. Lanes a mask turns off are never checked (and
// a load gives them `other`, or zero; an atomic_add zero). The first violation stops the run with a located diagnostic.
//
//===----------------------------------------------------------------------===//

#include "compiler/Interpreter/Elementwise.h"

#include "dialects/Tile/TileDialect.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstring>
#include <optional>

using namespace mlir;

namespace tcc::interp {
namespace {

/// What a diagnostic needs to know about one access op.
struct Access {
  OpSite *site;
  bool isStore;      // writes (a store or an atomic)
  const char *what; // "load", "store", "atomic_add"
  std::vector<int64_t> shape;
  const PtrVal *ptrs;
  const uint8_t *mask; // null: unmasked
  int64_t numel;
  int64_t elementSize;
};

std::string laneString(const std::vector<int64_t> &shape, int64_t lane) {
  if (shape.empty())
    return "the scalar access";
  std::string coords;
  int64_t rest = lane;
  for (size_t i = shape.size(); i-- > 0;) {
    coords = std::to_string(rest % shape[i]) + (coords.empty() ? "" : ", ") + coords;
    rest /= shape[i];
  }
  return "lane [" + coords + "] of the " + shapeString(shape) + " tile";
}

/// Whether `p` addresses a whole element of `es` bytes inside its buffer: the one bounds
/// check of loads, stores and atomics.
inline bool inBounds(const ExecState &st, const PtrVal &p, int64_t es) {
  if (p.buffer < 0 || p.buffer >= int64_t(st.buffers.size()))
    return false;
  const BufferView &b = st.buffers[size_t(p.buffer)];
  return p.offset >= 0 && p.offset <= b.bytes - es && p.offset % es == 0;
}

/// Reports the first bad lane of `a` (lane `first`), counting all of them.
[[gnu::cold]] void reportOutOfBounds(ExecState &st, const Access &a, int64_t first) {
  int64_t bad = 0;
  for (int64_t i = 0; i < a.numel; ++i)
    if ((!a.mask || a.mask[i]) && !inBounds(st, a.ptrs[i], a.elementSize))
      ++bad;
  const PtrVal &p = a.ptrs[first];
  const char *what = a.what;
  std::string msg;
  std::vector<std::string> notes;
  if (p.buffer < 0 || p.buffer >= int64_t(st.buffers.size())) {
    msg = std::string(what) + " through a pointer into no buffer";
  } else {
    const BufferView &b = st.buffers[size_t(p.buffer)];
    int64_t elems = b.bytes / a.elementSize;
    const std::string &name = *b.name;
    if (p.offset % a.elementSize) {
      msg = std::string("misaligned ") + what + " " + (a.isStore ? "to" : "from") + " '" + name +
            "': byte offset " + std::to_string(p.offset) + " is not a multiple of " +
            std::to_string(a.elementSize);
    } else {
      int64_t e = p.offset / a.elementSize;
      msg = std::string("out-of-bounds ") + what + " " + (a.isStore ? "to" : "from") + " '" +
            name + "': element " + std::to_string(e) + " is " +
            (e < 0 ? "before the start of" : "past the end of") + " the buffer (" +
            std::to_string(elems) + " elements, valid offsets 0.." + std::to_string(elems - 1) +
            ")";
    }
  }
  notes.push_back("at " + laneString(a.shape, first) +
                  (a.shape.empty() ? ""
                                   : "; " + std::to_string(bad) + " of its " +
                                         std::to_string(a.numel) + " lanes are out of bounds"));
  notes.push_back(a.mask ? std::string("the ") + what +
                               "'s mask is true on these lanes: does the mask test the bound?"
                         : std::string("the ") + what +
                               " has no mask: lanes past the end need `mask=`");
  st.fail(a.site, msg, notes);
}

[[gnu::cold]] void reportUninitialised(ExecState &st, const Access &a, int64_t lane) {
  const PtrVal &p = a.ptrs[lane];
  const BufferView &b = st.buffers[size_t(p.buffer)];
  std::string msg = std::string(a.what) + " reads uninitialised memory: element " +
                    std::to_string(p.offset / a.elementSize) + " of '" + *b.name +
                    "' was never written";
  if (st.options->uninitReads == UninitPolicy::Warn) {
    st.warn(a.site, msg + " (at " + laneString(a.shape, lane) + ")");
    return;
  }
  st.fail(a.site, msg,
          {"at " + laneString(a.shape, lane),
           "outputs created with 'empty:' start uninitialised; use --allow-uninit to "
           "warn instead"});
}

/// Checks lane i of `a` (an active lane): in bounds and, with checkInit, initialised. False
/// when the access must stop: out of bounds, or an uninitialised read the policy fails on
/// (one it only warns about lets the access go on).
inline bool checkLane(ExecState &st, const Access &a, int64_t i, bool checkInit) {
  const PtrVal p = a.ptrs[i];
  if (!inBounds(st, p, a.elementSize)) {
    reportOutOfBounds(st, a, i);
    return false;
  }
  if (checkInit && !st.buffers[size_t(p.buffer)].init[p.offset / a.elementSize]) {
    reportUninitialised(st, a, i);
    if (st.failed)
      return false;
  }
  return true;
}

/// checkLane on every active lane, before a store or an atomic changes anything, so that a
/// failing one changes nothing.
inline bool checkActiveLanes(ExecState &st, const Access &a, bool checkInit) {
  for (int64_t i = 0; i < a.numel; ++i)
    if ((!a.mask || a.mask[i]) && !checkLane(st, a, i, checkInit))
      return false;
  return true;
}

template <typename E>
Inst loadInst(const Access &a, E *pd, const E *pother) {
  return [a, pd, pother](ExecState &st) {
    const bool checkInit = st.options->uninitReads != UninitPolicy::Ignore;
    const BufferView *bufs = st.buffers.data();
    for (int64_t i = 0; i < a.numel; ++i) {
      if (a.mask && !a.mask[i]) {
        pd[i] = pother ? pother[i] : E{};
        continue;
      }
      if (!checkLane(st, a, i, checkInit))
        return;
      const PtrVal p = a.ptrs[i];
      std::memcpy(&pd[i], bufs[p.buffer].data + p.offset, sizeof(E));
    }
  };
}

template <typename E>
Inst storeInst(const Access &a, const E *pv) {
  return [a, pv](ExecState &st) {
    const int64_t es = a.elementSize;
    const BufferView *bufs = st.buffers.data();
    if (!checkActiveLanes(st, a, /*checkInit=*/false))
      return;
    for (int64_t i = 0; i < a.numel; ++i) {
      if (a.mask && !a.mask[i])
        continue;
      const PtrVal p = a.ptrs[i];
      const BufferView &b = bufs[p.buffer];
      std::memcpy(b.data + p.offset, &pv[i], sizeof(E));
      b.init[p.offset / es] = 1;
    }
  };
}

/// tile.atomic_rmw, tile.atomic_cas and tile.atomic_add: lane by lane in order (lanes that
/// share an address all apply; every lane is checked first, so that a failing atomic changes
/// nothing), `combine(old, value, cmp)` giving the new pointee (`cmp` is null but for cas).
template <typename E, typename Combine>
Inst rmwInst(const Access &a, E *pd, const E *pv, const E *pcmp, Combine combine) {
  return [a, pd, pv, pcmp, combine](ExecState &st) {
    const int64_t es = a.elementSize;
    const bool checkInit = st.options->uninitReads != UninitPolicy::Ignore;
    const BufferView *bufs = st.buffers.data();
    if (!checkActiveLanes(st, a, checkInit))
      return;
    for (int64_t i = 0; i < a.numel; ++i) {
      if (a.mask && !a.mask[i]) {
        pd[i] = E{};
        continue;
      }
      const PtrVal p = a.ptrs[i];
      const BufferView &b = bufs[p.buffer];
      E old;
      std::memcpy(&old, b.data + p.offset, sizeof(E));
      E now = combine(old, pv[i], pcmp ? pcmp[i] : E{});
      std::memcpy(b.data + p.offset, &now, sizeof(E));
      pd[i] = old;
      b.init[p.offset / es] = 1;
    }
  };
}

/// tile.atomic_add: `U(old) + U(value)` (wrapping for integers), as rmwInst does.
template <typename E, typename U>
Inst atomicAddInst(const Access &a, E *pd, const E *pv) {
  static_assert(sizeof(E) == sizeof(U));
  return rmwInst<E>(a, pd, pv, nullptr, [](E old, E value, E) {
    U o, v;
    std::memcpy(&o, &old, sizeof(U));
    std::memcpy(&v, &value, sizeof(U));
    U sum = U(o + v);
    E result;
    std::memcpy(&result, &sum, sizeof(U));
    return result;
  });
}

/// The integer kinds of tile.atomic_rmw on `E` (signed), in the unsigned `U` where the
/// result wraps or compares unsigned.
template <typename E, typename U>
std::optional<Inst> integerRmw(llvm::StringRef kind, const Access &a, E *pd, const E *pv) {
  auto u = [](E x) { return U(x); };
  if (kind == "max")
    return rmwInst<E>(a, pd, pv, nullptr, [](E o, E v, E) { return o > v ? o : v; });
  if (kind == "min")
    return rmwInst<E>(a, pd, pv, nullptr, [](E o, E v, E) { return o < v ? o : v; });
  if (kind == "umax")
    return rmwInst<E>(a, pd, pv, nullptr, [u](E o, E v, E) { return u(o) > u(v) ? o : v; });
  if (kind == "umin")
    return rmwInst<E>(a, pd, pv, nullptr, [u](E o, E v, E) { return u(o) < u(v) ? o : v; });
  if (kind == "and")
    return rmwInst<E>(a, pd, pv, nullptr, [](E o, E v, E) { return E(o & v); });
  if (kind == "or")
    return rmwInst<E>(a, pd, pv, nullptr, [](E o, E v, E) { return E(o | v); });
  if (kind == "xor")
    return rmwInst<E>(a, pd, pv, nullptr, [](E o, E v, E) { return E(o ^ v); });
  if (kind == "add")
    return rmwInst<E>(a, pd, pv, nullptr, [](E o, E v, E) { return E(U(o) + U(v)); });
  return std::nullopt;
}

/// tile.atomic_rmw, tile.atomic_cas and tile.barrier (one program runs at a time: a
/// barrier has nothing to wait for).
Emitted emitAtomic(Compiler &c, Operation *op, InstList &out) {
  if (isa<tile::BarrierOp>(op))
    return Emitted::Done;
  auto rmw = dyn_cast<tile::AtomicRMWOp>(op);
  auto cas = dyn_cast<tile::AtomicCASOp>(op);
  Value ptr = rmw ? rmw.getPtr() : cas.getPtr();
  Value mask = rmw ? rmw.getMask() : Value();
  const Slot &p = c.slot(ptr);
  if (p.dtype != DType::Ptr)
    return c.fail(op, "expects pointers");
  // Access keeps a C string: a literal per kind.
  const char *name = cas ? "atomic_cas"
                         : llvm::StringSwitch<const char *>(rmw.getKind())
                               .Case("max", "atomic_max")
                               .Case("min", "atomic_min")
                               .Case("umax", "atomic_max")
                               .Case("umin", "atomic_min")
                               .Case("and", "atomic_and")
                               .Case("or", "atomic_or")
                               .Case("xor", "atomic_xor")
                               .Case("xchg", "atomic_xchg")
                               .Default("atomic_add");
  Access a{c.site(op),
           true,
           name,
           p.shape,
           p.as<PtrVal>(),
           mask ? c.slot(mask).as<uint8_t>() : nullptr,
           p.numel,
           int64_t(dtypeSize(p.pointee))};
  const Slot &d = c.slot(op->getResult(0));
  const Slot &v = c.slot(rmw ? rmw.getValue() : cas.getValue());
  if (cas) {
    const Slot &cmp = c.slot(cas.getCmp());
    // Compared bit for bit, as the GPU's atom.cas.b32/b64 does.
    auto bitwise = [&](auto tag) -> Inst {
      using E = decltype(tag);
      return rmwInst<E>(a, d.as<E>(), v.as<E>(), cmp.as<E>(), [](E o, E val, E want) {
        return std::memcmp(&o, &want, sizeof(E)) == 0 ? val : o;
      });
    };
    switch (v.dtype) {
    case DType::I32: out.push_back(bitwise(int32_t{})); return Emitted::Done;
    case DType::I64: out.push_back(bitwise(int64_t{})); return Emitted::Done;
    case DType::F32: out.push_back(bitwise(float{})); return Emitted::Done;
    case DType::F64: out.push_back(bitwise(double{})); return Emitted::Done;
    default: return c.fail(op, "atomic_cas supports i32, i64, f32 and f64");
    }
  }
  llvm::StringRef kind = rmw.getKind();
  if (kind == "xchg") {
    auto exchange = [&](auto tag) -> Inst {
      using E = decltype(tag);
      return rmwInst<E>(a, d.as<E>(), v.as<E>(), nullptr, [](E, E val, E) { return val; });
    };
    switch (v.dtype) {
    case DType::I32: out.push_back(exchange(int32_t{})); return Emitted::Done;
    case DType::I64: out.push_back(exchange(int64_t{})); return Emitted::Done;
    case DType::F32: out.push_back(exchange(float{})); return Emitted::Done;
    case DType::F64: out.push_back(exchange(double{})); return Emitted::Done;
    default: return c.fail(op, "atomic_xchg supports i32, i64, f32 and f64");
    }
  }
  std::optional<Inst> inst;
  if (v.dtype == DType::I32)
    inst = integerRmw<int32_t, uint32_t>(kind, a, d.as<int32_t>(), v.as<int32_t>());
  else if (v.dtype == DType::I64)
    inst = integerRmw<int64_t, uint64_t>(kind, a, d.as<int64_t>(), v.as<int64_t>());
  else if (v.dtype == DType::F32 && kind == "add")
    inst = rmwInst<float>(a, d.as<float>(), v.as<float>(), nullptr,
                          [](float o, float val, float) { return o + val; });
  if (!inst)
    return c.fail(op, "the interpreter does not support atomic_" + kind.str() + " on this type");
  out.push_back(std::move(*inst));
  return Emitted::Done;
}

} // namespace

Emitted emitMemory(Compiler &c, Operation *op, InstList &out) {
  if (isa<tile::AtomicRMWOp, tile::AtomicCASOp, tile::BarrierOp>(op))
    return emitAtomic(c, op, out);
  auto load = dyn_cast<tile::LoadOp>(op);
  auto store = dyn_cast<tile::StoreOp>(op);
  auto atomic = dyn_cast<tile::AtomicAddOp>(op);
  if (!load && !store && !atomic)
    return Emitted::NotMine;
  Value ptr = load ? load.getPtr() : store ? store.getPtr() : atomic.getPtr();
  Value mask = load ? load.getMask() : store ? store.getMask() : atomic.getMask();
  const Slot &p = c.slot(ptr);
  if (p.dtype != DType::Ptr)
    return c.fail(op, "expects pointers");
  Access a{c.site(op),
           !load,
           load ? "load" : store ? "store" : "atomic_add",
           p.shape,
           p.as<PtrVal>(),
           mask ? c.slot(mask).as<uint8_t>() : nullptr,
           p.numel,
           int64_t(dtypeSize(p.pointee))};
  if (load) {
    const Slot &d = c.slot(load.getResult());
    const Slot *other = load.getOther() ? &c.slot(load.getOther()) : nullptr;
    if (other && other->numel != d.numel)
      return c.fail(op, "'other' must have the result's shape");
    out.push_back(visitBytes(d.dtype, [&](auto tag) -> Inst {
      using E = decltype(tag);
      return loadInst<E>(a, d.as<E>(), other ? other->as<E>() : nullptr);
    }));
    return Emitted::Done;
  }
  if (atomic) {
    const Slot &d = c.slot(atomic.getResult());
    const Slot &v = c.slot(atomic.getValue());
    switch (v.dtype) {
    case DType::I32:
      out.push_back(atomicAddInst<int32_t, uint32_t>(a, d.as<int32_t>(), v.as<int32_t>()));
      return Emitted::Done;
    case DType::I64:
      out.push_back(atomicAddInst<int64_t, uint64_t>(a, d.as<int64_t>(), v.as<int64_t>()));
      return Emitted::Done;
    case DType::F32:
      out.push_back(atomicAddInst<float, float>(a, d.as<float>(), v.as<float>()));
      return Emitted::Done;
    default:
      return c.fail(op, "atomic_add supports i32, i64 and f32");
    }
  }
  const Slot &v = c.slot(store.getValue());
  out.push_back(visitBytes(v.dtype, [&](auto tag) -> Inst {
    using E = decltype(tag);
    return storeInst<E>(a, v.as<E>());
  }));
  return Emitted::Done;
}

} // namespace tcc::interp
