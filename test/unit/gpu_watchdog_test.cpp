// The GPU tests' per-test time limit (test/gpu/watchdog.h), on the CPU.
#include "watchdog.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

namespace {

using namespace std::chrono_literals;

struct Expiries {
  std::mutex mutex;
  std::string what;
  int count = 0;
  gputest::Watchdog::Expire callback() {
    return [this](const std::string& w, double) {
      std::lock_guard<std::mutex> lock(mutex);
      what = w;
      ++count;
    };
  }
  int seen() {
    std::lock_guard<std::mutex> lock(mutex);
    return count;
  }
};

TEST(GpuWatchdog, ATestPastTheLimitIsNamed) {
  Expiries e;
  gputest::Watchdog dog(0.05, e.callback());
  dog.arm("Suite.Hangs");
  for (int i = 0; i < 200 && !e.seen(); ++i)
    std::this_thread::sleep_for(10ms);
  EXPECT_EQ(e.seen(), 1);
  EXPECT_EQ(e.what, "Suite.Hangs");
  std::this_thread::sleep_for(100ms); // once per arming
  EXPECT_EQ(e.seen(), 1);
}

TEST(GpuWatchdog, DisarmedInTimeNothingHappens) {
  Expiries e;
  gputest::Watchdog dog(1.0, e.callback());
  for (int i = 0; i < 5; ++i) {
    dog.arm("Suite.Quick" + std::to_string(i));
    std::this_thread::sleep_for(20ms);
    dog.disarm();
  }
  std::this_thread::sleep_for(1200ms);
  EXPECT_EQ(e.seen(), 0);
}

TEST(GpuWatchdog, ArmingAgainRestartsTheClock) {
  Expiries e;
  gputest::Watchdog dog(1.0, e.callback());
  for (int i = 0; i < 4; ++i) { // 4 x 0.3 s: longer than the limit in all, not per test
    dog.arm("Suite.Test" + std::to_string(i));
    std::this_thread::sleep_for(300ms);
  }
  EXPECT_EQ(e.seen(), 0);
  dog.disarm();
}

TEST(GpuWatchdogDeathTest, TheDefaultExpiryEndsTheRunWith124) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        gputest::Watchdog dog(0.05);
        dog.arm("Attention.CausalHangs");
        std::this_thread::sleep_for(5s);
      },
      testing::ExitedWithCode(124), "WATCHDOG: Attention.CausalHangs ran longer than 0.05 s");
}

TEST(GpuWatchdog, LimitFromTheEnvironment) {
  unsetenv("TCC_GPU_TEST_TIMEOUT_S");
  EXPECT_EQ(gputest::watchdogLimitFromEnv(), 120);
  setenv("TCC_GPU_TEST_TIMEOUT_S", "0", 1);
  EXPECT_EQ(gputest::watchdogLimitFromEnv(), 0);
  setenv("TCC_GPU_TEST_TIMEOUT_S", "2.5", 1);
  EXPECT_EQ(gputest::watchdogLimitFromEnv(), 2.5);
  setenv("TCC_GPU_TEST_TIMEOUT_S", "soon", 1);
  EXPECT_EQ(gputest::watchdogLimitFromEnv(), 120);
  unsetenv("TCC_GPU_TEST_TIMEOUT_S");
}

}  // namespace
