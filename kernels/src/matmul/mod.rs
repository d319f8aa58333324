//! The matmul ladder: `C = A · B` for row-major f32 matrices, `A` is M×K, `B` is K×N, `C` is M×N.
//!
//! One kernel per file, numbered along the ladder; each file's doc says what it fixes in the one before.
//! Global reads are counted for M = N = K = 1024 (the seed's example), in floats loaded by all threads.
pub mod k01_naive;
pub mod k02_tiled;
