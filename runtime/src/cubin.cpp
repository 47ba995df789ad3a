#include "tcc/cubin.h"

#include <cstdint>
#include <cstring>
#include <string_view>

namespace tcc {

ImageInfo inspectImage(const void* data, size_t size) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  ImageInfo info;
  if (size >= 64 && std::memcmp(p, "\x7f" "ELF", 4) == 0) {
    // ELF64 little-endian with e_machine EM_CUDA (190).
    uint16_t machine = static_cast<uint16_t>(p[18] | (p[19] << 8));
    if (p[4] != 2 || p[5] != 1 || machine != 190)
      return info;
    // A cubin holds its section header table (e_shoff, e_shentsize, e_shnum) within the
    // image: a bare ELF header, or a truncated file, is not one.
    uint64_t shoff = 0;
    for (int i = 7; i >= 0; --i)
      shoff = (shoff << 8) | p[40 + i];
    uint16_t shentsize = static_cast<uint16_t>(p[58] | (p[59] << 8));
    uint16_t shnum = static_cast<uint16_t>(p[60] | (p[61] << 8));
    if (shnum == 0 || shentsize < 64 || shoff < 64 || shoff > size ||
        uint64_t(shnum) * shentsize > size - shoff)
      return info;
    info.kind = ImageKind::Cubin;
    uint32_t flags = static_cast<uint32_t>(p[48]) | (static_cast<uint32_t>(p[49]) << 8) |
                     (static_cast<uint32_t>(p[50]) << 16) | (static_cast<uint32_t>(p[51]) << 24);
    unsigned abiVersion = p[8];
    // ABI version 8 (CUDA 13) keeps the SM number in bits 8..15 of e_flags; earlier versions
    // in bits 0..7 (e.g. 0x5a055a for sm_90).
    info.arch = static_cast<int>(abiVersion >= 8 ? (flags >> 8) & 0xff : flags & 0xff);
    return info;
  }
  if (size >= 4) {
    uint32_t magic = static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
                     (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
    if (magic == 0xBA55ED50u) {
      info.kind = ImageKind::Fatbin;
      return info;
    }
  }
  // PTX is text: skip whitespace and comments, look for a directive.
  size_t i = 0;
  while (i < size) {
    char c = static_cast<char>(p[i]);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (c == '/' && i + 1 < size && p[i + 1] == '/') {
      while (i < size && p[i] != '\n')
        ++i;
    } else {
      break;
    }
  }
  if (i < size && p[i] == '.')
    info.kind = ImageKind::Ptx;
  return info;
}

std::string archName(int arch) { return "sm_" + std::to_string(arch); }

bool cubinRunsOn(int cubinArch, bool archSpecific, int deviceArch) {
  if (archSpecific)
    return cubinArch == deviceArch;
  return cubinArch / 10 == deviceArch / 10 && deviceArch % 10 >= cubinArch % 10;
}

bool ptxRunsOn(int ptxArch, bool archSpecific, int deviceArch) {
  if (archSpecific)
    return ptxArch == deviceArch;
  return ptxArch <= deviceArch;
}

LoadRank loadRank(int arch, bool archSpecific, bool hasCubin, bool hasPtx, int deviceArch) {
  if (hasCubin && arch == deviceArch)
    return LoadRank::ExactCubin;
  if (hasCubin && cubinRunsOn(arch, archSpecific, deviceArch))
    return LoadRank::CompatibleCubin;
  if (hasPtx && ptxRunsOn(arch, archSpecific, deviceArch))
    return LoadRank::PtxJit;
  return LoadRank::CannotRun;
}

int ptxTarget(const void* data, size_t size, bool* archSpecific) {
  const char* p = static_cast<const char*>(data);
  std::string_view text(p, size);
  if (archSpecific)
    *archSpecific = false;
  // The first ".target" directive at the start of a line (after optional blanks).
  for (size_t pos = 0; (pos = text.find(".target", pos)) != std::string::npos; pos += 7) {
    size_t b = pos;
    while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t'))
      --b;
    if (b > 0 && text[b - 1] != '\n')
      continue;
    size_t i = pos + 7;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
      ++i;
    if (text.compare(i, 3, "sm_") != 0)
      return 0;
    i += 3;
    // Architectures have two or three digits: a longer number names none (and would
    // overflow an int), and is read as no target at all.
    int arch = 0, digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (++digits > 6)
        return 0;
      arch = arch * 10 + (text[i++] - '0');
    }
    if (archSpecific && i < text.size() && text[i] == 'a')
      *archSpecific = true;
    return arch;
  }
  return 0;
}

} // namespace tcc
