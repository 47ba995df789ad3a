// A per-test time limit for the GPU tests. A kernel that never finishes (an mbarrier waited
// on in the wrong phase, a spin lock never released) cannot be interrupted from the host:
// without a limit the run hangs until ctest's or the device machine's time runs out, with
// no word of which test it was. The watchdog names the test and ends the process instead.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace gputest {

class Watchdog {
public:
  // Called on the watchdog's thread when the armed test has run `limitSeconds`.
  using Expire = std::function<void(const std::string& what, double limitSeconds)>;

  explicit Watchdog(double limitSeconds, Expire onExpire = expireAndExit);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Starts the clock for `what` (a test's name); arming again restarts it.
  void arm(const std::string& what);
  void disarm();
  double limitSeconds() const { return limit_; }

  // The default expiry: a line on stderr naming the test and the limit, then exit status
  // 124 (timeout(1)'s) without running destructors, which could wait for the hung kernel.
  static void expireAndExit(const std::string& what, double limitSeconds);

private:
  void loop();

  const double limit_;
  const Expire expire_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false, armed_ = false;
  std::string what_;
  std::chrono::steady_clock::time_point deadline_;
  std::thread thread_;
};

// $TCC_GPU_TEST_TIMEOUT_S (seconds, 0: no limit), default 120: the slowest GPU test takes a
// few seconds, the whole suite under three minutes.
double watchdogLimitFromEnv();

// Arms `dog` at the start of every test and disarms it at the end.
class WatchdogListener : public testing::EmptyTestEventListener {
public:
  explicit WatchdogListener(Watchdog& dog) : dog_(dog) {}
  void OnTestStart(const testing::TestInfo& info) override;
  void OnTestEnd(const testing::TestInfo& info) override;

private:
  Watchdog& dog_;
};

}  // namespace gputest
