//! Kernel 26 on the CPU: a batch or groups of products ([`tessera_catalogue::plan::grouped`]),
//! planned as the host plans them and launched with the host model's 3-D tensor maps.
use tessera_catalogue::plan::grouped::{plan, BufferLens, Products, ProductsLaunch, ProductsPlan};
use tessera_catalogue::registry::grouped::GroupedAlgo;
use tessera_catalogue::registry::tma::TmaOperand;
use tessera_catalogue::{Precision, Target};
use tessera_kernels::device::tma::TensorMap;

use crate::error::EmuError;
use crate::{launch, Launch, SyncPtr};

/// Runs `products` in `precision` (BF16 or FP16: `a` and `b` hold the inputs' bit patterns, each
/// buffer laid out as the products' stacks say) into `c` on the H200's plan with `algo`, and returns
/// the plan. As on the GPU: only the products' outputs are written (`K = 0`: zeros); nothing is
/// launched for no outputs; a plan error is an [`EmuError::InvalidLaunch`].
pub fn matmul_products(
    products: Products<'_>,
    precision: Precision,
    algo: GroupedAlgo,
    a: &[u16],
    b: &[u16],
    c: &mut [f32],
) -> Result<ProductsPlan, EmuError> {
    let lens = BufferLens { a: a.len(), b: b.len(), c: c.len() };
    let planned = plan(products, lens, precision, algo, Target::H200)
        .map_err(|e| EmuError::InvalidLaunch { kernel: "matmul_grouped", detail: e.to_string() })?;
    match &planned {
        ProductsPlan::Nothing => {}
        ProductsPlan::Zero => zero_outputs(products, c),
        ProductsPlan::Launch(l) => run(l, products, a, b, c)?,
    }
    Ok(planned)
}

/// `K = 0`: every product's output set to zero, as the host's memsets do.
fn zero_outputs(products: Products<'_>, c: &mut [f32]) {
    match products {
        Products::Batched { c: s, .. } => {
            for i in 0..s.count {
                c[i * s.stride..i * s.stride + s.rows * s.cols].fill(0.0);
            }
        }
        Products::Grouped { b, offsets, .. } => {
            let (first, last) = (offsets.first().copied().unwrap_or(0) as usize, offsets.last().copied().unwrap_or(0) as usize);
            c[first * b.cols..last * b.cols].fill(0.0)
        }
    }
}

fn run(l: &ProductsLaunch, products: Products<'_>, a: &[u16], b: &[u16], c: &mut [f32]) -> Result<(), EmuError> {
    let map = |op: &TmaOperand, base: *const u8| {
        let layers = op.layers.map_or((1, 0), |s| (s.count, s.stride));
        TensorMap::host_model_3d(base, op.elem_bytes, [op.dims[0], op.dims[1], layers.0], [op.row_stride, layers.1], op.boxdim, true)
    };
    let (map_a, map_b) = (map(&l.maps[0], a.as_ptr().cast()), map(&l.maps[1], b.as_ptr().cast()));
    let (pa, pb) = (SyncPtr::from_const(&map_a as *const TensorMap), SyncPtr::from_const(&map_b as *const TensorMap));
    let offsets: Vec<u32> = match products {
        Products::Grouped { offsets, .. } => offsets.to_vec(),
        Products::Batched { .. } => Vec::new(),
    };
    let po = SyncPtr::from_const(if offsets.is_empty() { std::ptr::null() } else { offsets.as_ptr() });
    let pc = SyncPtr::new(c.as_mut_ptr());
    let (host, entry) = (l.kernel.host, l.kernel.entry);
    let (m, n, k, count, c_stride) = (l.m, l.n, l.k, l.count, l.c_stride);
    let (a_batched, b_batched) = (u32::from(l.a_batched), u32::from(l.b_batched));
    launch(entry, Launch::from(l.launch), || {
        // SAFETY: the plan checked the stacks against the buffers' lengths and the offsets (`count + 1`
        // of them, non-decreasing, the last within A's rows); the maps describe `a` and `b` as the
        // plan's stacks, all alive until the launch returns; the launch is the kernel's own.
        unsafe { host(pa.get(), pb.get(), pc.get(), m, n, k, po.get(), count, a_batched, b_batched, c_stride) }
    })
}
