//===- Npy.cpp - NumPy .npy files -----------------------------------------===//

#include "compiler/Interpreter/Npy.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace tcc::interp {
namespace {

const char kMagic[] = "\x93NUMPY";

/// The value of `key` in the header dictionary: the text after "'key':" up to the next
/// top-level comma or closing brace.
bool headerField(const std::string &header, const std::string &key, std::string *value) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    at = header.find("\"" + key + "\"");
  if (at == std::string::npos)
    return false;
  at = header.find(':', at);
  if (at == std::string::npos)
    return false;
  ++at;
  int depth = 0;
  size_t end = at;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      break;
  }
  std::string v = header.substr(at, end - at);
  size_t b = v.find_first_not_of(" \t"), e = v.find_last_not_of(" \t");
  *value = b == std::string::npos ? "" : v.substr(b, e - b + 1);
  return true;
}

bool descrToDType(std::string descr, DType *t, std::string *error) {
  if (descr.size() >= 2 && (descr.front() == '\'' || descr.front() == '"'))
    descr = descr.substr(1, descr.size() - 2);
  if (descr.size() < 3) {
    *error = "unsupported dtype '" + descr + "'";
    return false;
  }
  char order = descr[0];
  std::string kind = descr.substr(1);
  if (order == '>' && kind != "b1" && kind != "i1" && kind != "u1") {
    *error = "big-endian data ('" + descr + "') is not supported";
    return false;
  }
  static const struct {
    const char *kind;
    DType t;
  } table[] = {{"b1", DType::I1},  {"i1", DType::I8},  {"u1", DType::I8},  {"i2", DType::I16},
               {"u2", DType::I16}, {"i4", DType::I32}, {"u4", DType::I32}, {"i8", DType::I64},
               {"u8", DType::I64}, {"f2", DType::F16}, {"f4", DType::F32}, {"f8", DType::F64}};
  for (const auto &e : table)
    if (kind == e.kind) {
      *t = e.t;
      return true;
    }
  *error = "unsupported dtype '" + descr + "'";
  return false;
}

const char *dtypeToDescr(DType t) {
  switch (t) {
  case DType::I1:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::F16:
    return "<f2";
  case DType::F64:
    return "<f8";
  default:
    return "<f4"; // f32, and bf16 widened
  }
}

bool parseShape(const std::string &text, std::vector<int64_t> *shape) {
  shape->clear();
  size_t i = text.find('(');
  if (i == std::string::npos)
    return false;
  ++i;
  while (i < text.size() && text[i] != ')') {
    if (text[i] == ' ' || text[i] == ',') {
      ++i;
      continue;
    }
    if (text[i] < '0' || text[i] > '9')
      return false;
    int64_t v = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (v > (INT64_MAX - 9) / 10)
        return false; // an extent no buffer can have
      v = v * 10 + (text[i++] - '0');
    }
    shape->push_back(v);
  }
  return i < text.size();
}

} // namespace

