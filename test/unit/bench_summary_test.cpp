// bench/summary.h, tcc-bench's per-workload report, and the placement against the ceilings
// it shares with tcc-tune's report (tcc::tune::place, runtime/tools/tune.h): rates, the
// fractions of both ceilings, arithmetic intensity, the ridge and the bound, the table, CSV
// and JSON. No GPU.
#include "summary.h"

#include <gtest/gtest.h>

namespace {

using benchutil::Measurement;
using tcc::tune::Bound;
using tcc::tune::Ceilings;
using tcc::tune::place;

Ceilings h200() {
  Ceilings c;
  c.copyGBps = 4000;     // GB/s
  c.tensorTFLOPs = 800;  // TFLOP/s: the ridge at 200 FLOP/B
  c.copyNote = "copy";
  c.tensorNote = "peak";
  return c;
}

TEST(Roofline, RatesFractionsIntensityAndBound) {
  // 12 GB and 1 GFLOP in 4 ms: 3000 GB/s (75 % of the copy), 0.25 TFLOP/s.
  tcc::tune::Placement p = place(h200(), 4.0, 12e9, 1e9);
  ASSERT_TRUE(p.gbps && p.tflops && p.fractionOfCopy && p.fractionOfTensor && p.intensity);
  EXPECT_NEAR(*p.gbps, 3000, 1e-9);
  EXPECT_NEAR(*p.tflops, 0.25, 1e-12);
  EXPECT_NEAR(*p.fractionOfCopy, 0.75, 1e-12);
  EXPECT_NEAR(*p.fractionOfTensor, 0.25 / 800, 1e-15);
  EXPECT_NEAR(*p.intensity, 1.0 / 12, 1e-15);
  ASSERT_TRUE(p.ridge);
  EXPECT_NEAR(*p.ridge, 200, 1e-9);
  EXPECT_EQ(p.bound, Bound::Memory);

  // A 4096^3 fp16 matmul: 2 * 4096^3 FLOPs over 3 * 4096^2 * 2 bytes, 1365 FLOP/B.
  const double s = 4096;
  p = place(h200(), 0.2, 6 * s * s, 2 * s * s * s);
  EXPECT_NEAR(*p.intensity, s / 3, 1e-9);
  EXPECT_EQ(p.bound, Bound::Compute);
  // Exactly at the ridge: compute (it could reach the tensor-core rate).
  EXPECT_EQ(place(h200(), 1, 1e6, 2e8).bound, Bound::Compute);
  EXPECT_EQ(place(h200(), 1, 1e6, 1.99e8).bound, Bound::Memory);
}

TEST(Roofline, MissingCountsAndCeilings) {
  // Pure data movement (no FLOPs, or FLOPs 0): memory-bound whatever the ceilings.
  EXPECT_EQ(place(h200(), 1, 8e9, std::nullopt).bound, Bound::Memory);
  EXPECT_EQ(place(Ceilings{}, 1, 8e9, 0.0).bound, Bound::Memory);
  EXPECT_EQ(*place(Ceilings{}, 1, 8e9, 0.0).intensity, 0);
  // FLOPs without a ridge (the tensor ceiling not measured): unknown; no bytes: unknown.
  Ceilings copyOnly = h200();
  copyOnly.tensorTFLOPs = 0;
  tcc::tune::Placement p = place(copyOnly, 1, 8e9, 1e9);
  EXPECT_EQ(p.bound, Bound::Unknown);
  EXPECT_FALSE(p.ridge);
  EXPECT_FALSE(p.fractionOfTensor);
  ASSERT_TRUE(p.fractionOfCopy);
  EXPECT_NEAR(*p.fractionOfCopy, 2, 1e-12);
  EXPECT_EQ(place(h200(), 1, std::nullopt, 1e9).bound, Bound::Unknown);
  // Not timed: no rates or fractions, but the intensity and the bound still placed.
  p = place(h200(), 0, 8e9, 1e9);
  EXPECT_FALSE(p.gbps);
  EXPECT_FALSE(p.fractionOfCopy);
  EXPECT_TRUE(p.intensity);
  EXPECT_EQ(p.bound, Bound::Memory);
  EXPECT_STREQ(tcc::tune::boundName(Bound::Memory), "memory");
  EXPECT_STREQ(tcc::tune::boundName(Bound::Compute), "compute");
  EXPECT_STREQ(tcc::tune::boundName(Bound::Unknown), "unknown");
}

Measurement measured(const std::string& workload, const std::string& metric, double ms,
                     double bytes, double flops) {
  tcc::bench::Result r;
  r.median = ms;
  r.p20 = ms * 0.99;
  r.p80 = ms * 1.01;
  return benchutil::measured(workload, "tcc", "BLOCK1024_W4", metric, r, true, bytes, flops);
}

TEST(BenchSummary, TableLinesWithRatiosAndNotes) {
  benchutil::SummaryLine a;
  a.m = measured("softmax_4096x4096", "GB/s", 0.04, 128e6, 80e6); // 3200 GB/s, 80 %
  a.ratio = 1.004;
  a.ratioMin = 0.998;
  a.ratioMax = 1.010;
  benchutil::SummaryLine b;
  b.m = measured("matmul_fp16_4096^3", "TFLOP/s", 0.2, 6 * 4096.0 * 4096, 2 * 4096.0 * 4096 * 4096);
  benchutil::SummaryLine c;
  c.m.workload = "triton_05_layer_norm_fwd_4096x15872";
  c.m.config = "-";
  c.note = "no correct tcc configuration";
  const std::string t = benchutil::summaryTable({a, b, c}, h200());
  EXPECT_NE(t.find("FLOP/B"), std::string::npos) << t;
  // The memory-bound row: median, p20, p80, rate, %copy, %tensor (2 TFLOP/s of 800),
  // intensity, bound, ratio.
  EXPECT_NE(t.find("0.0400     0.0396     0.0404        3200 GB/s   80.0    0.25     0.625 "
                   "memory  1.004 (0.998-1.010)"),
            std::string::npos)
      << t;
  // 687.2 TFLOP/s of 800: 85.90 %; 503 GB/s, 12.6 % of the copy; 1365 FLOP/B:
  // compute-bound; no same-harness ratio.
  EXPECT_NE(t.find("687.2 TFLOP/s   12.6   85.90  1.37e+03 compute -"), std::string::npos) << t;
  EXPECT_NE(t.find("triton_05_layer_norm_fwd_4096x15872 -            no correct tcc configuration"),
            std::string::npos)
      << t;
  EXPECT_NEAR(benchutil::rate(a.m), 3200, 1e-9);
  EXPECT_NEAR(benchutil::rate(b.m), 2 * 4096.0 * 4096 * 4096 / 0.2e9, 1e-6);
}

TEST(BenchSummary, CeilingsLineSaysWhatWasNotMeasured) {
  EXPECT_EQ(benchutil::ceilingsLine(h200()),
            "copy 4000.0 GB/s (copy), tensor cores 800.0 TFLOP/s (peak); ridge 200.0 FLOP/B "
            "(below it a kernel is memory-bound)");
  Ceilings c = h200();
  c.tensorTFLOPs = 0;
  c.tensorNote = "not measured (no --peak artifact)";
  EXPECT_EQ(benchutil::ceilingsLine(c),
            "copy 4000.0 GB/s (copy), tensor cores not measured (no --peak artifact)");
}

TEST(BenchSummary, CsvAndJsonColumns) {
  EXPECT_STREQ(benchutil::kCsvRooflineHeader,
               "fraction_of_tensor,tensor_tflops,bytes,flops,intensity,bound");
  Measurement m = measured("vector_add_268435456", "GB/s", 1.0, 3.0 * 4 * 268435456, 268435456);
  EXPECT_EQ(benchutil::csvRoofline(m, h200()),
            "0.000335544,800,3221225472,268435456,0.0833333,memory"); // 0.268 of 800 TFLOP/s
  // Not counted (a failed row): empty fields, bound unknown; no tensor ceiling: empty too.
  Measurement none = benchutil::measured("w", "tcc", "c", "GB/s", {}, false, 8e9, 1e9);
  EXPECT_FALSE(none.bytes || none.flops);
  Ceilings copyOnly = h200();
  copyOnly.tensorTFLOPs = 0;
  EXPECT_EQ(benchutil::csvRoofline(none, copyOnly), ",,,,,unknown");

  tcc::json::Value o = tcc::json::Value::object();
  benchutil::setRoofline(o, m, h200());
  EXPECT_NEAR(o.find("gbps")->asDouble(), 3221.225472, 1e-6);
  EXPECT_NEAR(o.find("fraction_of_copy")->asDouble(), 3221.225472 / 4000, 1e-9);
  EXPECT_NEAR(o.find("intensity")->asDouble(), 1.0 / 12, 1e-12);
  EXPECT_EQ(o.find("bound")->asString(), "memory");
  tcc::json::Value n = tcc::json::Value::object();
  benchutil::setRoofline(n, none, copyOnly);
  EXPECT_TRUE(n.find("intensity")->isNull());
  EXPECT_TRUE(n.find("fraction_of_tensor")->isNull());

  tcc::json::Value c = benchutil::ceilingsJson(h200());
  EXPECT_EQ(c.find("copy_gbps")->asDouble(), 4000);
  EXPECT_EQ(c.find("tensor_tflops")->asDouble(), 800);
  EXPECT_NEAR(c.find("ridge_flop_per_byte")->asDouble(), 200, 1e-9);
  EXPECT_TRUE(benchutil::ceilingsJson(copyOnly).find("tensor_tflops")->isNull());
}

TEST(BenchSummary, RooflineChartIsTccTunes) {
  benchutil::SummaryLine a;
  a.m = measured("softmax_4096x4096", "GB/s", 0.04, 128e6, 80e6);
  benchutil::SummaryLine b;
  b.m = measured("matmul_fp16_4096^3", "TFLOP/s", 0.2, 6 * 4096.0 * 4096, 2 * 4096.0 * 4096 * 4096);
  benchutil::SummaryLine c;
  c.m.workload = "layer_norm";
  c.note = "no correct tcc configuration";
  const tcc::tune::Report r = benchutil::rooflineReport({a, b, c}, h200(), "GPU");
  ASSERT_EQ(r.shapes.size(), 3u);
  EXPECT_EQ(r.shapes[0].label, "softmax_4096x4096");
  ASSERT_EQ(r.shapes[0].configs.size(), 1u);
  const tcc::tune::ConfigResult& k = r.shapes[0].configs[0];
  EXPECT_TRUE(k.ok);
  EXPECT_EQ(k.config, "BLOCK1024_W4");
  EXPECT_EQ(k.medianMs, 0.04);
  EXPECT_EQ(*k.bytes, 128e6);
  EXPECT_EQ(*k.flops, 80e6);
  EXPECT_FALSE(r.shapes[2].configs[0].ok);
  EXPECT_EQ(r.shapes[2].configs[0].error, "no correct tcc configuration");
  EXPECT_EQ(r.ceilings.tensorTFLOPs, 800);
  // Two measured points under the roof (the failed one is left out).
  const std::string svg = tcc::tune::rooflineSvg(r);
  size_t circles = 0;
  for (size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1))
    ++circles;
  EXPECT_EQ(circles, 2u) << svg;
  EXPECT_NE(svg.find("matmul_fp16_4096^3 [0] BLOCK1024_W4"), std::string::npos);
}

} // namespace
