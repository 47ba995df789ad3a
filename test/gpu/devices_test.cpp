// Every GPU of the host (issue 17): tcc's vector_add (compiled by tcc) launched on each
// device in turn, from one thread per device concurrently (and, on a host with one GPU,
// from several threads with their own streams on it), each result checked on its own
// device; and a kernel on one device reading another's memory through peer access. On a
// host with one GPU the peer test skips, saying so.
#include "gpu_util.h"

#include <atomic>
#include <thread>

namespace {

std::string addDir() { return gputest::artifactsDir() + "/tcc/vector_add/BLOCK1024_W4"; }

// x[i] = i + 1 + salt, y[i] = 2 (i + 1); out = x + y, exactly representable.
void inputs(std::vector<float>& x, std::vector<float>& y, int salt) {
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i % 4096 + 1 + salt);
    y[i] = static_cast<float>(2 * (i % 4096 + 1));
  }
}

// Launches vector_add `launches` times on `stream` of the current context over fresh
// buffers there (out accumulates nothing: each launch writes the same sum), and returns how
// many elements differ from x + y afterwards.
size_t runOnCurrentDevice(tcc::Kernel& k, CUstream stream, int salt, int launches, int n) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  tcc::bench::DeviceBuffer x(bytes), y(bytes), out(bytes);
  std::vector<float> hx(n), hy(n), ho(n, -1.0f);
  inputs(hx, hy, salt);
  gputest::upload(x.get(), hx.data(), bytes);
  gputest::upload(y.get(), hy.data(), bytes);
  gputest::fill32(out.get(), 0xffffffffu, static_cast<size_t>(n)); // NaN: poisoned
  for (int i = 0; i < launches; ++i)
    k.launch(stream, x.get(), y.get(), out.get(), n);
  tcc::check(tcc::driver().cuStreamSynchronize(stream), "waiting for the stream");
  gputest::download(ho.data(), out.get(), bytes);
  size_t wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += ho[i] != hx[i] + hy[i];
  return wrong;
}

class Devices : public testing::Test {
protected:
  void SetUp() override {
    TCC_REQUIRE_GPU();
    TCC_REQUIRE_ARTIFACT_FILE(addDir() + "/vector_add.json");
    devices_ = tcc::deviceCount();
    ASSERT_GE(devices_, 1);
    std::printf("tcc-gpu: %d device%s:", devices_, devices_ == 1 ? "" : "s");
    for (int d = 0; d < devices_; ++d)
      std::printf(" [%d] %s (sm_%d)", d, tcc::deviceInfo(d).name.c_str(),
                  tcc::deviceInfo(d).computeCapability);
    std::printf("\n");
  }
  int devices_ = 0;
};

TEST_F(Devices, EachDeviceRunsTheKernel) {
  tcc::Library lib(addDir());
  tcc::Kernel& k = lib.kernel("vector_add");
  for (int d = 0; d < devices_; ++d) {
    tcc::DeviceScope on(d);
    EXPECT_EQ(tcc::currentDeviceOrdinal(), d);
    EXPECT_EQ(runOnCurrentDevice(k, nullptr, d, 2, 100003), 0u) << "device " << d;
  }
}

// One thread per device (at least four threads: on a host with fewer GPUs, several share a
// device, each on a stream of its own), all launching at once into one tcc::Kernel.
TEST_F(Devices, ConcurrentThreadsEachOnItsDevice) {
  tcc::Library lib(addDir());
  tcc::Kernel& k = lib.kernel("vector_add");
  const int threads = devices_ < 4 ? 4 : devices_;
  std::vector<std::thread> pool;
  std::vector<std::string> errors(threads);
  std::vector<size_t> wrong(threads, 0);
  std::atomic<int> ready{0};
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        const int device = t % devices_;
        tcc::useDevice(device);
        CUstream stream = nullptr;
        tcc::check(tcc::driver().cuStreamCreate(&stream, 0), "creating a stream");
        ++ready;
        while (ready.load() < threads) // start together
          std::this_thread::yield();
        wrong[t] = runOnCurrentDevice(k, stream, t, 20, (1 << 20) + 7 * t);
        if (tcc::currentDeviceOrdinal() != device)
          errors[t] = "the thread's device changed";
        tcc::driver().cuStreamDestroy(stream);
      } catch (const tcc::Error& e) {
        errors[t] = e.what();
        ++ready;
      }
    });
  for (std::thread& t : pool)
    t.join();
  for (int t = 0; t < threads; ++t) {
    EXPECT_EQ(errors[t], "") << "thread " << t << " on device " << t % devices_;
    EXPECT_EQ(wrong[t], 0u) << "thread " << t << " on device " << t % devices_;
  }
}

// A kernel on device 0 reading x from device 1's memory (a peer pointer), after peer access
// is enabled.
TEST_F(Devices, AKernelReadsAnotherDevicesMemory) {
  if (devices_ < 2)
    GTEST_SKIP() << "one GPU on this host: peer access needs two (issue 17; run on a "
                    "machine with two or more)";
  std::string why;
  if (!tcc::enablePeerAccess(0, 1, &why))
    GTEST_SKIP() << "no peer path between devices 0 and 1: " << why;
  const int n = 65537;
  const size_t bytes = n * sizeof(float);
  std::vector<float> hx(n), hy(n), ho(n, -1.0f);
  inputs(hx, hy, 5);
  tcc::bench::DeviceBuffer onPeer;
  {
    tcc::DeviceScope on(1);
    onPeer = tcc::bench::DeviceBuffer(bytes);
    gputest::upload(onPeer.get(), hx.data(), bytes);
  }
  tcc::DeviceScope on(0);
  tcc::bench::DeviceBuffer y(bytes), out(bytes);
  gputest::upload(y.get(), hy.data(), bytes);
  gputest::fill32(out.get(), 0xffffffffu, n);
  tcc::Library lib(addDir());
  lib.kernel("vector_add").launch(nullptr, onPeer.get(), y.get(), out.get(), n);
  gputest::synchronize();
  gputest::download(ho.data(), out.get(), bytes);
  size_t wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += ho[i] != hx[i] + hy[i];
  EXPECT_EQ(wrong, 0u);
  tcc::DeviceScope back(1); // the peer buffer is freed in its own context
  onPeer = tcc::bench::DeviceBuffer();
}

} // namespace
