//! Rust nightly's `std::autodiff` with enzyme-rs as its backend: every
//! case in src/cases/ differentiates its functions with
//! `#[autodiff_reverse]` / `#[autodiff_forward]` and checks the results
//! against central finite differences or analytic values. One binary holds
//! all cases so the fat-LTO build is paid once per profile.
//!
//!   cargo run                 # opt-level 0 (dev profile)
//!   cargo run --release       # opt-level 3
//!   cargo run -- rev_struct   # only the cases whose name contains this
//!
//! Exits non-zero if any check fails.
#![feature(autodiff)]

mod check;

macro_rules! cases {
    ($($m:ident),* $(,)?) => {
        mod cases {
            $(pub mod $m;)*
        }
        const CASES: &[(&str, fn(&mut check::Check))] = &[$((stringify!($m), cases::$m::run)),*];
    };
}

cases!(
    fwd_batch,
    fwd_calls,
    fwd_const,
    fwd_dual_only,
    fwd_f32,
    fwd_generic,
    fwd_scalar,
    fwd_slice,
    fwd_struct,
    fwd_vec,
    rev_active_only,
    rev_array,
    rev_calls,
    rev_const,
    rev_control,
    rev_dup_only,
    rev_f32,
    rev_generic,
    rev_matvec,
    rev_method,
    rev_out_param,
    rev_raw_ptr,
    rev_rosenbrock,
    rev_scalar,
    rev_slice,
    rev_struct,
    rev_temp_array,
    rev_vec,
);

fn main() {
    let filter: Vec<String> = std::env::args().skip(1).collect();
    let (mut cases_ok, mut cases_bad, mut checks, mut known) = (0, 0, 0, 0);
    for (name, run) in CASES {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let mut c = check::Check::new(name);
        run(&mut c);
        checks += c.passed + c.failed;
        known += c.known;
        if c.failed == 0 && c.passed > 0 {
            cases_ok += 1;
            println!("ok   {name} ({} checks)", c.passed);
        } else {
            cases_bad += 1;
            println!(
                "FAIL {name}: {} of {} checks failed",
                c.failed,
                c.passed + c.failed
            );
        }
    }
    println!(
        "autodiff: {cases_ok} of {} cases pass ({checks} checks; {known} known issues)",
        cases_ok + cases_bad
    );
    std::process::exit(if cases_bad == 0 { 0 } else { 1 });
}
