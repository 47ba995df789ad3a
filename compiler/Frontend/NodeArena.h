//===- NodeArena.h - Storage and roots of syntax-tree nodes ----*- C++ -*-===//
//
// The AST (ast::Module) and the typed AST (typed::Program) own their nodes the same way:
// each node kind in a vector of its base class, handed out as raw pointers that live as
// long as the tree. The root of each of their node hierarchies (expressions, statements)
// is one KindedNode.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NODEARENA_H
#define TCC_FRONTEND_NODEARENA_H

#include "llvm/Support/SMLoc.h"

#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcc {

/// The root of one hierarchy of nodes (the expressions or the statements of either tree): the
/// node's kind, which each subclass's classof tests (LLVM-style isa and cast), and its source
/// range.
template <typename KindT> class KindedNode {
public:
  using Kind = KindT;
  Kind getKind() const { return kind; }
  llvm::SMRange range;
  virtual ~KindedNode() = default;

protected:
  KindedNode(Kind kind, llvm::SMRange range) : range(range), kind(kind) {}

private:
  Kind kind;
};

/// Owns nodes derived from one of `Bases` (each with a virtual destructor, or final).
template <typename... Bases> class NodeArena {
public:
  /// A new T(args...), owned by the arena.
  template <typename T, typename... Args> T *make(Args &&...args) {
    auto node = std::make_unique<T>(std::forward<Args>(args)...);
    T *raw = node.get();
    storeOf<T, Bases...>().push_back(std::move(node));
    return raw;
  }

private:
  template <typename T, typename Base, typename... Rest> auto &storeOf() {
    if constexpr (std::is_base_of_v<Base, T>)
      return std::get<std::vector<std::unique_ptr<Base>>>(stores);
    else
      return storeOf<T, Rest...>();
  }

  std::tuple<std::vector<std::unique_ptr<Bases>>...> stores;
};

} // namespace tcc

#endif // TCC_FRONTEND_NODEARENA_H
