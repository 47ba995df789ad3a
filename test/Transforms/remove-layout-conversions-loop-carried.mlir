// RUN: tile-opt %s -tile-remove-layout-conversions | FileCheck %s

// Flash attention's running maximum (issue 13's crash): a loop-carried row vector is
// broadcast against a dot's result, so the conversion of the broadcast row is
// re-created from the carried value, which cannot itself be re-created (it is a block
// argument): it must be converted, not cloned. This used to dereference the block
// argument's missing defining op.

#R = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#D = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#SB = #tile.slice<{dim = 1, parent = #B}>
#SD = #tile.slice<{dim = 1, parent = #D}>

// CHECK-LABEL: func.func @running_max
// CHECK: scf.for {{.*}} iter_args(%[[M:.*]] = %{{.*}}) -> (tensor<64xf32, #[[SD:.*]]>)
// CHECK:   %[[E:.*]] = tile.expand_dims %[[M]], 1 : tensor<64xf32, #[[SD]]> -> tensor<64x1xf32, #[[D:.*]]>
// CHECK:   %[[BC:.*]] = tile.broadcast %[[E]] : tensor<64x1xf32, #[[D]]> -> tensor<64x64xf32, #[[D]]>
// CHECK:   %[[S:.*]] = arith.subf %{{.*}}, %[[BC]] : tensor<64x64xf32, #[[D]]>
// CHECK:   %[[R:.*]] = tile.reduce max %[[S]], axis 1
// CHECK:   scf.yield %[[R]] : tensor<64xf32, #[[SD]]>
// CHECK-NOT: tile.convert_layout {{.*}} -> tensor<64x64xf32
func.func @running_max(%a: tensor<64x64xf16, #B>, %b: tensor<64x64xf16, #B>, %init: tensor<64xf32, #R>, %n: i32) -> tensor<64xf32, #R> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %init) -> (tensor<64xf32, #R>) : i32 {
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #B>
    %zd = tile.convert_layout %z : tensor<64x64xf32, #B> -> tensor<64x64xf32, #D>
    %qk = tile.dot %a, %b, %zd : tensor<64x64xf16, #B>, tensor<64x64xf16, #B> -> tensor<64x64xf32, #D>
    %ms = tile.convert_layout %m : tensor<64xf32, #R> -> tensor<64xf32, #SB>
    %me = tile.expand_dims %ms, 1 : tensor<64xf32, #SB> -> tensor<64x1xf32, #B>
    %mb = tile.broadcast %me : tensor<64x1xf32, #B> -> tensor<64x64xf32, #B>
    %md = tile.convert_layout %mb : tensor<64x64xf32, #B> -> tensor<64x64xf32, #D>
    %s = arith.subf %qk, %md : tensor<64x64xf32, #D>
    %mx = tile.reduce max %s, axis 1 : tensor<64x64xf32, #D> -> tensor<64xf32, #SD>
    %mr = tile.convert_layout %mx : tensor<64xf32, #SD> -> tensor<64xf32, #R>
    scf.yield %mr : tensor<64xf32, #R>
  }
  return %r : tensor<64xf32, #R>
}
