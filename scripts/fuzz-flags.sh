#!/usr/bin/env bash
# The libFuzzer flags of one target (scripts/fuzz.sh, scripts/test-sanitizers.sh): the time
# one input may take and the longest input worth trying.
case "$1" in
  frontend) echo "-timeout=10 -max_len=4096" ;;
  # A kernel through the whole pipeline takes up to a few seconds under the sanitizers; the
  # longest examples are about 5 KiB.
  pipeline) echo "-timeout=30 -max_len=8192" ;;
  # A size taken from the input and allocated before it is checked is a finding.
  interpreter-args) echo "-timeout=10 -max_len=4096 -malloc_limit_mb=512" ;;
  # Metadata and images are larger than kernels.
  runtime) echo "-timeout=10 -max_len=16384 -malloc_limit_mb=512" ;;
  *) echo "fuzz-flags.sh: unknown target '$1'" >&2; exit 2 ;;
esac
