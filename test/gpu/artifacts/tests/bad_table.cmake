# A table with one entry tcc rejects (build_test.cmake): building it must fail.
tcc_artifact(tcc/bad/W4/bad.cubin SOURCE test/gpu/artifacts/tests/bad.tile)
