//! Library functions whose argument and result types are known by name:
//! allocation, memory transfer, math, formatted I/O, string utilities.
use super::tree::{Base, FloatKind, Off, TypeTree};
use crate::ir::llvm::*;
use crate::rules::{self, CallKind};

/// What a call to a declared function tells about types.
pub enum Known {
    /// Returns fresh memory; the listed arguments are sizes.
    Alloc {
        size_args: Vec<u32>,
    },
    Realloc {
        size_arg: u32,
    },
    Free,
    /// memcpy/memmove(dst, src, len)
    Copy,
    /// memset(dst, byte, len)
    Set,
    /// Math: every integer argument is an integer (floats are typed by LLVM).
    Math,
    /// A masked load, store, gather or scatter (`rules::vecmem`): the
    /// vector's lanes are what memory holds at the address(es).
    Masked,
    /// printf-like: the format string is argument `fmt`, values follow it.
    Printf {
        fmt: u32,
    },
    /// scanf-like: the format string is argument `fmt`, pointers follow it.
    Scanf {
        fmt: u32,
    },
    /// String functions: pointer arguments point to chars, the result is an
    /// integer (or a pointer to chars).
    Str,
    /// Returns an integer; arguments are integers.
    Int,
    /// An annotation (`rules::hints`): argument 0 points to `bytes`
    /// (argument 1, one element without it) of this base, every `step`.
    Hint {
        base: Base,
        step: u64,
    },
}

/// What function `f`'s calls tell about types: allocation and memory
/// transfer as the call classifier says, the rest by name.
pub fn classify(f: V) -> Option<Known> {
    let n = name(f);
    let n = n.as_str();
    let kind = rules::classify::classify_function(f);
    if let CallKind::Alloc(k) = kind {
        return Some(match k {
            rules::AllocKind::Malloc { size_arg } => Known::Alloc {
                size_args: vec![size_arg],
            },
            rules::AllocKind::Calloc => Known::Alloc {
                size_args: vec![0, 1],
            },
            rules::AllocKind::Realloc { size_arg } => Known::Realloc { size_arg },
            rules::AllocKind::Free => Known::Free,
        });
    }
    if let CallKind::MemTransfer(k) = kind {
        return Some(if k == rules::MemKind::Set {
            Known::Set
        } else {
            Known::Copy
        });
    }
    if let Some(h) = rules::hints::type_hint(n) {
        use rules::hints::Hint;
        let base = match h {
            Hint::Double => Base::Float(FloatKind::Double),
            Hint::Float => Base::Float(FloatKind::Float),
            Hint::Integer => Base::Integer,
            Hint::Pointer => Base::Pointer,
        };
        return Some(Known::Hint {
            base,
            step: h.step(),
        });
    }
    if rules::math_base(n).is_some()
        || n == "frexp"
        || n == "ldexp"
        || n.starts_with("llvm.ldexp")
        || rules::vecmem::is_reduction(n)
        || rules::strictfp::is_constrained(n)
    {
        return Some(Known::Math);
    }
    if rules::vecmem::Masked::of(n).is_some() {
        return Some(Known::Masked);
    }
    Some(match n {
        "printf" | "puts" => Known::Printf { fmt: 0 },
        "fprintf" | "sprintf" => Known::Printf { fmt: 1 },
        "snprintf" => Known::Printf { fmt: 2 },
        "scanf" | "__isoc99_scanf" => Known::Scanf { fmt: 0 },
        "fscanf" | "sscanf" | "__isoc99_fscanf" | "__isoc99_sscanf" => Known::Scanf { fmt: 1 },
        "strlen" | "strcmp" | "strncmp" | "strcpy" | "strncpy" | "strcat" | "strchr"
        | "strrchr" | "strstr" | "atoi" | "atol" | "atoll" => Known::Str,
        "abs"
        | "labs"
        | "llabs"
        | "rand"
        | "srand"
        | "time"
        | "clock"
        | "omp_get_thread_num"
        | "omp_get_num_threads" => Known::Int,
        _ if n.starts_with("llvm.abs.")
            || n.starts_with("llvm.smax.")
            || n.starts_with("llvm.smin.")
            || n.starts_with("llvm.umax.")
            || n.starts_with("llvm.umin.")
            || n.starts_with("llvm.ctpop.")
            || n.starts_with("llvm.ctlz.")
            || n.starts_with("llvm.cttz.")
            || n.starts_with("llvm.bswap.") =>
        {
            Known::Int
        }
        _ => return None,
    })
}

/// The string a constant (a global, possibly through a GEP) holds.
pub fn constant_string(v: V) -> Option<String> {
    let mut g = strip_casts(v);
    if is_const_gep(g) {
        g = operand(g, 0);
    }
    if !is_global_var(g) {
        return None;
    }
    let bytes = const_string_bytes(global_initializer(g)?)?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

fn chars() -> TypeTree {
    TypeTree::pointer_to(&{
        let mut t = TypeTree::new();
        t.insert(vec![Off::EVERY], Base::Integer);
        t
    })
}

/// The trees of the values a printf (`scan == false`) or scanf format
/// consumes, in order.
pub fn format_args(fmt: &str, scan: bool) -> Vec<TypeTree> {
    let mut out = Vec::new();
    let b = fmt.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if i < b.len() && b[i] == b'%' {
            i += 1;
            continue;
        }
        // flags, width, precision ('*' takes an int argument)
        while i < b.len() && b"-+ #0'".contains(&b[i]) {
            i += 1;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b'*') {
            if b[i] == b'*' && !scan {
                out.push(TypeTree::scalar(Base::Integer));
            }
            i += 1;
        }
        let mut long = 0;
        let mut long_double = false;
        while i < b.len() && b"hlLqjzt".contains(&b[i]) {
            match b[i] {
                b'l' => long += 1,
                b'L' => long_double = true,
                _ => {}
            }
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let c = b[i];
        i += 1;
        let t = match c {
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'c' => Some(Base::Integer),
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                Some(Base::Float(if long_double {
                    FloatKind::X86Fp80
                } else if scan && long == 0 {
                    FloatKind::Float
                } else {
                    FloatKind::Double
                }))
            }
            b's' => {
                out.push(chars());
                None
            }
            b'p' => {
                out.push(TypeTree::scalar(Base::Pointer));
                None
            }
            b'n' => {
                out.push(TypeTree::pointer_to(&TypeTree::scalar(Base::Integer)));
                None
            }
            _ => None,
        };
        if let Some(t) = t {
            let s = TypeTree::scalar(t);
            out.push(if scan { TypeTree::pointer_to(&s) } else { s });
        }
    }
    out
}

pub fn char_pointer() -> TypeTree {
    chars()
}
