// The generated launch headers of the 2-D examples, from the default configurations
// (test/gpu/artifacts.cmake's tcc_header lines): `tcc --emit=header` in <artifacts>/headers/
// tcc_kernels/ (`--variants=auto`: general, aligned and, for copy2d, unit inner strides;
// global namespace). Typed functions with the cubins embedded, launched on an awkward shape
// and compared with the CPU as the library-launched tests do (transpose: exact; softmax:
// 1e-5 relative).
#include "gpu_util.h"
#include "matrix.h"

#include <cmath>

#if __has_include(<tcc_kernels/transpose.h>)
#include <tcc_kernels/transpose.h>
#define TCC_HAVE_TCC_TRANSPOSE_HEADER 1
#else
#define TCC_HAVE_TCC_TRANSPOSE_HEADER 0
#endif
#if __has_include(<tcc_kernels/copy2d.h>)
#include <tcc_kernels/copy2d.h>
#define TCC_HAVE_TCC_COPY2D_HEADER 1
#else
#define TCC_HAVE_TCC_COPY2D_HEADER 0
#endif
#if __has_include(<tcc_kernels/softmax.h>)
#include <tcc_kernels/softmax.h>
#define TCC_HAVE_TCC_SOFTMAX_HEADER 1
#else
#define TCC_HAVE_TCC_SOFTMAX_HEADER 0
#endif

namespace {

using gputest::DType;
using gputest::Layout;
using gputest::Matrix;

// transpose(stream, src, dst, M, N, stride_src, stride_dst) on 300 x 517 with strided rows.
template <typename F> void checkTranspose(F launch) {
  const int64_t M = 300, N = 517;
  Matrix in(DType::F32, Layout::rowMajor(M, N, 3), Matrix::Role::Input);
  Matrix out(DType::F32, Layout::rowMajor(N, M, 5), Matrix::Role::Output);
  in.randomize(7, 1, 1000);
  in.upload();
  out.poison();
  launch(in.ptr(), out.ptr(), int32_t(M), int32_t(N), int32_t(N + 3), int32_t(M + 5));
  gputest::synchronize();
  out.download();
  gputest::CheckResult r = gputest::checkOutput(
      out, [&](int64_t i, int64_t j) { return gputest::Expected{in.at(j, i)}; });
  EXPECT_TRUE(r.ok()) << r.describe();
}

// softmax(stream, out, inp, in_stride, out_stride, M, N) on 37 x 1000 rows (the headers are
// made from BLOCK = 1024 configurations).
template <typename F> void checkSoftmax(F launch) {
  const int64_t M = 37, N = 1000;
  Matrix in(DType::F32, Layout::rowMajor(M, N, 9), Matrix::Role::Input);
  Matrix out(DType::F32, Layout::rowMajor(M, N, 0), Matrix::Role::Output);
  in.randomize(8, 0.01, 4);
  in.upload();
  out.poison();
  launch(out.ptr(), in.ptr(), int32_t(N + 9), int32_t(N), int32_t(M), int32_t(N));
  gputest::synchronize();
  out.download();
  std::vector<double> ref(M * N);
  for (int64_t i = 0; i < M; ++i) {
    double mx = -INFINITY, s = 0;
    for (int64_t j = 0; j < N; ++j)
      mx = std::max(mx, in.at(i, j));
    for (int64_t j = 0; j < N; ++j)
      s += ref[i * N + j] = std::exp(in.at(i, j) - mx);
    for (int64_t j = 0; j < N; ++j)
      ref[i * N + j] /= s;
  }
  gputest::CheckResult r = gputest::checkOutput(out, [&](int64_t i, int64_t j) {
    return gputest::Expected{ref[i * N + j], 1e-5 * ref[i * N + j]};
  });
  EXPECT_TRUE(r.ok()) << r.describe();
}

TEST(GeneratedHeader2D, TccTranspose) {
  TCC_REQUIRE_GPU();
#if !TCC_HAVE_TCC_TRANSPOSE_HEADER
  TCC_REQUIRE_ARTIFACT_FILE("headers/tcc_kernels/transpose.h");
  GTEST_FAIL() << "built without <tcc_kernels/transpose.h>: configure after building the artifacts";
#else
  checkTranspose([](CUdeviceptr s, CUdeviceptr d, int32_t m, int32_t n, int32_t ss, int32_t sd) {
    ::transpose(nullptr, s, d, m, n, ss, sd);
  });
#endif
}

// copy2d(stream, src, dst, M, N, stride_sm, stride_sn, stride_dm, stride_dn) through the
// header of `tcc --variants=auto`, on views that meet each variant's conditions: row-major
// with every dimension and row stride a multiple of 16 (unit inner strides), every 16th
// column (all strides multiples of 16: the aligned variant), odd padding (general).
TEST(GeneratedHeader2D, TccCopy2dEveryVariant) {
  TCC_REQUIRE_GPU();
#if !TCC_HAVE_TCC_COPY2D_HEADER
  TCC_REQUIRE_ARTIFACT_FILE("headers/tcc_kernels/copy2d.h");
  GTEST_FAIL() << "built without <tcc_kernels/copy2d.h>: configure after building the artifacts";
#else
  struct View {
    const char* what;
    Layout in, out;
  };
  const int64_t M = 96, N = 160;
  const View views[] = {
      {"unit inner strides", Layout::rowMajor(M, N, 16), Layout::rowMajor(M, N, 0)},
      {"every 16th column", Layout::spread(M, N, 16), Layout::spread(M, N, 16)},
      {"odd padding", Layout::rowMajor(M, N, 3), Layout::rowMajor(M, N, 5)},
  };
  for (const View& v : views) {
    SCOPED_TRACE(v.what);
    Matrix in(DType::F32, v.in, Matrix::Role::Input);
    Matrix out(DType::F32, v.out, Matrix::Role::Output);
    in.randomize(11, -100, 100);
    in.upload();
    out.poison();
    ::copy2d(nullptr, in.ptr(), out.ptr(), int32_t(M), int32_t(N), int32_t(v.in.rowStride),
             int32_t(v.in.colStride), int32_t(v.out.rowStride), int32_t(v.out.colStride));
    gputest::synchronize();
    out.download();
    gputest::CheckResult r = gputest::checkOutput(
        out, [&](int64_t i, int64_t j) { return gputest::Expected{in.at(i, j)}; });
    EXPECT_TRUE(r.ok()) << r.describe();
  }
#endif
}

TEST(GeneratedHeader2D, TccSoftmax) {
  TCC_REQUIRE_GPU();
#if !TCC_HAVE_TCC_SOFTMAX_HEADER
  TCC_REQUIRE_ARTIFACT_FILE("headers/tcc_kernels/softmax.h");
  GTEST_FAIL() << "built without <tcc_kernels/softmax.h>: configure after building the artifacts";
#else
  checkSoftmax([](CUdeviceptr o, CUdeviceptr i, int32_t is, int32_t os, int32_t m, int32_t n) {
    ::softmax(nullptr, o, i, is, os, m, n);
  });
#endif
}

} // namespace
