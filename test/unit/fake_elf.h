// A minimal CUDA ELF image for the runtime's tests: the ELF header (64-bit, little-endian,
// e_machine EM_CUDA unless told otherwise, the given ABI version and e_flags), one empty
// section header right after it (tcc::inspectImage wants the section header table inside
// the image), then `body`.
#pragma once

#include <cstdint>
#include <string>

namespace faketest {

inline std::string cudaElf(unsigned abi, uint32_t flags, const std::string& body = "",
                           uint16_t machine = 190) {
  std::string h(128, '\0');
  h[0] = 0x7f, h[1] = 'E', h[2] = 'L', h[3] = 'F';
  h[4] = 2; // 64-bit
  h[5] = 1; // little-endian
  h[7] = 0x41;
  h[8] = static_cast<char>(abi);
  h[18] = static_cast<char>(machine & 0xff);
  h[19] = static_cast<char>(machine >> 8);
  h[40] = 64; // e_shoff: the section headers follow the ELF header
  for (int i = 0; i < 4; ++i)
    h[48 + i] = static_cast<char>((flags >> (8 * i)) & 0xff);
  h[58] = 64; // e_shentsize
  h[60] = 1;  // e_shnum
  return h + body;
}

} // namespace faketest
