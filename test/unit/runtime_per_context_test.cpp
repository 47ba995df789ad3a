// tcc::detail::PerContext (runtime/src/per_context.h), the lock-free per-CUDA-context list
// behind EmbeddedKernel, Kernel's launch orders and the tuner's device models. The contexts
// are made-up pointers: the list only compares them.
#include "per_context.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using tcc::detail::PerContext;

CUcontext fakeContext(uintptr_t i) { return reinterpret_cast<CUcontext>((i + 1) * 64); }

// Counts its constructions and destructions (the factory's results, kept or not).
std::atomic<int> constructed{0};
std::atomic<int> destroyed{0};
struct Counted {
  explicit Counted(int v) : value(v) { constructed.fetch_add(1); }
  ~Counted() { destroyed.fetch_add(1); }
  Counted(const Counted&) = delete;
  Counted& operator=(const Counted&) = delete;
  int value;
};

void resetCounts() {
  constructed = 0;
  destroyed = 0;
}

TEST(PerContext, TheSameContextGetsTheSameEntryAndOthersTheirOwn) {
  resetCounts();
  {
    PerContext<Counted> list;
    EXPECT_EQ(list.find(fakeContext(0)), nullptr);
    int calls = 0;
    Counted& a = list.get(fakeContext(0), [&] { return Counted(++calls); });
    Counted& again = list.get(fakeContext(0), [&] { return Counted(++calls); });
    EXPECT_EQ(&a, &again);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(a.value, 1);
    Counted& b = list.get(fakeContext(1), [&] { return Counted(++calls); });
    EXPECT_NE(&a, &b);
    EXPECT_EQ(b.value, 2);
    EXPECT_EQ(list.find(fakeContext(0)), &a);
    EXPECT_EQ(list.find(fakeContext(1)), &b);
    EXPECT_EQ(list.find(fakeContext(2)), nullptr);
    // A null context is a key like any other.
    Counted& none = list.get(nullptr, [&] { return Counted(++calls); });
    EXPECT_EQ(list.find(nullptr), &none);
    EXPECT_NE(&none, &a);

    std::map<CUcontext, int> seen;
    list.forEach([&](CUcontext c, Counted& e) { seen[c] = e.value; });
    EXPECT_EQ(seen, (std::map<CUcontext, int>{{fakeContext(0), 1}, {fakeContext(1), 2},
                                              {nullptr, 3}}));
    EXPECT_EQ(constructed.load(), 3);
    EXPECT_EQ(destroyed.load(), 0);
  }
  EXPECT_EQ(destroyed.load(), 3); // the list frees its entries
}

TEST(PerContext, TheLastUsedEntryIsTheOneRememberedForItsContextOnly) {
  PerContext<int> list;
  EXPECT_EQ(list.last(fakeContext(0)), nullptr);
  int& a = list.get(fakeContext(0), [] { return 10; });
  int& b = list.get(fakeContext(1), [] { return 11; });
  EXPECT_EQ(list.last(fakeContext(0)), nullptr); // get() alone remembers nothing
  list.remember(a);
  EXPECT_EQ(list.last(fakeContext(0)), &a);
  EXPECT_EQ(list.last(fakeContext(1)), nullptr);
  list.remember(b);
  EXPECT_EQ(list.last(fakeContext(1)), &b);
  EXPECT_EQ(list.last(fakeContext(0)), nullptr);
}

TEST(PerContext, AFactoryThatThrowsAddsNothing) {
  PerContext<int> list;
  EXPECT_THROW(list.get(fakeContext(0), []() -> int { throw std::runtime_error("no device"); }),
               std::runtime_error);
  EXPECT_EQ(list.find(fakeContext(0)), nullptr);
  int calls = 0;
  EXPECT_EQ(list.get(fakeContext(0), [&] { return ++calls; }), 1);
  EXPECT_EQ(calls, 1);
}

constexpr int kThreads = 8;

