// The offline tuner's report (tune.h): the ranking, the text table, CSV, JSON, two SVG
// charts and the tuning table. Pure functions of a Report: no GPU.
#include "tune.h"

#include "tcc/atomic_file.h"
#include "tcc/json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

namespace tcc {
namespace tune {

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// Fractions of the ceilings (nullopt where the ceiling or the count is missing).
std::optional<double> ofCopy(const Report& r, const ConfigResult& c) {
  if (!c.ok)
    return std::nullopt;
  return place(r.ceilings, c.medianMs, c.bytes, c.flops).fractionOfCopy;
}
std::optional<double> ofTensor(const Report& r, const ConfigResult& c) {
  if (!c.ok)
    return std::nullopt;
  return place(r.ceilings, c.medianMs, c.bytes, c.flops).fractionOfTensor;
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string xml(const std::string& s) {
  std::string r;
  for (char c : s)
    r += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;"
                                                                     : std::string(1, c);
  return r;
}

const char* const kColours[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
const char* colour(size_t i) { return kColours[i % (sizeof kColours / sizeof *kColours)]; }

// Powers of ten covering [lo, hi] (lo > 0).
std::pair<double, double> decades(double lo, double hi) {
  double a = std::pow(10.0, std::floor(std::log10(lo)));
  double b = std::pow(10.0, std::ceil(std::log10(hi)));
  if (b <= a)
    b = a * 10;
  return {a, b};
}

// The opening of a chart of width x height: the svg element, a white background and the
// title at x = titleX.
std::string svgStart(double width, double height, double titleX, const std::string& title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt("%.0f", width) +
         "\" height=\"" + fmt("%.0f", height) +
         "\" font-family=\"sans-serif\" font-size=\"11\">\n"
         "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
         "<text x=\"" +
         fmt("%.0f", titleX) + "\" y=\"20\" font-size=\"13\">" + xml(title) + "</text>\n";
}

std::string tickLabel(double v) {
  if (v >= 1 && v < 1e6)
    return fmt("%.0f", v);
  return fmt("%g", v);
}

} // namespace

Placement place(const Ceilings& c, double medianMs, std::optional<double> bytes,
                std::optional<double> flops) {
  Placement p;
  if (medianMs > 0) {
    if (bytes) {
      p.gbps = *bytes / (medianMs * 1e6);
      if (c.copyGBps > 0)
        p.fractionOfCopy = *p.gbps / c.copyGBps;
    }
    if (flops) {
      p.tflops = *flops / (medianMs * 1e9);
      if (c.tensorTFLOPs > 0)
        p.fractionOfTensor = *p.tflops / c.tensorTFLOPs;
    }
  }
  if (c.copyGBps > 0 && c.tensorTFLOPs > 0)
    p.ridge = c.tensorTFLOPs * 1000 / c.copyGBps; // (TFLOP/s x 1e12) / (GB/s x 1e9)
  if (bytes && *bytes > 0) {
    if (flops)
      p.intensity = *flops / *bytes;
    if (!flops || *flops <= 0)
      p.bound = Bound::Memory;
    else if (p.ridge)
      p.bound = *p.intensity < *p.ridge ? Bound::Memory : Bound::Compute;
  }
  return p;
}

const char* boundName(Bound b) {
  switch (b) {
  case Bound::Memory:
    return "memory";
  case Bound::Compute:
    return "compute";
  case Bound::Unknown:
    break;
  }
  return "unknown";
}

Ranking rank(const ShapeResult& s) {
  Ranking r;
  for (size_t i = 0; i < s.configs.size(); ++i) {
    const ConfigResult& c = s.configs[i];
    if (!c.ok)
      continue;
    if (r.best < 0 || c.medianMs < s.configs[size_t(r.best)].medianMs) {
      r.runnerUp = r.best;
      r.best = int(i);
    } else if (r.runnerUp < 0 || c.medianMs < s.configs[size_t(r.runnerUp)].medianMs) {
      r.runnerUp = int(i);
    }
  }
  if (r.best >= 0 && r.runnerUp >= 0) {
    const ConfigResult &b = s.configs[size_t(r.best)], &u = s.configs[size_t(r.runnerUp)];
    r.gapPercent = b.medianMs > 0 ? (u.medianMs - b.medianMs) / b.medianMs * 100 : 0;
    r.withinNoise = u.p20Ms <= b.p80Ms;
  }
  return r;
}

std::string textReport(const Report& r) {
  std::string t = r.kernel + (r.space.empty() ? "" : " (space " + r.space + ")") + " on " +
                  r.device + " (sm_" + std::to_string(r.computeCapability) + ", driver " +
                  std::to_string(r.driverVersion) + ")\n";
  t += "ceilings measured in this run:\n";
  t += "  copy bandwidth: " +
       (r.ceilings.copyGBps > 0 ? fmt("%.1f GB/s", r.ceilings.copyGBps) + " (" + r.ceilings.copyNote + ")"
                                : r.ceilings.copyNote) +
       "\n";
  t += "  tensor cores:   " +
       (r.ceilings.tensorTFLOPs > 0
            ? fmt("%.1f TFLOP/s", r.ceilings.tensorTFLOPs) + " (" + r.ceilings.tensorNote + ")"
            : r.ceilings.tensorNote) +
       "\n";
  for (const ShapeResult& s : r.shapes) {
    t += "\n" + s.label + (s.key.empty() ? "" : "  [key " + s.key + "]") + "\n";
    size_t width = 6;
    for (const ConfigResult& c : s.configs)
      width = std::max(width, c.config.size());
    char line[512];
    std::snprintf(line, sizeof line, "  %-5s %-*s %10s %10s %10s %6s %9s %6s %9s %7s\n", "idx",
                  int(width), "config", "median ms", "p20 ms", "p80 ms", "reps", "GB/s", "%copy",
                  "TFLOP/s", "%tensor");
    t += line;
    Ranking k = rank(s);
    for (size_t i = 0; i < s.configs.size(); ++i) {
      const ConfigResult& c = s.configs[i];
      std::string idx = "[" + std::to_string(c.index) + "]";
      if (!c.ok) {
        std::snprintf(line, sizeof line, "  %-5s %-*s failed: %s\n", idx.c_str(), int(width),
                      c.config.c_str(), c.error.c_str());
        t += line;
        continue;
      }
      std::optional<double> fc = ofCopy(r, c), ft = ofTensor(r, c);
      std::snprintf(line, sizeof line, "  %-5s %-*s %10.4f %10.4f %10.4f %6d %9s %6s %9s %7s%s\n",
                    idx.c_str(), int(width), c.config.c_str(), c.medianMs, c.p20Ms, c.p80Ms,
                    c.reps, c.bytes ? fmt("%.1f", c.gbps()).c_str() : "-",
                    fc ? fmt("%.1f", *fc * 100).c_str() : "-",
                    c.flops ? fmt("%.3f", c.tflops()).c_str() : "-",
                    ft ? fmt("%.2f", *ft * 100).c_str() : "-",
                    int(i) == k.best ? "  <- best" : "");
      t += line;
    }
    if (k.best < 0) {
      t += "  no configuration ran\n";
      continue;
    }
    const ConfigResult& b = s.configs[size_t(k.best)];
    t += "  best [" + std::to_string(b.index) + "] " + b.config;
    if (k.runnerUp >= 0) {
      const ConfigResult& u = s.configs[size_t(k.runnerUp)];
      t += "; runner-up [" + std::to_string(u.index) + "] " + u.config + ", " +
           fmt("%.2f", k.gapPercent) + " % slower\n";
      if (k.withinNoise)
        t += "  warning: the gap is inside the noise (the runner-up's p20 " +
             fmt("%.4f", u.p20Ms) + " ms <= the best's p80 " + fmt("%.4f", b.p80Ms) +
             " ms): either may win another run; measure again (A/B/A/B) before trusting it\n";
    } else {
      t += "\n";
    }
  }
  return t;
}

std::string csvReport(const Report& r) {
  std::string t = "shape,key,index,config,ok,median_ms,p20_ms,p80_ms,reps,bytes,flops,gbps,"
                  "tflops,fraction_of_copy,fraction_of_tensor,best,within_noise\n";
  for (const ShapeResult& s : r.shapes) {
    Ranking k = rank(s);
    for (size_t i = 0; i < s.configs.size(); ++i) {
      const ConfigResult& c = s.configs[i];
      std::optional<double> fc = ofCopy(r, c), ft = ofTensor(r, c);
      t += csvField(s.label) + "," + csvField(s.key) + "," + std::to_string(c.index) + "," +
           csvField(c.config) + "," + (c.ok ? "1" : "0") + "," + fmt("%.6f", c.medianMs) + "," +
           fmt("%.6f", c.p20Ms) + "," + fmt("%.6f", c.p80Ms) + "," + std::to_string(c.reps) +
           "," + (c.bytes ? fmt("%.0f", *c.bytes) : "") + "," +
           (c.flops ? fmt("%.0f", *c.flops) : "") + "," + (c.bytes && c.ok ? fmt("%.3f", c.gbps()) : "") +
           "," + (c.flops && c.ok ? fmt("%.6f", c.tflops()) : "") + "," +
           (fc ? fmt("%.4f", *fc) : "") + "," + (ft ? fmt("%.4f", *ft) : "") + "," +
           (int(i) == k.best ? "1" : "0") + "," +
           (int(i) == k.best && k.withinNoise ? "1" : "0") + "\n";
    }
  }
  return t;
}

std::string jsonReport(const Report& r) {
  json::Value root = json::Value::object();
  root.set("format", "tcc-tune-report");
  root.set("version", 1);
  root.set("kernel", r.kernel);
  root.set("space", r.space);
  root.set("device", r.device);
  root.set("cc", r.computeCapability);
  root.set("driver", r.driverVersion);
  json::Value ceil = json::Value::object();
  ceil.set("copy_gbps", r.ceilings.copyGBps > 0 ? json::Value(r.ceilings.copyGBps) : json::Value());
  ceil.set("copy_note", r.ceilings.copyNote);
  ceil.set("tensor_tflops",
           r.ceilings.tensorTFLOPs > 0 ? json::Value(r.ceilings.tensorTFLOPs) : json::Value());
  ceil.set("tensor_note", r.ceilings.tensorNote);
  root.set("ceilings", ceil);
  json::Value shapes = json::Value::array();
  for (const ShapeResult& s : r.shapes) {
    Ranking k = rank(s);
    json::Value js = json::Value::object();
    js.set("shape", s.label);
    js.set("key", s.key);
    js.set("best", k.best >= 0 ? json::Value(s.configs[size_t(k.best)].index) : json::Value());
    js.set("runner_up",
           k.runnerUp >= 0 ? json::Value(s.configs[size_t(k.runnerUp)].index) : json::Value());
    js.set("gap_percent", k.runnerUp >= 0 ? json::Value(k.gapPercent) : json::Value());
    js.set("within_noise", k.withinNoise);
    json::Value cs = json::Value::array();
    for (const ConfigResult& c : s.configs) {
      json::Value jc = json::Value::object();
      jc.set("index", c.index);
      jc.set("config", c.config);
      jc.set("ok", c.ok);
      if (!c.ok) {
        jc.set("error", c.error);
      } else {
        jc.set("median_ms", c.medianMs);
        jc.set("p20_ms", c.p20Ms);
        jc.set("p80_ms", c.p80Ms);
        jc.set("reps", c.reps);
      }
      jc.set("bytes", c.bytes ? json::Value(*c.bytes) : json::Value());
      jc.set("flops", c.flops ? json::Value(*c.flops) : json::Value());
      jc.set("gbps", c.ok && c.bytes ? json::Value(c.gbps()) : json::Value());
      jc.set("tflops", c.ok && c.flops ? json::Value(c.tflops()) : json::Value());
      std::optional<double> fc = ofCopy(r, c), ft = ofTensor(r, c);
      jc.set("fraction_of_copy", fc ? json::Value(*fc) : json::Value());
      jc.set("fraction_of_tensor", ft ? json::Value(*ft) : json::Value());
      const Placement pl = place(r.ceilings, c.medianMs, c.bytes, c.flops);
      jc.set("intensity", pl.intensity ? json::Value(*pl.intensity) : json::Value());
      jc.set("bound", boundName(pl.bound));
      cs.push(jc);
    }
    js.set("configs", cs);
    shapes.push(js);
  }
  root.set("shapes", shapes);
  return json::write(root, 2) + "\n";
}

std::string sweepSvg(const Report& r) {
  // Grouped bars: one group per argument set, one bar per configuration, log time axis.
  size_t nconf = 0;
  double lo = 0, hi = 0;
  for (const ShapeResult& s : r.shapes) {
    nconf = std::max(nconf, s.configs.size());
    for (const ConfigResult& c : s.configs)
      if (c.ok && c.medianMs > 0) {
        lo = lo == 0 ? c.medianMs : std::min(lo, c.medianMs);
        hi = std::max(hi, c.p80Ms > 0 ? c.p80Ms : c.medianMs);
      }
  }
  const double left = 70, top = 40, plotH = 260, bar = 14, gap = 24;
  const double groupW = std::max<double>(1, double(nconf)) * bar + gap;
  const double plotW = std::max(200.0, groupW * double(r.shapes.size()));
  const double legendH = 16 * double(nconf) + 10;
  const double W = left + plotW + 20, H = top + plotH + 60 + legendH;
  std::string s = svgStart(W, H, left, r.kernel + " on " + r.device +
                                           ": median time per configuration (bars; whiskers "
                                           "p20-p80)");
  if (lo <= 0) {
    s += "<text x=\"" + fmt("%.0f", left) + "\" y=\"60\">no configuration ran</text>\n</svg>\n";
    return s;
  }
  const std::pair<double, double> range = decades(lo, hi);
  const double a = range.first, b = range.second;
  auto y = [&](double v) {
    return top + plotH - (std::log10(v) - std::log10(a)) / (std::log10(b) - std::log10(a)) * plotH;
  };
  for (double d = a; d <= b * 1.0001; d *= 10) {
    s += "<line x1=\"" + fmt("%.1f", left) + "\" x2=\"" + fmt("%.1f", left + plotW) + "\" y1=\"" +
         fmt("%.1f", y(d)) + "\" y2=\"" + fmt("%.1f", y(d)) + "\" stroke=\"#ddd\"/>\n";
    s += "<text x=\"" + fmt("%.1f", left - 4) + "\" y=\"" + fmt("%.1f", y(d) + 4) +
         "\" text-anchor=\"end\">" + tickLabel(d) + "</text>\n";
  }
  s += "<text x=\"14\" y=\"" + fmt("%.1f", top + plotH / 2) +
       "\" transform=\"rotate(-90 14 " + fmt("%.1f", top + plotH / 2) +
       ")\" text-anchor=\"middle\">ms (log)</text>\n";
  for (size_t g = 0; g < r.shapes.size(); ++g) {
    const ShapeResult& sh = r.shapes[g];
    Ranking k = rank(sh);
    double x0 = left + gap / 2 + double(g) * groupW;
    for (size_t i = 0; i < sh.configs.size(); ++i) {
      const ConfigResult& c = sh.configs[i];
      if (!c.ok || c.medianMs <= 0)
        continue;
      double x = x0 + double(i) * bar, yt = y(c.medianMs);
      s += "<rect x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.1f", yt) + "\" width=\"" +
           fmt("%.1f", bar - 2) + "\" height=\"" + fmt("%.1f", top + plotH - yt) + "\" fill=\"" +
           colour(i) + "\"" + (int(i) == k.best ? " stroke=\"black\" stroke-width=\"1.5\"" : "") +
           "><title>" + xml(sh.label + " [" + std::to_string(c.index) + "] " + c.config + ": " +
                            fmt("%.4f", c.medianMs) + " ms") +
           "</title></rect>\n";
      if (c.p20Ms > 0 && c.p80Ms > 0)
        s += "<line x1=\"" + fmt("%.1f", x + (bar - 2) / 2) + "\" x2=\"" +
             fmt("%.1f", x + (bar - 2) / 2) + "\" y1=\"" + fmt("%.1f", y(c.p20Ms)) + "\" y2=\"" +
             fmt("%.1f", y(c.p80Ms)) + "\" stroke=\"black\"/>\n";
    }
    s += "<text x=\"" + fmt("%.1f", x0 + (groupW - gap) / 2) + "\" y=\"" +
         fmt("%.1f", top + plotH + 16) + "\" text-anchor=\"middle\">" + xml(sh.label) + "</text>\n";
  }
  s += "<line x1=\"" + fmt("%.1f", left) + "\" x2=\"" + fmt("%.1f", left + plotW) + "\" y1=\"" +
       fmt("%.1f", top + plotH) + "\" y2=\"" + fmt("%.1f", top + plotH) + "\" stroke=\"black\"/>\n";
  const ShapeResult* first = r.shapes.empty() ? nullptr : &r.shapes.front();
  for (size_t i = 0; first && i < first->configs.size(); ++i) {
    double ly = top + plotH + 40 + 16 * double(i);
    s += "<rect x=\"" + fmt("%.0f", left) + "\" y=\"" + fmt("%.1f", ly - 9) +
         "\" width=\"10\" height=\"10\" fill=\"" + colour(i) + "\"/>\n";
    s += "<text x=\"" + fmt("%.0f", left + 16) + "\" y=\"" + fmt("%.1f", ly) + "\">" +
         xml("[" + std::to_string(first->configs[i].index) + "] " + first->configs[i].config) +
         "</text>\n";
  }
  s += "</svg>\n";
  return s;
}

std::string rooflineSvg(const Report& r) {
  struct Point {
    double ai, tflops;
    std::string label;
    size_t colour;
  };
  std::vector<Point> pts;
  size_t noFlops = 0;
  for (const ShapeResult& sh : r.shapes)
    for (size_t i = 0; i < sh.configs.size(); ++i) {
      const ConfigResult& c = sh.configs[i];
      if (!c.ok || !c.bytes || !c.flops || *c.bytes <= 0)
        continue;
      if (*c.flops <= 0) {
        ++noFlops;
        continue;
      }
      pts.push_back({*place(r.ceilings, c.medianMs, c.bytes, c.flops).intensity, c.tflops(),
                     sh.label + " [" + std::to_string(c.index) + "] " + c.config + ": " +
                         fmt("%.3g", c.tflops()) + " TFLOP/s, " + fmt("%.1f", c.gbps()) + " GB/s",
                     i});
    }
  const double copy = r.ceilings.copyGBps, peak = r.ceilings.tensorTFLOPs;
  double xlo = 1e-2, xhi = 1e3, ylo = 1e-3, yhi = 1e3;
  for (const Point& p : pts) {
    xlo = std::min(xlo, p.ai);
    xhi = std::max(xhi, p.ai);
    if (p.tflops > 0)
      ylo = std::min(ylo, p.tflops);
    yhi = std::max(yhi, p.tflops);
  }
  if (peak > 0)
    yhi = std::max(yhi, peak);
  std::tie(xlo, xhi) = decades(xlo, xhi);
  std::tie(ylo, yhi) = decades(ylo, yhi);
  const double left = 70, top = 40, plotW = 520, plotH = 320;
  const double W = left + plotW + 30, H = top + plotH + 60;
  auto X = [&](double v) {
    return left + (std::log10(v) - std::log10(xlo)) / (std::log10(xhi) - std::log10(xlo)) * plotW;
  };
  auto Y = [&](double v) {
    return top + plotH - (std::log10(v) - std::log10(ylo)) / (std::log10(yhi) - std::log10(ylo)) * plotH;
  };
  std::string s = svgStart(W, H, left, r.kernel + " on " + r.device +
                                           ": roofline (ceilings measured in the same run)");
  for (double d = xlo; d <= xhi * 1.0001; d *= 10)
    s += "<line x1=\"" + fmt("%.1f", X(d)) + "\" x2=\"" + fmt("%.1f", X(d)) + "\" y1=\"" +
         fmt("%.1f", top) + "\" y2=\"" + fmt("%.1f", top + plotH) + "\" stroke=\"#eee\"/>\n" +
         "<text x=\"" + fmt("%.1f", X(d)) + "\" y=\"" + fmt("%.1f", top + plotH + 14) +
         "\" text-anchor=\"middle\">" + tickLabel(d) + "</text>\n";
  for (double d = ylo; d <= yhi * 1.0001; d *= 10)
    s += "<line x1=\"" + fmt("%.1f", left) + "\" x2=\"" + fmt("%.1f", left + plotW) + "\" y1=\"" +
         fmt("%.1f", Y(d)) + "\" y2=\"" + fmt("%.1f", Y(d)) + "\" stroke=\"#eee\"/>\n" +
         "<text x=\"" + fmt("%.1f", left - 4) + "\" y=\"" + fmt("%.1f", Y(d) + 4) +
         "\" text-anchor=\"end\">" + tickLabel(d) + "</text>\n";
  s += "<text x=\"" + fmt("%.1f", left + plotW / 2) + "\" y=\"" + fmt("%.1f", top + plotH + 32) +
       "\" text-anchor=\"middle\">arithmetic intensity (FLOP/byte, the compiler's counts)</text>\n";
  s += "<text x=\"14\" y=\"" + fmt("%.1f", top + plotH / 2) + "\" transform=\"rotate(-90 14 " +
       fmt("%.1f", top + plotH / 2) + ")\" text-anchor=\"middle\">TFLOP/s</text>\n";
  // The roof: copy bandwidth x intensity (TFLOP/s = GB/s x FLOP/B / 1000), flat at the
  // tensor-core rate.
  if (copy > 0) {
    double x1 = xlo, x2 = xhi;
    if (peak > 0)
      x2 = std::min(xhi, peak * 1000 / copy);
    double y1 = copy * x1 / 1000, y2 = copy * x2 / 1000;
    s += "<line x1=\"" + fmt("%.1f", X(x1)) + "\" y1=\"" + fmt("%.1f", Y(std::max(y1, ylo))) +
         "\" x2=\"" + fmt("%.1f", X(x2)) + "\" y2=\"" + fmt("%.1f", Y(std::min(y2, yhi))) +
         "\" stroke=\"#c00\" stroke-width=\"2\"><title>" +
         xml("copy bandwidth " + fmt("%.1f", copy) + " GB/s") + "</title></line>\n";
    s += "<text x=\"" + fmt("%.1f", left + 6) + "\" y=\"" + fmt("%.1f", top + 14) +
         "\" fill=\"#c00\">" + xml("copy " + fmt("%.0f", copy) + " GB/s") + "</text>\n";
  }
  if (peak > 0) {
    double x1 = copy > 0 ? std::max(xlo, peak * 1000 / copy) : xlo;
    s += "<line x1=\"" + fmt("%.1f", X(x1)) + "\" y1=\"" + fmt("%.1f", Y(peak)) + "\" x2=\"" +
         fmt("%.1f", X(xhi)) + "\" y2=\"" + fmt("%.1f", Y(peak)) +
         "\" stroke=\"#06c\" stroke-width=\"2\"><title>" +
         xml("tensor cores " + fmt("%.1f", peak) + " TFLOP/s") + "</title></line>\n";
    s += "<text x=\"" + fmt("%.1f", left + plotW - 6) + "\" y=\"" + fmt("%.1f", Y(peak) - 4) +
         "\" fill=\"#06c\" text-anchor=\"end\">" + xml("tensor cores " + fmt("%.0f", peak) + " TFLOP/s") +
         "</text>\n";
  }
  for (const Point& p : pts)
    s += "<circle cx=\"" + fmt("%.1f", X(p.ai)) + "\" cy=\"" + fmt("%.1f", Y(std::max(p.tflops, ylo))) +
         "\" r=\"4\" fill=\"" + colour(p.colour) + "\" fill-opacity=\"0.8\"><title>" + xml(p.label) +
         "</title></circle>\n";
  if (noFlops)
    s += "<text x=\"" + fmt("%.1f", left + 6) + "\" y=\"" + fmt("%.1f", top + plotH - 6) + "\">" +
         xml(std::to_string(noFlops) + " measurement(s) without FLOPs (pure data movement) not "
             "shown: see their GB/s") +
         "</text>\n";
  s += "<rect x=\"" + fmt("%.1f", left) + "\" y=\"" + fmt("%.1f", top) + "\" width=\"" +
       fmt("%.1f", plotW) + "\" height=\"" + fmt("%.1f", plotH) +
       "\" fill=\"none\" stroke=\"black\"/>\n</svg>\n";
  return s;
}

std::string tuningTable(const Report& r, std::vector<std::string>* warnings) {
  return tuningTable(std::vector<Report>{r}, warnings);
}

std::string tuningTable(const std::vector<Report>& reports, std::vector<std::string>* warnings) {
  json::Value root = json::Value::object();
  root.set("format", "tcc-tuning-table");
  root.set("version", 1);
  root.set("kernel", reports.empty() ? "" : reports.front().kernel);
  root.set("space", reports.empty() ? "" : reports.front().space);
  json::Value entries = json::Value::array();
  for (const Report& r : reports) {
    std::map<std::string, std::string> seen; // key -> the argument set that chose it
    const std::string on = reports.size() > 1 ? " on " + r.device : "";
    for (const ShapeResult& s : r.shapes) {
      Ranking k = rank(s);
      if (k.best < 0) {
        warnings->push_back(s.label + on + ": no configuration ran; the table has no entry "
                            "for key [" + s.key + "]");
        continue;
      }
      if (auto it = seen.find(s.key); it != seen.end()) {
        warnings->push_back(s.label + on + " has the key [" + s.key + "] of " + it->second +
                            " (keys are bucketed to powers of two): the table keeps " +
                            it->second + "'s choice");
        continue;
      }
      seen[s.key] = s.label;
      const ConfigResult& b = s.configs[size_t(k.best)];
      json::Value e = json::Value::object();
      e.set("device", r.device);
      e.set("cc", r.computeCapability);
      e.set("key", s.key);
      e.set("index", b.index);
      e.set("config", b.config);
      json::Value medians = json::Value::object();
      for (const ConfigResult& c : s.configs)
        if (c.ok)
          medians.set(std::to_string(c.index), c.medianMs);
      e.set("medians_ms", medians);
      entries.push(e);
    }
  }
  root.set("entries", entries);
  return json::write(root, 2) + "\n";
}

bool writeReport(const Report& r, const std::string& dir, std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    *error = "cannot create the report folder " + dir + ": " + ec.message();
    return false;
  }
  const std::pair<const char*, std::string> files[] = {
      {"report.txt", textReport(r)},   {"report.csv", csvReport(r)},
      {"report.json", jsonReport(r)},  {"sweep.svg", sweepSvg(r)},
      {"roofline.svg", rooflineSvg(r)}};
  for (const auto& f : files) {
    std::string why;
    if (!writeFileAtomically(dir + "/" + f.first, f.second, &why)) {
      *error = "writing " + dir + "/" + f.first + ": " + why;
      return false;
    }
  }
  return true;
}

} // namespace tune
} // namespace tcc
