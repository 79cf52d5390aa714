//! Compiles the chunk library (`books/chunks/*.chunk`) into the advisor, so
//! a `mach` binary finds chunks without the source tree beside it.

use std::path::Path;

fn main() {
    // Read when the script runs, not when it was compiled: a build script
    // compiled for one checkout may be reused for another that shares the
    // target directory.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("../books/chunks");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the chunk library {} cannot be read: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "chunk"));
    files.sort();
    assert!(!files.is_empty(), "no *.chunk file in {}", dir.display());
    let mut out = String::from("&[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = format!("books/chunks/{}", f.file_name().unwrap().to_string_lossy());
        out.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            f.canonicalize().unwrap()
        ));
    }
    out.push(']');
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("builtin_chunks.rs");
    std::fs::write(dest, out).unwrap();
}
