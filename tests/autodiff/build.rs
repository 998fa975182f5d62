//! Tells the cases the opt-level they were built at (`AUTODIFF_OPT_LEVEL`):
//! the seed of an `Active` return reaches the backend only at opt-level 0.
fn main() {
    let level = std::env::var("OPT_LEVEL").unwrap_or_default();
    println!("cargo:rustc-env=AUTODIFF_OPT_LEVEL={level}");
    println!("cargo:rerun-if-changed=build.rs");
}
