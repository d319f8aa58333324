//! The example's host side: its kernels ([`own_kernels`]) and their launch descriptions, for the
//! emulator tests (`tests/`) and, with a GPU, tessera's launcher.
pub use own_kernels::*;
