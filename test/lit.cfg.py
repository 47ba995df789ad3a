# lit configuration for tcc's compiler tests: tile-opt and tcc driven by RUN lines,
# checked with FileCheck.
import os
import lit.formats
from lit.llvm import llvm_config

config.name = "tcc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tile", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "unit", "gpu", "integration"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tcc_obj_root, "test")

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tcc_tools_dir, append_path=True)
config.substitutions.append(("%examples", os.path.join(config.tcc_src_root, "lang-examples")))
config.substitutions.append(("%ptxas", config.ptxas))
if config.have_ptxas:
    config.available_features.add("ptxas")

# CUDA's libdevice, found as tcc finds it (dialects/Tile/Libdevice.h), for tests that link it.
_libdevice = os.environ.get("TCC_LIBDEVICE") or next(
    (p for p in [os.path.join(os.environ.get(v, ""), "nvvm/libdevice/libdevice.10.bc")
                 for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)] +
     ["/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"] if os.path.isfile(p)), "")
if _libdevice and os.path.isfile(_libdevice):
    config.available_features.add("libdevice")

# A C++ compiler and the runtime's headers, for tests that compile generated headers.
import shutil
cxx = shutil.which("clang++-14") or shutil.which("clang++") or shutil.which("c++") or shutil.which("g++")
if cxx:
    config.available_features.add("cxx")
    config.substitutions.append(("%cxx", cxx + " -std=c++17"))
import sys
config.substitutions.append(("%python", '"%s"' % sys.executable))
config.substitutions.append(("%runtime_include", os.path.join(config.tcc_src_root, "runtime", "include")))
# The runtime's fake CUDA driver (test/unit/runtime_fake_cuda.cpp), for tests that run the
# offline tuner end to end without a GPU (TCC_LIBCUDA=%fake_cuda).
fake_cuda = os.path.join(config.tcc_obj_root, "lib", "libtcc-fake-cuda.so")
if os.path.exists(fake_cuda):
    config.available_features.add("fake-cuda")
    config.substitutions.append(("%fake_cuda", fake_cuda))
# tcc-pack (test/gpu/fixtures/tcc_pack.cpp), the GPU fixtures' packer, where it is built.
if os.path.exists(os.path.join(config.tcc_tools_dir, "tcc-pack")):
    config.available_features.add("tcc-pack")
