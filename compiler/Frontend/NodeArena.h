//===- NodeArena.h - Storage of syntax-tree nodes --------------*- C++ -*-===//
//
// The AST (ast::Module) and the typed AST (typed::Program) own their nodes the same way:
// each node kind in a vector of its base class, handed out as raw pointers that live as
// long as the tree.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NODEARENA_H
#define TCC_FRONTEND_NODEARENA_H

#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcc {

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