// Every thread's answer for every context: all threads must agree, and contexts must not
// share an entry.
void expectOneEntryPerContext(const std::vector<std::vector<Counted*>>& got, int contexts) {
  std::set<Counted*> distinct;
  for (int c = 0; c < contexts; ++c) {
    for (int t = 1; t < kThreads; ++t)
      EXPECT_EQ(got[t][c], got[0][c]) << "context " << c << ", thread " << t;
    distinct.insert(got[0][c]);
  }
  EXPECT_EQ(distinct.size(), static_cast<size_t>(contexts));
}

// Eight threads use each context for the first time at once: each factory call waits until
// every thread has called it for that context, so all eight make a candidate and seven lose
// the push. Every thread must get the winner, and the seven losers must be destroyed.
TEST(PerContext, ThreadsRacingOnFirstUseKeepOneEntryAndDestroyTheLosers) {
  constexpr int kContexts = 64;
  resetCounts();
  std::vector<std::atomic<int>> arrived(kContexts);
  std::atomic<bool> timedOut{false};
  std::vector<std::vector<Counted*>> got(kThreads, std::vector<Counted*>(kContexts));
  {
    PerContext<Counted> list;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        for (int c = 0; c < kContexts; ++c)
          got[t][c] = &list.get(fakeContext(c), [&] {
            arrived[c].fetch_add(1);
            // (A list that made the others wait for the first factory would never get
            // here eight times: give up after a while, and fail below.)
            auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
            while (arrived[c].load() < kThreads && !timedOut.load())
              if (std::chrono::steady_clock::now() > until)
                timedOut = true;
              else
                std::this_thread::yield();
            return Counted(c);
          });
      });
    for (std::thread& t : threads)
      t.join();
    EXPECT_FALSE(timedOut.load()) << "the factory was not called by every thread at once";
    expectOneEntryPerContext(got, kContexts);
    for (int c = 0; c < kContexts; ++c) {
      ASSERT_EQ(list.find(fakeContext(c)), got[0][c]);
      EXPECT_EQ(got[0][c]->value, c);
    }
    int entries = 0;
    list.forEach([&](CUcontext, Counted&) { ++entries; });
    EXPECT_EQ(entries, kContexts);
    EXPECT_EQ(constructed.load(), kThreads * kContexts);
    EXPECT_EQ(destroyed.load(), (kThreads - 1) * kContexts); // every loser, no winner
  }
  EXPECT_EQ(destroyed.load(), constructed.load());
}

// Without the lockstep: threads walk many contexts from different starting points, so a
// push often fails because of another context's entry, and the entries pushed meanwhile
// must be searched for this one.
TEST(PerContext, ThreadsOnManyContextsInDifferentOrdersAgree) {
  constexpr int kContexts = 2000;
  resetCounts();
  std::vector<std::vector<Counted*>> got(kThreads, std::vector<Counted*>(kContexts));
  {
    PerContext<Counted> list;
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        while (ready.load() < kThreads)
          std::this_thread::yield();
        for (int i = 0; i < kContexts; ++i) {
          int c = (i + t * (kContexts / kThreads)) % kContexts;
          got[t][c] = &list.get(fakeContext(c), [&] { return Counted(c); });
        }
      });
    for (std::thread& t : threads)
      t.join();
    expectOneEntryPerContext(got, kContexts);
    std::set<CUcontext> keys;
    list.forEach([&](CUcontext c, Counted& e) {
      EXPECT_EQ(c, fakeContext(static_cast<uintptr_t>(e.value)));
      EXPECT_TRUE(keys.insert(c).second) << "two entries for context " << e.value;
    });
    EXPECT_EQ(keys.size(), static_cast<size_t>(kContexts));
    EXPECT_EQ(constructed.load() - destroyed.load(), kContexts);
  }
  EXPECT_EQ(destroyed.load(), constructed.load());
}

} // namespace
