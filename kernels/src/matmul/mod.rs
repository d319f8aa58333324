//! The matmul ladder: `C = A · B` for row-major f32 matrices, `A` is M×K, `B` is K×N, `C` is M×N.
//!
//! One kernel per file, numbered along the ladder; each file's doc says what it fixes in the one before.
//! Global reads are counted for M = N = K = 1024 (the seed's example), in floats loaded by all threads.
//! `tile_io` holds the vectorized / guarded tile movement kernels 5–8 share.
pub mod k01_naive;
pub mod k02_tiled;
pub mod k03_blocktile_1d;
pub mod k04_blocktile_2d;
pub mod k05_vectorized;
pub mod k06_conflict_free;
pub mod k07_warptile;
pub mod k08_double_buffer;
pub mod tile_io;
