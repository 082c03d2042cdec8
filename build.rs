//! Links the `strake` binary as a position-dependent executable on x86_64 Linux.
//!
//! A PIE has its ~31,000 relative relocations applied by the dynamic loader at every
//! start, which writes to (and so copies) every page of `.data.rel.ro`. strake is
//! started once per `template`/`lock` call, often in loops, so that start-up cost
//! shows: measured on the Pinniped supervisor render (scripts/bench-template), the
//! position-dependent binary needs ~1.2 MiB less peak RSS and ~1 ms less CPU.
//! The objects stay position-independent; only the final link of binaries changes
//! (tests, examples and the library are untouched).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && arch == "x86_64" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
