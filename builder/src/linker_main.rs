//! `tessera-ptx-link`: the linker tessera-builder hands to rustc for nvptx64 (see `link.rs`).
#[path = "link.rs"]
mod link;

fn main() {
    if let Err(message) = link::main_with(std::env::args().skip(1)) {
        eprintln!("tessera-ptx-link: error: {message}");
        std::process::exit(1);
    }
}
