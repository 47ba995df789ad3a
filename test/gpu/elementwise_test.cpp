// Vector copy and vector add on the GPU, for every configuration tcc built and for the nvcc
// cubins that tcc-pack wraps (fixture/: a foreign cubin with its general and its 16-byte
// variant, which faults on misaligned pointers, so the runtime's variant choice shows), over
// the sizes that catch off-by-one and masking errors, compared bit for bit with a CPU
// reference. Outputs are poisoned before each launch; the regions before and after the
// output are checked untouched.
#include "gpu_util.h"

#include <algorithm>
#include <cctype>
#include <memory>

namespace {

// Past 2^31 bytes of offset (2^29 floats), once per kernel: addresses must be computed in
// 64 bits even where the element index fits in 32.
constexpr int64_t kBigN = (int64_t(1) << 29) + 1001;
constexpr int64_t kMaxN = kBigN;
constexpr int64_t kLead = 64;    // elements before each array: 256 bytes, alignment kept
constexpr int64_t kGuard = 4096; // elements after n that must stay untouched
constexpr int64_t kCap = kLead + 16 + kMaxN + kGuard;
constexpr uint32_t kPoison = 0x7fbadbadu; // a NaN no kernel computes

struct Case {
  std::string dir;    // the configuration's folder
  std::string source; // "tcc", or "fixture" (nvcc's, packed by tcc-pack)
  std::string config; // "BLOCK1024_W4"
  int64_t n = 0;
  int64_t offset = 0; // elements added to every pointer (1: only 4-byte aligned)
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

int64_t blockOf(const std::string& config) {
  size_t p = config.find("BLOCK");
  return p == std::string::npos ? 1024 : std::atoll(config.c_str() + p + 5);
}

std::string sanitize(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return s;
}

std::vector<Case> cases() {
  std::vector<Case> r;
  const std::string art = gputest::artifactsDir();
  for (const char* source : {"fixture", "tcc"}) {
    for (const std::string& kdir : gputest::subdirs(art + "/" + source)) {
      std::string kernel = kdir.substr(kdir.find_last_of('/') + 1);
      if (kernel != "vector_add" && kernel != "vector_copy")
        continue;
      bool first = true;
      for (const std::string& cdir : gputest::subdirs(kdir)) {
        std::string config = cdir.substr(cdir.find_last_of('/') + 1);
        int64_t b = blockOf(config);
        std::vector<std::pair<int64_t, int64_t>> sizes = {
            {0, 0},        {1, 0},       {127, 0},           {b - 1, 0},   {b, 0},
            {b + 1, 0},    {1000003, 0}, {int64_t(1) << 28, 0}, {1 << 20, 0}, {1000003, 1},
            {1 << 20, 1},  {b, 1}};
        if (first)
          sizes.push_back({kBigN, 3});
        first = false;
        std::sort(sizes.begin(), sizes.end());
        sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
        for (auto [n, off] : sizes) {
          if (n < 0)
            continue;
          Case c;
          c.dir = cdir;
          c.source = source;
          c.config = config;
          c.n = n;
          c.offset = off;
          c.name = sanitize(std::string(source) + "_" + kernel + "_" + config + "_n" +
                            std::to_string(n) + (off ? "_offset" + std::to_string(off) : ""));
          r.push_back(c);
        }
      }
    }
  }
  return r;
}

// Inputs and output buffers for the largest n, made once: x and y hold random floats, their
// host copies are the reference's inputs.
struct Pool {
  tcc::bench::DeviceBuffer x, y, out;
  std::vector<float> hx, hy;
  std::vector<uint32_t> result;
};

Pool& pool() {
  static Pool* p = [] {
    auto* q = new Pool;
    q->x = tcc::bench::DeviceBuffer(kCap * sizeof(float));
    q->y = tcc::bench::DeviceBuffer(kCap * sizeof(float));
    q->out = tcc::bench::DeviceBuffer(kCap * sizeof(float));
    q->hx.resize(kCap);
    q->hy.resize(kCap);
    q->result.resize(kCap);
    gputest::fillRandom(q->hx.data(), kCap, 1);
    gputest::fillRandom(q->hy.data(), kCap, 2);
    gputest::upload(q->x.get(), q->hx.data(), kCap * sizeof(float));
    gputest::upload(q->y.get(), q->hy.data(), kCap * sizeof(float));
    return q;
  }();
  return *p;
}

class Elementwise : public testing::TestWithParam<Case> {};

TEST_P(Elementwise, MatchesCpuReference) {
  TCC_REQUIRE_GPU();
  const Case& c = GetParam();
  tcc::Library lib(c.dir);
  std::vector<std::string> names = lib.kernelNames();
  ASSERT_EQ(names.size(), 1u) << "one kernel per configuration folder: " << c.dir;
  tcc::Kernel& k = lib.kernel(names.front());

  // Roles from the signature: the last pointer is the output, the others inputs (copy: 1,
  // add: 2), and one integer, n.
  std::vector<size_t> ptrs;
  for (size_t i = 0; i < k.params().size(); ++i)
    if (k.params()[i].isPointer)
      ptrs.push_back(i);
  ASSERT_TRUE(ptrs.size() == 2 || ptrs.size() == 3) << "not a copy or an add: " << c.dir;
  ASSERT_EQ(k.params().size(), ptrs.size() + 1);
  const bool isAdd = ptrs.size() == 3;

  Pool& p = pool();
  const int64_t start = kLead + c.offset;
  CUdeviceptr x = p.x.get() + start * sizeof(float);
  CUdeviceptr y = p.y.get() + start * sizeof(float);
  CUdeviceptr out = p.out.get() + start * sizeof(float);
  const int32_t n = static_cast<int32_t>(c.n);
  gputest::fill32(p.out.get(), kPoison, kCap);

  tcc::LaunchPlan plan = isAdd ? k.plan(x, y, out, n) : k.plan(x, out, n);
  if (c.source == std::string("fixture") && k.variants().size() > 1) {
    bool canSpecialise = c.offset % 4 == 0 && c.n % 16 == 0;
    EXPECT_EQ(plan.variant->specialisationScore() > 0, canSpecialise)
        << "chose " << plan.variant->specialisationString() << " (" << plan.variant->origin << ")";
  }
  if (isAdd)
    k.launch(nullptr, x, y, out, n);
  else
    k.launch(nullptr, x, out, n);
  gputest::synchronize();

  const int64_t checked = start + c.n + kGuard;
  gputest::download(p.result.data(), p.out.get(), checked * sizeof(float));
  int64_t badBefore = 0, badInside = 0, badAfter = 0, firstBad = -1;
  for (int64_t i = 0; i < start; ++i)
    badBefore += p.result[i] != kPoison;
  for (int64_t i = 0; i < c.n; ++i) {
    float ref = isAdd ? p.hx[start + i] + p.hy[start + i] : p.hx[start + i];
    if (p.result[start + i] != gputest::bitsOf(ref)) {
      if (firstBad < 0)
        firstBad = i;
      ++badInside;
    }
  }
  for (int64_t i = start + c.n; i < checked; ++i)
    badAfter += p.result[i] != kPoison;
  EXPECT_EQ(badBefore, 0) << "elements written before the output";
  EXPECT_EQ(badInside, 0) << "wrong elements; the first at " << firstBad;
  EXPECT_EQ(badAfter, 0) << "elements written past n (guard region)";
}

std::string caseName(const testing::TestParamInfo<Case>& info) { return info.param.name; }

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Elementwise);
INSTANTIATE_TEST_SUITE_P(Artifacts, Elementwise, testing::ValuesIn(cases()), caseName);

// Without artifacts the parameterised tests vanish; say so rather than pass silently.
TEST(Artifacts, Present) {
  TCC_REQUIRE_GPU();
  ASSERT_TRUE(gputest::exists(gputest::artifactsDir() + "/tcc"))
      << "no artifacts in " << gputest::artifactsDir()
      << " (run scripts/build-artifacts.sh and set TCC_ARTIFACTS)";
  EXPECT_FALSE(cases().empty());
}

} // namespace
