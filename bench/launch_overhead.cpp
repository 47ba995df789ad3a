// tcc-launch-bench: host cost of back-to-back launches of a near-empty kernel (the
// fixture's `tiny`), through raw cuLaunchKernel, the runtime (Kernel::launch, and
// Library::launch by name), the generated header, and a CUDA graph of 100 launches.
//
//   tcc-launch-bench --artifacts DIR [--count 10000] [--json FILE]
#include "common.h"

#if __has_include(<tiny.h>)
#include <tiny.h>
#define TCC_HAVE_TINY_HEADER 1
#else
#define TCC_HAVE_TINY_HEADER 0
#endif

#include <cstdio>
#include <cstdlib>
#include <fstream>

int main(int argc, char** argv) {
  std::string artifacts, jsonPath;
  int count = 10000;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--artifacts")
      artifacts = argv[i + 1];
    else if (a == "--count")
      count = std::atoi(argv[i + 1]);
    else if (a == "--json")
      jsonPath = argv[i + 1];
  }
  if (artifacts.empty()) {
    std::fprintf(stderr, "usage: tcc-launch-bench --artifacts DIR [--count N] [--json FILE]\n");
    return 2;
  }
  std::string why;
  if (!tcc::driverAvailable(&why)) {
    std::fprintf(stderr, "tcc-launch-bench: no GPU: %s\n", why.c_str());
    return 1;
  }
  try {
    tcc::ensureContext();
    const tcc::Driver& d = tcc::driver();
    CUstream s = nullptr;
    tcc::check(d.cuStreamCreate(&s, tcc::cu::CU_STREAM_NON_BLOCKING), "creating a stream");
    tcc::bench::DeviceBuffer buf(4096);
    CUdeviceptr out = buf.get();
    int32_t n = 1;

    tcc::Library lib(artifacts + "/fixture/tiny");
    tcc::Kernel& k = lib.kernel("tiny");
    CUfunction fn = k.function(0);
    void* args[] = {&out, &n};
    const unsigned threads = static_cast<unsigned>(k.variants().front().threadsPerBlock());

    tcc::json::Value root = tcc::json::Value::object();
    root.set("device", tcc::deviceDescription());
    root.set("count", count);
    auto report = [&](const char* key, const char* what, double us) {
      std::printf("%-44s %8.2f us per launch\n", what, us);
      root.set(key, us);
    };
    report("raw_us", "raw cuLaunchKernel", tcc::bench::launchOverheadUs([&] {
             tcc::check(d.cuLaunchKernel(fn, 1, 1, 1, threads, 1, 1, 0, s, args, nullptr), "launch");
           }, count, 5, s));
    report("runtime_us", "tcc runtime (Kernel::launch)",
           tcc::bench::launchOverheadUs([&] { k.launch(s, out, n); }, count, 5, s));
    report("by_name_us", "tcc runtime (Library::launch by name)",
           tcc::bench::launchOverheadUs([&] { lib.launch("tiny", s, out, n); }, count, 5, s));
#if TCC_HAVE_TINY_HEADER
    report("header_us", "generated header (fixture::tiny)",
           tcc::bench::launchOverheadUs([&] { fixture::tiny(s, out, n); }, count, 5, s));
#else
    std::printf("generated header: not built (no tiny.h among the artifacts)\n");
#endif
    // A CUDA graph of 100 launches captured through the runtime, replayed.
    const int perGraph = 100;
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
    tcc::check(d.cuStreamBeginCapture(s, tcc::cu::CU_STREAM_CAPTURE_MODE_GLOBAL),
               "beginning a capture");
    for (int i = 0; i < perGraph; ++i)
      k.launch(s, out, n);
    tcc::check(d.cuStreamEndCapture(s, &graph), "ending a capture");
    tcc::check(d.cuGraphInstantiate(&exec, graph, 0), "instantiating a graph");
    double graphUs = tcc::bench::launchOverheadUs([&] {
      tcc::check(d.cuGraphLaunch(exec, s), "launching a graph");
    }, count / perGraph > 10 ? count / perGraph : 10, 5, s);
    report("graph_us_per_kernel", "CUDA graph of 100 runtime launches, per kernel",
           graphUs / perGraph);
    d.cuGraphExecDestroy(exec);
    d.cuGraphDestroy(graph);
    d.cuStreamDestroy(s);
    if (!jsonPath.empty())
      std::ofstream(jsonPath) << tcc::json::write(root);
    return 0;
  } catch (const tcc::Error& e) {
    std::fprintf(stderr, "tcc-launch-bench: %s\n", e.what());
    return 1;
  }
}
