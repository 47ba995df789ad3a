// tcc-tune: the offline tuner on a GPU machine, for an artifact compiled anywhere
// (docs/autotuning.md, "Offline tuning"). No LLVM, no MLIR: the runtime only.
#include "tune.h"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  tcc::tune::Options options;
  std::vector<std::string> positional;
  bool help = false;
  std::string error;
  if (!tcc::tune::parseCommandLine(words, &options, &positional, &help, &error) ||
      (!help && positional.size() != 1)) {
    if (error.empty())
      error = positional.empty() ? "no artifact given (a folder or a metadata file)"
                                 : "one artifact expected, got '" + positional[1] + "' too";
    std::fprintf(stderr, "tcc-tune: error: %s\n(run tcc-tune --help for the options)\n",
                 error.c_str());
    return 2;
  }
  if (help) {
    std::fputs(tcc::tune::usage("tcc-tune").c_str(), stdout);
    return 0;
  }
  options.artifact = positional.front();
  return tcc::tune::run(options);
}
