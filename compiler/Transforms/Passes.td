//===- Passes.td - tcc's tile-level passes -------------------*- tablegen -*-===//
//
// Every pass of the project is declared here; tile-opt and tcc register them all.
// Passes are named <dialect>-<verb> and each is tested alone through tile-opt.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TRANSFORMS_PASSES_TD
#define TCC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileDropHints : Pass<"tile-drop-hints", "::mlir::ModuleOp"> {
  let summary = "folds tile.hint ops away once the analyses no longer need them";
  let description = [{
    `tile.hint` only informs AxisInfo. After the passes that read it have run, each hint
    is replaced by its operand so that later stages see plain values (a rewrite pattern
    the greedy driver applies to the hints alone).
  }];
}

def TileAssignLayouts : Pass<"tile-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "gives every tile of every kernel a distribution layout";
  let description = [{
    The first GPU pass. Sources (make_range, splat, constants) get the kernel's default
    blocked layout for their rank (one thread per element along the last dimension
    first, then warps; see docs/layouts.md); every other op takes the layout of its
    operands, converting those that differ (`tile.convert_layout`). A reduction's result
    is its source's layout sliced along the reduced axis; `expand_dims` of a slice gets
    the slice's parent; a load its pointers' layout. scf.for iteration arguments and
    results, and scf.if results, take the layout of what flows in. Function signatures
    stay as they are: kernels take scalars and pointers. `tile-remove-layout-conversions`
    cleans up the conversions this inserts.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"0",
           "warps per program (0: each kernel's tile.num_warps, else 4)">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileCoalesce : Pass<"tile-coalesce", "::mlir::ModuleOp"> {
  let summary = "lays out each load and store so that warps access memory coalesced";
  let description = [{
    For each load and store of a tile, AxisInfo of its pointers decides the layout:
    `order` lists the dimensions by decreasing contiguity (ties keep the current order),
    and each thread owns sizePerThread = min(16 bytes / element size, contiguity,
    alignment, elements / threads) consecutive elements along order[0], so that a thread
    moves up to 16 bytes at once and consecutive lanes cover consecutive addresses.
    Operands and results are converted (`tile.convert_layout`) to and from that layout;
    `tile-remove-layout-conversions` then removes the conversions it can.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileRemoveLayoutConversions
    : Pass<"tile-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "removes layout conversions that re-creating or re-laying out values avoids";
  let description = [{
    Repeats, until nothing changes: (0) the canonicalisation of tile.convert_layout, its
    folds and patterns applied by the greedy driver to the conversions: a conversion of a
    conversion converts the original value, one to the source's own layout goes, one of a
    splat, make_range or dense constant is that op in the new layout; (1) a conversion of
    a value that is cheap to compute
    (splat, make_range, constants, and element-wise ops, broadcasts, expand_dims and
    addptrs of such values) is replaced by a copy of that computation in the target
    layout, converting its inputs that cannot be re-created when they hold fewer
    elements (a row before its broadcast); (2) a conversion whose result feeds
    element-wise ops, broadcasts, reductions, expand_dims of slices and loop-carried
    values is removed by giving all of those the source layout instead (or a converted
    loop-carried value the target layout), when that needs fewer conversions, weighted by
    loop depth, than it removes.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileAccelerateDot : Pass<"tile-accelerate-dot", "::mlir::ModuleOp"> {
  let summary = "puts tile.dot on tensor cores: MMA layouts, shared-memory operands";
  let description = [{
    For each `tile.dot`, from the module's `#tile.target` and the operand types: on sm_90a
    with f16/bf16 operands, 4k warps and at least 64 rows, wgmma: both operands are stored
    to shared memory (`tile.local_alloc`, `#tile.nvmma_shared` with the widest hardware
    swizzle, rows along the operand's registers) and the dot becomes
    `tile.warpgroup_dot` + `tile.warpgroup_dot_wait`, its accumulator a version-3
    `#tile.mma` (warpgroups along M first, instruction N the warps' share of N up to
    256). Elsewhere on sm_80+, mma.sync: operands go through shared memory into
    `#tile.dot_operand` fragments (`tile.local_load`) and the accumulator is a version-2
    `#tile.mma` (m16n8k16; tf32 m16n8k8 for f32 inputs), warps split to keep warp tiles
    square; the swizzle is the one with the fewest simulated bank conflicts for the
    stores and the ldmatrix reads. f32 dots with `input_precision = "ieee"`, dots
    smaller than one instruction and targets below sm_80 stay on CUDA cores.
    Conversions to and from the old accumulator layout keep other ops unchanged.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TilePipeline : Pass<"tile-pipeline", "::mlir::ModuleOp"> {
  let summary = "software-pipelines loops that feed tensor-core dots through async copy rings";
  let description = [{
    In an `scf.for` whose body stores loaded tiles to shared memory for a dot
    (`tile.local_alloc` of a `tile.load`), each such load becomes `tile.async_copy`
    (cp.async, 4 to 16 bytes per instruction, masked elements zero-filled) into a ring
    of `num_stages` shared tiles: a prologue issues the first iterations' copies, each
    iteration waits for its own (`tile.async_wait`), issues the copies of iteration
    i + num_stages - 1 into the slot iteration i - 1 read, and computes; masks keep
    copies of iterations past the end from reading memory. With wgmma the product of
    iteration i stays in flight while the next is issued (`tile.warpgroup_dot_wait
    {pending = 1}` in the loop, 0 after it), and the copies follow that wait, which has
    retired the product that read their slot. The number of stages comes from
    `range(..., num_stages=)` (`tile.num_stages` on the loop), else the kernel's
    `tile.num_stages`, else the pass option. A load is left alone when its addresses
    depend on loop-carried values other than the induction variable and pointers advanced
    by a fixed increment, when `other` is not zero, or when its vector width is below 4
    bytes.

    With `tma` (set by tcc unless --no-tma), on sm_90a, in a wgmma loop not nested in another, a load a
    TMA tensor map describes (TmaAccess.h) with its base and outer strides 16-byte aligned
    in this variant is copied by `tile.tma_load` instead: the kernel gains a
    `!tile.tensormap` argument, the loop an mbarrier per slot (initialised before it,
    invalidated after it), waited on in the phase of the iteration's pass around the ring;
    copies are issued, under `scf.if`, only for iterations the loop has (docs/lowering.md).

    With `warp-specialize` (tcc --warp-specialize) as well, a loop whose every stream is
    copied by TMA, at the top level of its kernel, whose bounds and box coordinates
    scalar code without effects computes, gets a producer warpgroup: the kernel's body
    becomes a `tile.warp_specialize` whose producer region loops over the iterations
    issuing each one's copies once its slot's `empty` mbarrier says the consumers have
    handed it back, and whose consumer region is the kernel, its loop waiting on the
    slot's `full` mbarrier and arriving on `empty` (`tile.mbarrier_arrive`) once the
    products reading the slot have retired. No prologue, no barrier per iteration; the
    kernel gains `tile.producer_warps = 4`.

    With `multicast` (tcc --multicast) as well, the K loop of a persistent kernel's tile
    loop (tile-persistent, in grouped order), not warp-specialised, with products in
    flight, bounds the same for every tile and one TMA stream whose coordinates come from
    the tile's column alone (B of a GEMM) launches in clusters of two programs
    (`tile.cluster_size = 2`, the grid rounded up to even): where the tiles' rows are
    even in number (checked at run time: programs 2j and 2j + 1 then take tiles of one
    column in lockstep), each program copies half of that stream's boxes to both
    (`tile.tma_load ... multicast`), after waiting (`tile.mbarrier_wait {cluster}`) on a
    second ring of mbarriers on which the partner hands each slot back
    (`tile.mbarrier_arrive {peer}`) once its products have read it;
    `tile.cluster_sync` follows the barriers' initialisation and ends the loop nest.
    Warp-specialised (with `warp-specialize`, where the tile loop ends the kernel), the
    producers multicast instead: each slot's `empty` mbarrier counts both programs'
    consumer warps, which arrive on their own program's and, where multicasting, on the
    partner's (`{peer}`); cluster barriers follow the initialisation and the
    `tile.warp_specialize`, and the consumers never wait for the partner.

    With `ping-pong` (tcc --ping-pong) a warp-specialised K loop directly in a persistent
    kernel's tile loop, the last op of a kernel of 4 warps, whose bounds are the same for
    every tile, gets two consumer groups (`tile.consumer_groups = 2`): group `g`
    (`tile.consumer_group`) takes the program's tiles `g, g + 2, ...` (the tile loop from
    its lower bound plus `g` steps, by two steps), its ring count starting `g` tiles' K
    iterations in and advancing two tiles' a tile; a pair of mbarriers orders the groups'
    K loops in the program's tile order (group `g` waits on its own before its K loop and
    arrives on the other's after it), so that one group's epilogue runs under the other's
    K loop and the producer's single ring serves both.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
           "ring slots where neither the loop nor the kernel says">,
    Option<"tma", "tma", "bool", /*default=*/"false",
           "on sm_90a, copy with tile.tma_load the loads a tensor map describes (TmaAccess.h)">,
    Option<"warpSpecialize", "warp-specialize", "bool", /*default=*/"false",
           "with tma, give a loop whose streams are all TMA copies a producer warpgroup">,
    Option<"multicast", "multicast", "bool", /*default=*/"false",
           "with tma, launch a persistent GEMM in clusters of two programs that multicast "
           "the operand their tiles share">,
    Option<"pingPong", "ping-pong", "bool", /*default=*/"false",
           "with warp-specialize, two consumer warpgroups taking a persistent kernel's "
           "tiles in turn (one's epilogue under the other's K loop)">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect", "::mlir::arith::ArithDialect"];
}

def TilePersistent : Pass<"tile-persistent", "::mlir::ModuleOp"> {
  let summary = "runs an sm_90a dot kernel's programs as iterations of a persistent loop";
  let description = [{
    A kernel on sm_90a with a dot in a loop, a grid whose expressions name integer
    parameters only, and a body of one block is wrapped in
    `scf.for %t = program_id(0) to <tiles> step num_programs(0)`, `%t` (on a 1-D grid; on
    a 2-D or 3-D one, the coordinates taken apart from it) replacing the program ids and
    the grid's extents `num_programs` in the body; the grid becomes
    `min(num_sms * occupancy, <tiles>)`, the tiles in grouped order where the body splits
    the index into rows and columns. Each iteration is one of the original programs
    (tcc --persistent); tile-pipeline then keeps one ring across the tiles.

    With `all=false` (tcc's default, without --persistent or --no-persistent), only the
    kernels persistence is measured to pay for: a one-dimensional grid (GEMMs; tutorial
    06's attention on its 2-D grid lost 4-7 %), dot loops forming one loop nest (two side
    by side, the causal attention's, would each keep a ring live across the tiles), and
    no scheduling of its own tiles (`num_programs` read, a loop around a dot loop
    starting or striding from `program_id`, or a `while` around a dot starting from it,
    as Triton's tutorials 09 and 08).
  }];
  let options = [
    Option<"all", "all", "bool", /*default=*/"true",
           "every kernel it can take (tcc --persistent); false: a 1-D grid, one dot "
           "loop nest, no tile scheduling of its own (tcc's default)">,
  ];
  let dependentDialects = ["::mlir::tile::TileDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileSplitK : Pass<"tile-split-k", "::mlir::ModuleOp"> {
  let summary = "splits a GEMM's K loop over the programs of a cluster (split-K, sm_90)";
  let description = [{
    With `splits=N` (2, 4 or 8; tcc --split-k N), a kernel on sm_90 or sm_90a with a
    one-dimensional grid whose body holds one K loop with a dot (its accumulator starting
    at zero, other carried values advanced by a fixed increment and unused after it, no
    memory written before the loop or in it)
    launches N programs per tile in clusters of N (`tile.cluster_size`, the grid's x
    multiplied by N). Program `p` computes tile `p / N` (every `program_id(0)`;
    `num_programs(0)` divided by N) over its rank's share of the iterations
    (`cdiv(trips, N)` each, the carried values advanced to its first), the partial sums
    meet in rank 0 (`tile.cluster_reduce`, through distributed shared memory), and the
    rest of the kernel, the epilogue, runs in rank 0 only (`scf.if`). For shapes with
    fewer tiles than SMs and a long K (512 x 512 x 8192: 16 tiles of 128 x 128 on 132
    SMs). Kernels it cannot take keep their body; tile-persistent leaves the ones it
    took alone.
  }];
  let options = [
    Option<"splits", "splits", "unsigned", /*default=*/"1",
           "programs per tile (1: off; 2, 4 or 8)">,
  ];
  let dependentDialects = ["::mlir::tile::TileDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileTmaStore : Pass<"tile-tma-store", "::mlir::ModuleOp"> {
  let summary = "writes a kernel's result tile with TMA bulk tensor copies (sm_90a)";
  let description = [{
    A `tile.store` outside any loop of an sm_90a kernel whose pointers and mask a TMA
    tensor map describes (TmaAccess.h: a pointer argument plus one index per dimension
    times a stride, the last contiguous, masked by one bound per dimension), with the
    base and outer strides 16-byte aligned in this variant, of a 2-D tile of 2- or 4-byte
    elements whose rows are whole 128-byte swizzle atoms, becomes a `tile.local_alloc` of
    the stored value (taken before a `tile.convert_layout` that only served the store) into
    a 128-byte swizzled tile and a `tile.tma_store` of it: the kernel gains the tensor map
    as an argument (the output's extents and byte strides in the metadata), and the copies
    drop the elements outside the extents as the mask did (tcc --tma-store).
  }];
  let dependentDialects = ["::mlir::tile::TileDialect", "::mlir::arith::ArithDialect"];
}

def TileHoistLoads : Pass<"tile-hoist-loads", "::mlir::ModuleOp"> {
  let summary = "issues a small load that follows a dot loop before the loop";
  let description = [{
    A load after a loop that computes a tensor-core dot (matmul + bias: the bias row,
    loaded once the K loop is done) waits for global memory while the program has nothing
    else to do. Where its pointers, mask and `other` are computed from values available
    before the loop, nothing from the loop to the load writes global memory (only loads,
    shared-memory ops, copies, barriers and products; any store, atomic, assert or op of
    unknown effect keeps the load where it is) or is control flow other than a loop with a
    dot (which may wait for the data: a loop polling a flag), and a thread holds at most 128 bits of the
    result (the registers it occupies through the loop), the load and the pure ops
    computing its operands move before the first such loop: its latency then hides behind
    the loop.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TilePrefetch : Pass<"tile-prefetch", "::mlir::ModuleOp"> {
  let summary = "issues later iterations' loads ahead in loops without a dot";
  let description = [{
    In an `scf.for` without a tensor-core dot (a persistent kernel walking rows), a
    `tile.load` whose pointers, mask and `other` depend only on the induction variable and
    values from outside the loop is issued ahead of its iteration. Where a thread holds at
    most 16 of its elements (and the load has a mask), the load of iteration i + 1 is
    issued at the top of iteration i (masked off past the end), its result carried to the
    next iteration; the first is issued before the loop. Larger loads are staged through a
    ring of S shared-memory tiles (S the loop's stages, fewer where the target's shared
    memory does not hold them beside the loop's scratch, none below 2): `tile.async_copy`
    of iteration i + S - 1 during iteration i, `tile.async_wait` and `tile.local_load`
    where the load was (a select restores a non-zero `other`); the layout must have no
    replicas and 4-, 8- or 16-byte vectors, the swizzle is picked by the bank-conflict
    simulation. A load is left alone when a store in the loop writes through a pointer
    derived from the same kernel argument (or one the pass cannot trace), or when its
    address, mask or `other` depends on loop-carried values. On where the loop's
    `tile.num_stages`, else the kernel's, else the option, is at least 2.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
           "stages where neither the loop nor the kernel says (prefetching from 2)">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect", "::mlir::arith::ArithDialect"];
}

def TileMask : Pass<"tile-mask", "::mlir::ModuleOp"> {
  let summary = "drops masks proven all-true and sets each memory op's vector width";
  let description = [{
    A load or store whose mask AxisInfo proves true everywhere loses its mask (and
    `other`); a store whose mask is false everywhere is erased, and a load whose mask is
    false everywhere yields `other`. Every remaining load and store of a tile gets
    `vec`: the number of consecutive elements along its layout's order[0] that one
    thread accesses with one (predicated) instruction, min(sizePerThread, contiguity,
    alignment, mask constancy, 16 bytes / element size). Both are rewrite patterns
    the greedy driver applies to the loads and stores alone.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileCheckBounds : Pass<"tile-check-bounds", "::mlir::ModuleOp"> {
  let summary = "--check-bounds: masks off and records accesses outside their arguments";
  let description = [{
    The device-side memory checker (`tcc --check-bounds`). Every kernel gets hidden
    trailing parameters: one i64 per pointer parameter, the bytes valid from the pointer
    the caller passed (the runtime computes it from the allocation), then a
    `!tile.ptr<i32>` to a 40-byte error record. Every `tile.load`, `tile.store`,
    `tile.atomic_add` and `tile.async_copy` whose pointers trace back to a pointer
    parameter (through addptr, splat, broadcast, expand_dims, convert_layout, hint,
    select and loop-carried values advanced in scf.for) computes each element's byte
    offset from that parameter (`tile.ptr_offset`); the access's mask becomes
    `mask & 0 <= offset <= extent - element bytes`, and `tile.record_oob` records the
    first masked-in element outside it (source line and column, access kind, parameter,
    offset, program id). An access whose pointers cannot be traced is left unchecked and
    counted in the kernel's `tile.check_bounds_unchecked` (the metadata's "unchecked").
    The kernel gets `tile.check_bounds`. Runs before tile-mask (which then sees the new
    masks) and tile-prefetch/tile-pipeline (whose copies keep them).
  }];
  let dependentDialects = ["::mlir::tile::TileDialect", "::mlir::arith::ArithDialect"];
}

def TileSpecializeArguments : Pass<"tile-specialize-arguments", "::mlir::ModuleOp"> {
  let summary = "compiles a kernel variant under assumptions about its arguments";
  let description = [{
    The first pass of a variant's pipeline (--specialize, --specialize-all, --variants=auto).
    Each `assume` entry is `NAME=D` (a pointer D-byte aligned or an integer a multiple of D,
    D a power of two: the argument attribute `tile.divisibility = D`) or `NAME=eq1` (an
    integer equal to 1: `tile.equal_to = 1`, and every use of the argument replaced by the
    constant 1, so that AxisInfo and canonicalisation see a unit stride; the signature does
    not change). `all` first assumes every pointer 16-byte aligned and every i32/i64 a
    multiple of 16; `kernel` limits the pass to one kernel (default: every kernel). A name
    that is not a parameter, or an assumption of the wrong kind for its parameter, is an
    error located at the kernel.
  }];
  let options = [
    Option<"kernel", "kernel", "std::string", /*default=*/"\"\"",
           "the kernel to specialise (default: every kernel)">,
    ListOption<"assume", "assume", "std::string",
               "NAME=D or NAME=eq1 entries">,
    Option<"all", "all", "bool", /*default=*/"false",
           "every pointer 16-byte aligned, every i32/i64 a multiple of 16 (before `assume`)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileVersionSigns : Pass<"tile-version-signs", "::mlir::ModuleOp"> {
  let summary = "versions a kernel on the signs that `%` and `//` of its tiles need";
  let description = [{
    `%` and `//` truncate toward zero, so `(x + arange(0, 256)) % n` is contiguous in
    aligned groups only if x >= 0 and n > 0: a run that crosses zero folds back.
    AxisInfo proves that from integer ranges; when the signs come from scalars it cannot
    bound (`pid_n * BLOCK` where `pid_n` is computed through `min` and `//`, as in Triton's
    grouped matmul), the loads those tiles address get 1-element accesses.

    For each signed remainder or division of integer tiles whose runs (contiguity for
    `%`, constancy for `//`) would grow if the signs were known, the pass finds the
    scalars the dividend and divisor are built from (through splat, broadcast,
    expand_dims, hints, `+` and `*`); the dividend's must be >= 0, the divisor's >= 1. It
    moves the pure computation of those scalars to the top of the kernel and puts the
    rest of the kernel into `scf.if lo <= r <= 2^(w-2) for every scalar r`: the then
    branch is a copy in which each r is replaced by `minsi(maxsi(r, lo), 2^(w-2))` (equal
    to r there, but bounded for the integer-range analysis, so that no sum overflows), the
    else branch is the kernel as it was, its loops unpipelined (it runs only for inputs
    the condition rules out). The kernel is left unchanged unless AxisInfo,
    run again, finds longer runs in the then branch. Shared memory of the two branches is
    reused (tile-allocate-shared places by lifetime). The else branch keeps every input
    correct.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TileSplitMaskedLoops : Pass<"tile-split-masked-loops", "::mlir::ModuleOp"> {
  let summary = "splits a dot loop where its masks stop being true everywhere";
  let description = [{
    A loop over K that feeds a `tile.dot` masks its loads with `k * BK + arange(0, BK) < K`
    (or `arange(0, BK) < K - k * BK`): true for every element in every iteration but a
    partial last one, yet computed, and/or-ed into each copy's predicate, in all of them.

    For an `scf.for` with an i32 induction variable, a positive constant step and a
    `tile.dot` in its body (and no `tile.num_stages` of 1), the pass looks at the integer
    compares (`<`, `<=`, `>`, `>=`, signed) that the masks of the body's loads and stores are
    made of (through `&`, broadcast, expand_dims, convert_layout). A compare qualifies when
    each side is, through those shape ops, `splat(s)`, a range or constant tile, or their
    sum, with s an i32 built from the induction variable, constants and loop-invariant
    values by `+`, `-` and `*` by a constant, and when the difference of its sides'
    extremes decreases as the induction variable grows: it is then true everywhere in a
    prefix of the iterations. The pass computes, before the loop, where the first of them
    may fail (in i64; on the loop's lattice) and splits the loop there: the first loop has
    those compares replaced by constant true tiles (canonicalisation then drops the masks),
    the second, from the split on, is the loop as it was, carrying the first loop's
    results, with `tile.num_stages = 1` (unpipelined: a K loop's remainder is at most one
    iteration). The split is moved to the lower bound (everything runs in the second loop)
    unless each i32 addition and product that the compares' operands are made of is
    proven, at the first and last iterations of the first loop, not to wrap; they are
    monotonic in the induction variable, so that holds for every iteration between.

    With `tma` on an sm_90a target, a loop whose masked loads all have the form a TMA
    tensor map describes (TmaAccess.h) is not split: tile-pipeline copies them with bulk
    tensor copies, whose masks, the tensor map's extents, cost nothing.
  }];
  let options = [
    Option<"tma", "tma", "bool", /*default=*/"false",
           "keep whole the loops whose masked loads TMA can copy (sm_90a)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TestPrintInnerStrides : Pass<"test-print-inner-strides", "::mlir::ModuleOp"> {
  let summary = "(test) reports each kernel's inner-stride arguments as a remark";
  let description = [{
    For lit tests of compiler/Analysis/InnerStrides: one remark per kernel, `inner strides:
    NAME, ...` (or `none`), the arguments --variants=auto compiles a unit-stride variant for.
  }];
}

def TestPrintVariants : Pass<"test-print-variants", "::mlir::ModuleOp"> {
  let summary = "(test) reports the argument assumptions of each kernel's --variants=auto variants";
  let description = [{
    For lit tests of deriveArgumentVariants (SpecializeArguments.h): one remark per kernel,
    `variants: general | x%16, n%16 | ...`, most general first.
  }];
  // deriveArgumentVariants versions its probes (tile-version-signs).
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TestPrintAxisInfo : Pass<"test-print-axis-info", "::mlir::ModuleOp"> {
  let summary = "(test) reports AxisInfo of every integer and pointer value as remarks";
  let description = [{
    For lit tests of AxisInfo: a remark on each op for its result, on each function for
    its arguments (`arg #i: ...`) and on each scf.for for its induction variable and
    iteration arguments.
  }];
}

#endif // TCC_TRANSFORMS_PASSES_TD
