//! Compiles the chunk library (`books/chunks/*.chunk`) into the advisor, so
//! a `mach` binary finds chunks without the source tree beside it.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../books/chunks");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "chunk"));
    files.sort();
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
