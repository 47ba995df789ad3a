#include "watchdog.h"

#include <cstdio>
#include <cstdlib>

namespace gputest {

Watchdog::Watchdog(double limitSeconds, Expire onExpire)
    : limit_(limitSeconds), expire_(std::move(onExpire)), thread_([this] { loop(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Watchdog::arm(const std::string& what) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = true;
    what_ = what;
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(limit_));
  }
  wake_.notify_all();
}

void Watchdog::disarm() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = false;
  }
  wake_.notify_all();
}

void Watchdog::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    if (!armed_) {
      wake_.wait(lock);
      continue;
    }
    if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ && !stop_ &&
        std::chrono::steady_clock::now() >= deadline_) {
      armed_ = false;
      std::string what = what_;
      lock.unlock();
      expire_(what, limit_);
      lock.lock();
    }
  }
}

void Watchdog::expireAndExit(const std::string& what, double limitSeconds) {
  std::fprintf(stderr,
               "tcc-gpu: WATCHDOG: %s ran longer than %g s: a kernel that does not finish (an "
               "mbarrier waited on in the wrong phase, a lock never released?); ending the run "
               "(TCC_GPU_TEST_TIMEOUT_S sets the limit, 0 turns it off)\n",
               what.c_str(), limitSeconds);
  std::fflush(stderr);
  std::fflush(stdout);
  std::_Exit(124);
}

double watchdogLimitFromEnv() {
  const char* v = std::getenv("TCC_GPU_TEST_TIMEOUT_S");
  if (!v || !*v)
    return 120;
  char* end = nullptr;
  double s = std::strtod(v, &end);
  if (end == v || *end || s < 0) {
    std::fprintf(stderr, "tcc-gpu: TCC_GPU_TEST_TIMEOUT_S='%s' is not a number of seconds; "
                         "using 120\n", v);
    return 120;
  }
  return s;
}

void WatchdogListener::OnTestStart(const testing::TestInfo& info) {
  dog_.arm(std::string(info.test_suite_name()) + "." + info.name());
}

void WatchdogListener::OnTestEnd(const testing::TestInfo&) { dog_.disarm(); }

}  // namespace gputest
