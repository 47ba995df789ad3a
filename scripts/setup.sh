#!/usr/bin/env bash
# Installs everything tcc needs on a Debian 12 machine, from Debian's own package archive.
# Idempotent: when every package is already present it only checks, which takes a second.
# The CUDA toolkit (ptxas, cuda.h) is looked for at $CUDA_HOME or /usr/local/cuda, never installed.
set -euo pipefail

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libzstd-dev libcli11-dev
          libgtest-dev ccache ninja-build make cmake g++ python3)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # LLVM 22 lives in apt.llvm.org's repository on older Debian releases; on this
  # workplace's mirror it is in the main archive. Either way apt finds it after an update.
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all ${#packages[@]} packages present"
fi

cuda="${CUDA_HOME:-/usr/local/cuda}"
if [ -x "$cuda/bin/ptxas" ]; then
  echo "setup: CUDA toolkit found at $cuda ($("$cuda/bin/ptxas" --version | tail -1))"
else
  echo "setup: no CUDA toolkit at $cuda (ptxas missing): tcc builds and emits PTX, but cannot"
  echo "       assemble cubins; set CUDA_HOME to a toolkit to enable --emit=cubin."
fi
