//===- Tune.cpp - tcc tune: compile an @autotune space, then tune it ------===//

#include "compiler/Driver/Tune.h"
#include "compiler/Driver/Driver.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#ifndef TCC_TUNE_WITHOUT_RUNTIME
#include "TensorPeak.h"
#include "tune.h"
#endif

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace tcc {

namespace {

std::string tuneUsage() {
  return "usage: tcc tune KERNEL.tile [-D NAME=VALUE ...] [--arch A] [-j N] [tuner options]\n"
         "\n"
         "Compiles every configuration of the @autotune kernel (as --emit=cubin -o DIR/),\n"
         "then benchmarks them on this machine's GPU exactly as tcc-tune does on an artifact:\n"
         "\n";
}

void fail(const std::string &msg) { llvm::errs() << "tcc: error: " << msg << "\n"; }

} // namespace

int runTuneCommand(const std::vector<std::string> &words) {
  // The compile options; everything else is the tuner's (the same as tcc-tune's).
  std::vector<std::string> defines, archs, rest;
  unsigned jobs = 0;
  std::string kernel;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string &w = words[i];
    auto value = [&](std::vector<std::string> *out) {
      if (i + 1 >= words.size()) {
        fail(w + " needs a value\n(run tcc tune --help for the options)");
        return false;
      }
      out->push_back(words[++i]);
      return true;
    };
    if (w == "-D" || w == "--arch") {
      if (!value(w == "-D" ? &defines : &archs))
        return 2;
    } else if (w.size() > 2 && w.compare(0, 2, "-D") == 0) {
      defines.push_back(w.substr(2));
    } else if (w == "-j" || w == "--jobs") {
      std::vector<std::string> v;
      if (!value(&v))
        return 2;
      jobs = unsigned(std::strtoul(v.front().c_str(), nullptr, 10));
      if (jobs == 0) {
        fail("-j needs a positive number of jobs\n(run tcc tune --help for the options)");
        return 2;
      }
    } else {
      if (w == "--kernel" && i + 1 < words.size())
        kernel = words[i + 1]; // the tuner reads it too
      rest.push_back(w);
    }
  }
#ifdef TCC_TUNE_WITHOUT_RUNTIME
  (void)jobs;
  fail("this tcc was built without the runtime (TCC_ENABLE_RUNTIME=OFF): tcc tune cannot "
       "measure; compile with --emit=cubin -o DIR/ and run tcc-tune DIR on a GPU machine");
  return 1;
#else
  tune::Options options;
  std::vector<std::string> positional;
  bool help = false;
  std::string error;
  if (!tune::parseCommandLine(rest, &options, &positional, &help, &error) ||
      (!help && positional.size() != 1)) {
    if (error.empty())
      error = positional.empty() ? "no kernel file given (tcc tune KERNEL.tile --shape ...)"
                                 : "one kernel file expected, got '" + positional[1] + "' too";
    fail(error + "\n(run tcc tune --help for the options)");
    return 2;
  }
  if (help) {
    std::string u = tuneUsage() + tune::usage("tcc tune");
    std::fputs(u.c_str(), stdout);
    return 0;
  }
  const std::string input = positional.front();

  // Measuring needs a GPU: say so before compiling anything.
  std::string why;
  if (!tune::gpuAvailable(&why)) {
    fail("tcc tune measures on a GPU, and this machine has none (" + why +
         "); compile the space here with `tcc " + input +
         " --emit=cubin -o DIR/` and run `tcc-tune DIR --shape ...` (the same options) on a "
         "GPU machine");
    return 1;
  }

  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("tcc-tune", dir)) {
    fail("cannot create a temporary folder for the compiled space");
    return 1;
  }
  struct Cleanup {
    std::string path;
    ~Cleanup() { llvm::sys::fs::remove_directories(path); }
  } cleanup{dir.str().str()};

  DriverOptions compile;
  compile.inputPath = input;
  compile.emit = EmitStage::Cubin;
  compile.outputPath =
      (dir.str() + "/" + llvm::sys::path::stem(input) + ".cubin").str();
  compile.defines = defines;
  compile.kernelName = kernel;
  if (!archs.empty())
    compile.codegen.archs = archs;
  if (jobs)
    compile.codegen.jobs = jobs;
  {
    Driver driver(std::move(compile));
    if (int rc = driver.run())
      return rc;
  }

  // The tensor-core ceiling's kernel, compiled for this machine's GPU the same way.
  std::string peakDir = dir.str().str() + "/tensor_peak";
  if (options.peak.empty() && !options.noCeilings && !llvm::sys::fs::create_directory(peakDir)) {
    std::string src = peakDir + "/tensor_peak.tile";
    std::ofstream(src) << kTensorPeakSource;
    DriverOptions peak;
    peak.inputPath = src;
    peak.emit = EmitStage::Cubin;
    peak.outputPath = peakDir + "/tensor_peak.cubin";
    std::string log;
    llvm::raw_string_ostream diagnostics(log);
    Driver driver(std::move(peak), diagnostics);
    if (driver.run() == 0)
      options.peak = peakDir;
    else
      llvm::errs() << "tcc: warning: the tensor-core ceiling's kernel does not compile; the "
                      "report has the copy bandwidth only:\n"
                   << log;
  }
  options.artifact = dir.str().str();
  return tune::run(options, "tcc tune");
#endif
}

} // namespace tcc
