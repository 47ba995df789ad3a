// Put first on the include path of libtccrt and of the checks in test/unit: tcc's runtime
// and its public headers must build without the CUDA toolkit, so reaching <cuda.h> from them
// is an error even on machines that have it.
#error "<cuda.h> reached from tcc's runtime or its public headers: they must not need the CUDA toolkit (use tcc/cuda_api.h)"
