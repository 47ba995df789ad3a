// One value per CUDA context, found without a lock: what the runtime keeps per context (an
// embedded kernel's load, a kernel's launch order, the tuner's device model) on a singly
// linked list that only grows, newest first. Internal to libtccrt.
#pragma once

#include "tcc/cuda_api.h"

#include <atomic>
#include <memory>

namespace tcc::detail {

template <typename T>
class PerContext {
public:
  PerContext() = default;
  ~PerContext() {
    Node* n = head_.load(std::memory_order_acquire);
    while (n) {
      Node* next = n->next;
      delete n;
      n = next;
    }
  }
  PerContext(const PerContext&) = delete;
  PerContext& operator=(const PerContext&) = delete;

  // The context's entry, or nullptr before its first get().
  T* find(CUcontext context) const {
    Node* n = search(head_.load(std::memory_order_acquire), nullptr, context);
    return n ? &n->value : nullptr;
  }

  // The context's entry, made by `make()` (which returns a T) on first use. Threads that
  // use a context for the first time at once may each call `make`: one result is kept, the
  // others are destroyed before get() returns, and every caller gets the one kept. When
  // `make` throws, nothing is added and the exception propagates.
  template <typename Make>
  T& get(CUcontext context, Make&& make) {
    Node* head = head_.load(std::memory_order_acquire);
    if (Node* n = search(head, nullptr, context))
      return n->value;
    std::unique_ptr<Node> candidate(new Node(context, make));
    candidate->next = head;
    // On failure candidate->next becomes the new head; the entries pushed since `searched`
    // (the head last searched from) may be this context's.
    Node* searched = head;
    while (!head_.compare_exchange_weak(candidate->next, candidate.get(),
                                        std::memory_order_release, std::memory_order_acquire)) {
      if (Node* n = search(candidate->next, searched, context))
        return n->value;
      searched = candidate->next;
    }
    return candidate.release()->value;
  }

  // A cache of the entry used last, for a one-compare fast path: the entry remember() was
  // last given, if it is the context's, else nullptr. Whatever was written to the entry
  // before remember() is visible to the thread that gets it here.
  T* last(CUcontext context) const {
    Node* n = last_.load(std::memory_order_acquire);
    return n && n->context == context ? &n->value : nullptr;
  }
  // `entry` must be one of this list's (get's or find's answer).
  void remember(T& entry) {
    for (Node* n = head_.load(std::memory_order_acquire); n; n = n->next)
      if (&n->value == &entry) {
        last_.store(n, std::memory_order_release);
        return;
      }
  }

  // f(context, entry) for every entry, newest first. Not to run concurrently with get().
  template <typename F>
  void forEach(F&& f) {
    for (Node* n = head_.load(std::memory_order_acquire); n; n = n->next)
      f(n->context, n->value);
  }

private:
  struct Node {
    template <typename Make>
    Node(CUcontext c, Make& make) : context(c), value(make()) {}
    const CUcontext context;
    T value;
    Node* next = nullptr;
  };
  // The first node of `context` from `first` up to (not including) `stop`.
  static Node* search(Node* first, Node* stop, CUcontext context) {
    for (Node* n = first; n != stop; n = n->next)
      if (n->context == context)
        return n;
    return nullptr;
  }
  std::atomic<Node*> head_{nullptr};
  std::atomic<Node*> last_{nullptr};
};

} // namespace tcc::detail