bool parseNpy(const std::string &bytes, const std::string &name, Buffer *out, std::string *error,
              uint64_t *fileBytes) {
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic) != 0) {
    *error = "not a .npy file (bad magic)";
    return false;
  }
  unsigned major = uint8_t(bytes[6]);
  size_t headerLen, headerAt;
  if (major == 1) {
    headerLen = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8;
    headerAt = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      *error = "truncated .npy header";
      return false;
    }
    headerLen = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8 |
                size_t(uint8_t(bytes[10])) << 16 | size_t(uint8_t(bytes[11])) << 24;
    headerAt = 12;
  } else {
    *error = ".npy version " + std::to_string(major) + " is not supported";
    return false;
  }
  if (bytes.size() < headerAt + headerLen) {
    *error = "truncated .npy header";
    return false;
  }
  std::string header = bytes.substr(headerAt, headerLen);
  std::string descr, fortran, shapeText;
  if (!headerField(header, "descr", &descr) || !headerField(header, "fortran_order", &fortran) ||
      !headerField(header, "shape", &shapeText)) {
    *error = "malformed .npy header: " + header;
    return false;
  }
  DType t;
  if (!descrToDType(descr, &t, error))
    return false;
  std::vector<int64_t> shape;
  if (!parseShape(shapeText, &shape)) {
    *error = "malformed .npy shape " + shapeText;
    return false;
  }
  // The header's claim is checked against the limit and the file before anything is
  // allocated: a short file cannot make the interpreter allocate what it claims.
  int64_t count = 0;
  if (!checkShape(shape, dtypeSize(t), &count, error))
    return false;
  size_t dataAt = headerAt + headerLen;
  uint64_t need = uint64_t(count) * dtypeSize(t);
  if (fileBytes)
    *fileBytes = dataAt + need;
  if (bytes.size() - dataAt < need) {
    *error = "truncated .npy data: the header's shape " + shapeString(shape) + " needs " +
             std::to_string(need) + " bytes, the file has " + std::to_string(bytes.size() - dataAt);
    return false;
  }
  Buffer b = makeBuffer(name, t, shape, true);
  const unsigned char *src = reinterpret_cast<const unsigned char *>(bytes.data()) + dataAt;
  size_t es = b.elementSize();
  if (fortran == "True" && shape.size() > 1) {
    // Element with C index (i0, ..., in) sits at Fortran offset sum(ik * prod(shape[:k])).
    size_t rank = shape.size();
    std::vector<int64_t> idx(rank, 0);
    for (int64_t lin = 0; lin < b.numel(); ++lin) {
      int64_t f = 0, stride = 1;
      for (size_t k = 0; k < rank; ++k) {
        f += idx[k] * stride;
        stride *= shape[k];
      }
      std::memcpy(b.bytes.data() + size_t(lin) * es, src + size_t(f) * es, es);
      for (size_t k = rank; k-- > 0;) {
        if (++idx[k] < shape[k])
          break;
        idx[k] = 0;
      }
    }
  } else if (!b.bytes.empty()) { // an empty buffer's data() may be null: no memcpy then
    std::memcpy(b.bytes.data(), src, b.bytes.size());
  }
  if (t == DType::I1)
    for (uint8_t &v : b.bytes)
      v = v ? 1 : 0;
  *out = std::move(b);
  return true;
}

bool readNpy(const std::string &path, const std::string &name, Buffer *out, std::string *error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot open '" + path + "'";
    return false;
  }
  // Read what the header says the file holds (a shape it may claim is checked first), so
  // that /dev/zero or a pipe cannot make the interpreter read forever or allocate what a
  // short file claims: first a prefix that holds any sane header, then the rest.
  auto readUpTo = [&](std::string *bytes, uint64_t total) {
    char chunk[1 << 16];
    while (bytes->size() < total) {
      size_t want = size_t(std::min<uint64_t>(sizeof chunk, total - bytes->size()));
      in.read(chunk, std::streamsize(want));
      if (in.gcount() <= 0)
        break;
      bytes->append(chunk, size_t(in.gcount()));
    }
  };
  std::string bytes, err;
  readUpTo(&bytes, 1u << 20);
  uint64_t total = 0;
  if (parseNpy(bytes, name, out, &err, &total))
    return true;
  if (total > bytes.size()) { // a valid header: the data goes past the prefix
    readUpTo(&bytes, total);
    err.clear();
    if (parseNpy(bytes, name, out, &err))
      return true;
  }
  *error = path + ": " + err;
  return false;
}

std::string encodeNpy(const Buffer &buffer) {
  std::string shape = "(";
  for (size_t i = 0; i < buffer.shape.size(); ++i)
    shape += std::to_string(buffer.shape[i]) + (buffer.shape.size() == 1 ? "," : i + 1 < buffer.shape.size() ? ", " : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + dtypeToDescr(buffer.dtype) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, 6);
  out += char(1);
  out += char(0);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  out += header;
  if (buffer.dtype == DType::BF16) {
    for (int64_t i = 0; i < buffer.numel(); ++i) {
      uint16_t h;
      std::memcpy(&h, buffer.bytes.data() + 2 * i, 2);
      float f = bhalfToFloat(h);
      out.append(reinterpret_cast<const char *>(&f), 4);
    }
  } else if (buffer.dtype == DType::I1) {
    // NumPy's booleans are the bytes 0 and 1; an unwritten element holds the poison 0xff.
    for (uint8_t v : buffer.bytes)
      out += char(v ? 1 : 0);
  } else {
    out.append(reinterpret_cast<const char *>(buffer.bytes.data()), buffer.bytes.size());
  }
  return out;
}

bool writeNpy(const std::string &path, const Buffer &buffer, std::string *error) {
  std::ofstream f(path, std::ios::binary);
  std::string data = encodeNpy(buffer);
  if (!f || !f.write(data.data(), std::streamsize(data.size()))) {
    *error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

} // namespace tcc::interp
