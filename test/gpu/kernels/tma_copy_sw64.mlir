// tma_copy.mlir with a 64-byte swizzle (the slots of K steps of 32 f16): each program
// copies the 64 x 64 block (pid0 * 64, pid1 * 64) of the f16 matrix `a` (M x K, row stride
// `stride`) into shared memory with two bulk tensor copies of 64 rows x 32 columns (the
// 64-byte swizzle's atoms), waits on the
// mbarrier, reads the block back and stores it, masked, into `out` (same shape and
// stride). Rows and columns past M and K come in as zeros and are not stored. The
// mbarrier is invalidated once every thread has waited on it.
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #tile.slice<{dim = 1, parent = #blocked}>
#col = #tile.slice<{dim = 0, parent = #blocked}>
#s = #tile.nvmma_shared<{swizzle = 64, order = [1, 0]}>
#bar = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
module {
  func.func @tma_copy(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                      %out: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                      %M: i32, %K: i32, %stride: i32 {tile.divisibility = 16 : i32},
                      %desc: !tile.tensormap<[64, 32], f16, swizzle = 64>
                          {tile.tensormap = {param = "a", dims = ["K", "M"], strides_bytes = ["stride * 2"]}})
      attributes {tile.kernel, tile.num_warps = 4 : i32,
                  tile.arg_names = ["a", "out", "M", "K", "stride", "a_map"],
                  tile.grid = ["cdiv(M, 64)", "cdiv(K, 64)", "1"]} {
    %pm = tile.program_id 0
    %pk = tile.program_id 1
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %row0 = arith.muli %pm, %c64 : i32
    %col0 = arith.muli %pk, %c64 : i32
    %bar = tile.local_alloc -> !tile.smem<1xi64, #bar>
    tile.mbarrier_init %bar {count = 1 : i32} : !tile.smem<1xi64, #bar>
    %t = tile.local_alloc -> !tile.smem<64x64xf16, #s>
    tile.mbarrier_expect %bar {bytes = 8192 : i32} : !tile.smem<1xi64, #bar>
    tile.tma_load %desc[%row0, %col0], %t, %bar : !tile.tensormap<[64, 32], f16, swizzle = 64>, !tile.smem<64x64xf16, #s>, !tile.smem<1xi64, #bar>
    tile.mbarrier_wait %bar, %c0 : !tile.smem<1xi64, #bar>
    %v = tile.local_load %t : !tile.smem<64x64xf16, #s> -> tensor<64x64xf16, #blocked>
    tile.mbarrier_inval %bar : !tile.smem<1xi64, #bar>
    %ri = tile.make_range 0 to 64 : tensor<64xi32, #row>
    %ci = tile.make_range 0 to 64 : tensor<64xi32, #col>
    %rs = tile.splat %row0 : i32 -> tensor<64xi32, #row>
    %cs = tile.splat %col0 : i32 -> tensor<64xi32, #col>
    %r = arith.addi %rs, %ri : tensor<64xi32, #row>
    %c = arith.addi %cs, %ci : tensor<64xi32, #col>
    %r2 = tile.expand_dims %r, 1 : tensor<64xi32, #row> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c, 0 : tensor<64xi32, #col> -> tensor<1x64xi32, #blocked>
    %st = tile.splat %stride : i32 -> tensor<64x1xi32, #blocked>
    %ro = arith.muli %r2, %st : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %ro : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %ob = tile.splat %out : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %op = tile.addptr %ob, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %Ms = tile.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %Ks = tile.splat %K : i32 -> tensor<1x64xi32, #blocked>
    %mm = arith.cmpi slt, %r2, %Ms : tensor<64x1xi32, #blocked>
    %mk = arith.cmpi slt, %c2, %Ks : tensor<1x64xi32, #blocked>
    %mmb = tile.broadcast %mm : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %mkb = tile.broadcast %mk : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %mask = arith.andi %mmb, %mkb : tensor<64x64xi1, #blocked>
    tile.store %op, %v, mask %mask : tensor<64x64x!tile.ptr<f16>, #blocked>
    return
  }
}
