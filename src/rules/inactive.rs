//! Calls that carry no derivative, by name: I/O, timing, randomness,
//! process control, integer and string utilities, and LLVM's integer-only
//! intrinsics.

use super::{hints, registry, strictfp};

/// Functions known to carry no derivative: I/O, timing, randomness, process
/// control, and pure integer/string utilities. Calls to them are skipped.
pub(crate) fn is_inactive_function_name(n: &str) -> bool {
    if registry::is_inactive(n)
        || hints::type_hint(n).is_some()
        || hints::is_size_hint(n)
        || crate::callsite::unmangled_head(n).starts_with("__enzyme_iter")
        || strictfp::is_inactive(n)
    {
        return true;
    }
    const INACTIVE: &[&str] = &[
        "printf",
        "fprintf",
        "sprintf",
        "snprintf",
        "puts",
        "fputs",
        "putchar",
        "fputc",
        "fflush",
        "fwrite",
        "fopen",
        "fclose",
        "perror",
        "exit",
        "abort",
        "_exit",
        "__assert_fail",
        "__cxa_pure_virtual",
        "time",
        "clock",
        "clock_gettime",
        "gettimeofday",
        "rand",
        "srand",
        "random",
        "srandom",
        "drand48",
        "srand48",
        "strlen",
        "strcmp",
        "strncmp",
        // Byte comparisons: an integer result, nothing written (a
        // std::string key compare becomes bcmp at -O1).
        "memcmp",
        "bcmp",
        "strcpy",
        "strncpy",
        "strcat",
        "atoi",
        "atol",
        "atof",
        "strtol",
        "strtod",
        "getenv",
        "abs",
        "labs",
        "llabs",
        "__cxa_guard_acquire",
        "__cxa_guard_release",
        "__cxa_atexit",
        "omp_get_thread_num",
        "omp_get_num_threads",
        "omp_get_max_threads",
        "fscanf",
        "scanf",
        "sscanf",
        "__isoc99_scanf",
        "__isoc99_sscanf",
        "__isoc99_fscanf",
        "usleep",
        "sleep",
        "malloc_usable_size",
        "posix_memalign",
        "__errno_location",
        "vprintf",
        "vfprintf",
        "putc",
        "__printf_chk",
        "__fprintf_chk",
        "__sprintf_chk",
        "__snprintf_chk",
        "__vfprintf_chk",
        "__stack_chk_fail",
        "__cxa_begin_catch",
        "__cxa_end_catch",
        "__cxa_allocate_exception",
        "__cxa_free_exception",
        "__cxa_throw",
        "__cxa_rethrow",
        "__cxa_call_unexpected",
        "_ZSt9terminatev",
        "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
        "_ZSt5flushIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
    ];
    if INACTIVE.contains(&n) {
        return true;
    }
    // C++ streams (std::ostream/istream members and operator<</>>, which
    // print values but carry no derivative), std::string (characters), and
    // the library's throw helpers.
    const INACTIVE_PREFIXES: &[&str] = &[
        // UndefinedBehaviorSanitizer's reports (-fsanitize=undefined).
        "__ubsan_handle_",
        "_ZNSo",
        "_ZNSi",
        "_ZStlsI",
        "_ZStrsI",
        "_ZSt16__ostream_insert",
        "_ZNSt13basic_ostream",
        "_ZNSt13basic_istream",
        "_ZNSt8ios_base",
        "_ZNSt9basic_ios",
        "_ZNKSt9basic_ios",
        "_ZNKSt5ctype",
        "_ZNSt7__cxx1112basic_string",
        "_ZNKSt7__cxx1112basic_string",
        "_ZNSt7__cxx1119basic_ostringstream",
        "_ZNSt7__cxx1118basic_stringstream",
        // std::unordered_map's helpers in libstdc++.so: the rehash policy
        // (bucket counts) and the byte hashes of std::hash<std::string>;
        // integer results and integer state only.
        "_ZNKSt8__detail20_Prime_rehash_policy",
        "_ZSt11_Hash_bytesPKvmm",
        "_ZSt15_Fnv_hash_bytesPKvmm",
        // Fortran runtime (flang): I/O statements and STOP.
        "_FortranAio",
        "_FortranAStopStatement",
    ];
    if INACTIVE_PREFIXES.iter().any(|p| n.starts_with(p)) {
        return true;
    }
    if let Some(rest) = n.strip_prefix("_ZSt") {
        // _ZSt<len>__throw_... (std::__throw_length_error and friends)
        if rest
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .starts_with("__throw_")
        {
            return true;
        }
    }
    n.starts_with("llvm.dbg.")
        || n.starts_with("llvm.lifetime.")
        || n.starts_with("llvm.invariant.")
        || n.starts_with("llvm.assume")
        || n.starts_with("llvm.expect")
        || n.starts_with("llvm.stacksave")
        || n.starts_with("llvm.stackrestore")
        || n.starts_with("llvm.prefetch")
        || n.starts_with("llvm.trap")
        || n.starts_with("llvm.debugtrap")
        || n.starts_with("llvm.experimental.noalias.scope.decl")
        || n.starts_with("llvm.donothing")
        || n.starts_with("llvm.is.constant")
        || n.starts_with("llvm.is.fpclass")
        || n.starts_with("llvm.fake.use")
        || n.starts_with("llvm.objectsize")
        || n.starts_with("llvm.var.annotation")
        || n.starts_with("llvm.ptr.annotation")
        || n.starts_with("llvm.annotation")
        || n.starts_with("llvm.sideeffect")
        || n.starts_with("llvm.pseudoprobe")
        || is_integer_intrinsic(n)
}

/// LLVM's integer-only intrinsics whose results are not single integers
/// (`{iN, i1}` of the overflow checks clang emits for `-ftrapv` and
/// `-fsanitize=signed-integer-overflow`) or that the scalar rules do not
/// list: integer arithmetic, no derivative.
fn is_integer_intrinsic(n: &str) -> bool {
    const OPS: &[&str] = &[
        "llvm.sadd.with.overflow.",
        "llvm.uadd.with.overflow.",
        "llvm.ssub.with.overflow.",
        "llvm.usub.with.overflow.",
        "llvm.smul.with.overflow.",
        "llvm.umul.with.overflow.",
        "llvm.sadd.sat.",
        "llvm.uadd.sat.",
        "llvm.ssub.sat.",
        "llvm.usub.sat.",
        "llvm.sshl.sat.",
        "llvm.ushl.sat.",
        "llvm.fshl.",
        "llvm.fshr.",
        "llvm.bitreverse.",
        "llvm.bswap.",
        "llvm.ctpop.",
        "llvm.ctlz.",
        "llvm.cttz.",
        "llvm.smax.",
        "llvm.smin.",
        "llvm.umax.",
        "llvm.umin.",
        "llvm.abs.",
    ];
    OPS.iter().any(|p| n.starts_with(p))
}
