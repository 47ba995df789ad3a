//===- tcc.cpp - The command-line compiler -------------------------------===//
//
// Options in, one Driver call, exit code out. All compilation logic lives in
// compiler/Driver.
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/Driver.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

int main(int argc, char **argv) {
  CLI::App app{"tcc: ahead-of-time compiler for .tile GPU kernels"};
  app.set_version_flag("--version", "tcc 0.1");

  tcc::DriverOptions options;
  std::string emit = "tile";
  std::vector<std::string> stages = tcc::emitStageNames();
  std::string stageList;
  for (const std::string &s : stages)
    stageList += (stageList.empty() ? "" : "|") + s;

  app.add_option("input", options.inputPath, "the .tile file to compile ('-' reads stdin)")
      ->required();
  app.add_option("--emit", emit, "how far to compile: " + stageList + " (default: tile)")
      ->check(CLI::IsMember(stages));
  app.add_option("-D", options.defines,
                 "set a constexpr parameter or top-level constant: -D BLOCK=512 (repeatable)");
  app.add_option("-o", options.outputPath, "write the result here (default: stdout)");
  app.add_option("--kernel", options.kernelName,
                 "compile only this kernel of the file (default: all)");
  app.add_flag("--debug-locs", options.debugLocations,
               "print source locations in the IR (like -mlir-print-debuginfo)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 0 : 1;
  }
  options.emit = *tcc::parseEmitStage(emit);
  tcc::Driver driver(std::move(options));
  return driver.run();
}
