//! Compiles kernels/vector.rs with oxidec into $OUT_DIR/vector.rs (PTX + typed launchers),
//! which src/main.rs includes. OXIDEC names the command (default `oxidec`; e.g.
//! `python3 -m oxidec`); CUDA_LIB_DIR adds a directory to search for libcuda.so.
use std::env;
use std::path::PathBuf;
use std::process::Command;

const KERNELS: &str = "kernels/vector.rs";

fn main() {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("vector.rs");
    let oxidec = env::var("OXIDEC").unwrap_or_else(|_| "oxidec".to_string());
    let mut words = oxidec.split_whitespace();
    let program = words.next().expect("OXIDEC is empty");
    let status = Command::new(program)
        .args(words)
        .args(["build", KERNELS, "--emit", "rust", "-o"])
        .arg(&out)
        .status()
        .unwrap_or_else(|e| panic!("cannot run `{oxidec}` (set OXIDEC to the oxidec command): {e}"));
    assert!(status.success(), "oxidec failed on {KERNELS}");

    println!("cargo:rerun-if-changed={KERNELS}");
    println!("cargo:rerun-if-env-changed=OXIDEC");
    println!("cargo:rerun-if-env-changed=CUDA_LIB_DIR");
    if let Ok(dir) = env::var("CUDA_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
    }
}
