// A wgmma in tile IR, for the check that tcc refuses it on a target without wgmma.
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
module {
  func.func @k() attributes {tile.kernel, tile.num_warps = 4 : i32, tile.arg_names = [], tile.grid = ["1", "1", "1"]} {
    %acc = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %a = tile.local_alloc -> !tile.smem<64x64xf16, #s>
    %b = tile.local_alloc -> !tile.smem<64x64xf16, #s>
    %d = tile.warpgroup_dot %a, %b, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    return
  }
}
