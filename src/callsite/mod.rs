//! Finding and parsing `__enzyme_*` calls into requests: which function, in
//! which mode, with which activity per argument, and how the result is
//! returned. Also rewriting a call once its derivative exists.
use crate::diag::{Error, Result};
use crate::ir::llvm::*;
use crate::ir::Builder;

pub mod entry;
mod resolve;
pub use resolve::{resolve_function, slot_value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `__enzyme_fwddiff`
    Forward,
    /// `__enzyme_autodiff`
    Reverse,
    /// `__enzyme_augmentfwd`: the forward sweep of split mode; returns a tape.
    AugmentFwd,
    /// `__enzyme_reverse`: the reverse sweep of split mode; takes the tape.
    ReverseSplit,
    /// `__enzyme_augmentsize`: bytes of the tape `__enzyme_augmentfwd` needs.
    AugmentSize,
}

impl Mode {
    pub fn from_callee(name: &str) -> Option<Mode> {
        let name = unmangled_head(name);
        if name.starts_with("__enzyme_fwddiff") {
            Some(Mode::Forward)
        } else if name.starts_with("__enzyme_autodiff") {
            Some(Mode::Reverse)
        } else if name.starts_with("__enzyme_augmentfwd") {
            Some(Mode::AugmentFwd)
        } else if name.starts_with("__enzyme_reverse") {
            Some(Mode::ReverseSplit)
        } else if name.starts_with("__enzyme_augmentsize") {
            Some(Mode::AugmentSize)
        } else {
            None
        }
    }

    /// Modes with reverse-mode activities (enzyme_out, active floats).
    pub fn is_reverse(self) -> bool {
        !matches!(self, Mode::Forward)
    }
}

/// At pipeline start: every differentiation entry point (`__enzyme_autodiff`,
/// `__enzyme_fwddiff`...) declared in `m` is marked `nomerge`. Otherwise
/// SimplifyCFG sinks two such calls that differ only in the function they
/// name (`if (c) __enzyme_fwddiff(f, ...); else __enzyme_fwddiff(g, ...);`)
/// into one call of a `phi` of the two, which the pass cannot differentiate
/// (at -O2 and -O3). Returns whether it changed the module.
pub fn keep_calls_apart(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for f in functions(m) {
        if is_declaration(f) && Mode::from_callee(&name(f)).is_some() && !fn_has_attr(f, "nomerge")
        {
            add_fn_attr(f, "nomerge");
            changed = true;
        }
    }
    changed
}

/// For an Itanium-mangled C++ name (`_Z16__enzyme_fwddiffPvz`, a template
/// instance `_Z16__enzyme_fwddiffIdJ...`), the unqualified identifier and
/// what follows it; other names unchanged. C++ users declare the entry
/// points without `extern "C"`.
/// Also internal-linkage (`_ZL`) names and names in a namespace
/// (`_ZN3foo17__enzyme_autodiffEPvz`, `_ZN3foo17__enzyme_autodiffIdJ..`):
/// the last component of the nested name.
pub fn unmangled_head(name: &str) -> &str {
    let Some(rest) = name.strip_prefix("_Z") else {
        return name;
    };
    let rest = rest.strip_prefix('L').unwrap_or(rest);
    // One <length><identifier> component: the identifier and what follows.
    fn component(s: &str) -> Option<(&str, &str)> {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let len = s[..digits].parse::<usize>().ok()?;
        let ident = &s[digits..];
        (ident.len() >= len).then(|| (ident, &ident[len..]))
    }
    if let Some(mut nested) = rest.strip_prefix('N') {
        loop {
            let Some((ident, after)) = component(nested) else {
                return name;
            };
            if after.is_empty() || after.starts_with('E') || after.starts_with('I') {
                return ident;
            }
            nested = after;
        }
    }
    match component(rest) {
        Some((ident, _)) => ident,
        None => name,
    }
}

/// Activity of one argument of the differentiated function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activity {
    /// `enzyme_const`: no derivative.
    Const,
    /// `enzyme_dup`: primal and shadow (pointer) or value and tangent (float).
    Dup,
    /// `enzyme_dupnoneed`: as dup; the primal need not be computed.
    DupNoNeed,
    /// `enzyme_out`: active scalar whose derivative is returned (reverse).
    Active,
}

impl Activity {
    pub fn has_shadow(self) -> bool {
        matches!(self, Activity::Dup | Activity::DupNoNeed)
    }
}

/// One argument of the differentiated function at the call site.
#[derive(Clone, Debug)]
pub struct ArgSpec {
    pub activity: Activity,
    /// The primal value (converted to the parameter type).
    pub primal: V,
    /// Shadow/tangent values (one per vector lane; empty unless dup).
    pub shadows: Vec<V>,
}

/// A parsed `__enzyme_*` call.
#[derive(Clone, Debug)]
pub struct Request {
    pub call: V,
    pub mode: Mode,
    pub func: V,
    pub args: Vec<ArgSpec>,
    pub width: u32,
    /// `enzyme_primal_return` (or a two-element result in forward mode).
    pub primal_return: bool,
    /// Explicit seed for an active float return (reverse mode), if passed.
    pub ret_seed: Option<V>,
    /// Return activity markers, if given: Some(false) = enzyme_const_return.
    pub ret_active: Option<bool>,
    /// When the call returns through an `sret` pointer: that pointer.
    pub sret: Option<V>,
    /// The declared return type of the `__enzyme_*` call.
    pub ret_ty: T,
    /// When the differentiated function returns a struct through an `sret`
    /// first parameter (C's large struct results) and the user's call
    /// expects the result back: that struct type. `args[0]` then holds
    /// buffers made here (primal, zeroed shadow) that the result is read
    /// from after the call.
    pub fn_sret: Option<T>,
    /// Split mode: the tape (`enzyme_tape, t`, or the last argument of
    /// `__enzyme_reverse`).
    pub tape: Option<V>,
    /// `enzyme_allocated, N`: the caller provides N bytes for the tape.
    pub allocated: Option<i64>,
    /// `enzyme_nofree`: `__enzyme_reverse` does not free the tape.
    pub nofree: bool,
    /// `enzyme_context, ctx`: the shadows of globals come from this
    /// context (`__enzyme_context`, `modes::iface::shadows`).
    pub context: Option<V>,
}

/// The struct type of `f`'s `sret` first parameter, if it has one.
pub fn fn_sret_type(f: V) -> Option<T> {
    if params(f).is_empty() {
        return None;
    }
    type_attr_at(f, 1, "sret")
}

/// Whether a value is a marker global (`enzyme_dup`...): a load of it (C) or
/// its address (C++). Returns the marker name.
pub fn marker_name(v: V) -> Option<String> {
    // IR written by hand or by other front ends (Enzyme's own tests) may
    // spell a marker as a metadata string: `metadata !"enzyme_dup"`.
    if let Some(s) = crate::ir::metadata::md_string(v).filter(|s| s.starts_with("enzyme_")) {
        return Some(s);
    }
    let v = slot_value(v);
    let g = if opcode(v) == Some(LLVMOpcode::LLVMLoad) {
        strip_casts(operand(v, 0))
    } else if opcode(v) == Some(LLVMOpcode::LLVMPtrToInt) {
        strip_casts(operand(v, 0))
    } else {
        let s = strip_casts(v);
        if const_opcode(s) == Some(LLVMOpcode::LLVMPtrToInt) {
            strip_casts(operand(s, 0))
        } else {
            s
        }
    };
    if !is_global_var(g) {
        return None;
    }
    let n = name(g);
    if n.starts_with("enzyme_") {
        Some(n)
    } else {
        None
    }
}

/// How a call-site argument becomes the parameter type it feeds.
#[derive(Clone, Copy)]
enum Conversion {
    Same,
    Cast(LLVMOpcode),
    FpCast,
    IntCast,
}

/// The conversion from `v` to `to`, if there is one (undoing C's default
/// argument promotions for variadic calls).
fn conversion(v: V, to: T) -> Option<Conversion> {
    let from = type_of(v);
    if from == to {
        return Some(Conversion::Same);
    }
    if is_fp(from) && is_fp(to) {
        return Some(Conversion::FpCast);
    }
    if is_int(from) && is_int(to) {
        return Some(Conversion::IntCast);
    }
    if is_ptr(from) && is_ptr(to) {
        return Some(Conversion::Cast(LLVMOpcode::LLVMAddrSpaceCast));
    }
    // Pointers passed as pointer-sized integers (intptr_t) and back; a
    // narrower integer where a pointer is expected is a mistake (a shadow
    // or an argument missing), not a conversion.
    if is_int(from) && is_ptr(to) && int_width(from) == 64 {
        return Some(Conversion::Cast(LLVMOpcode::LLVMIntToPtr));
    }
    if is_ptr(from) && is_int(to) && int_width(to) == 64 {
        return Some(Conversion::Cast(LLVMOpcode::LLVMPtrToInt));
    }
    None
}

/// Convert a call-site argument to the parameter type it feeds.
pub fn convert_arg(b: &Builder, v: V, to: T) -> Option<V> {
    Some(match conversion(v, to)? {
        Conversion::Same => v,
        Conversion::FpCast => b.fp_cast(v, to),
        Conversion::IntCast => b.int_cast(v, to, true),
        Conversion::Cast(op) => b.cast(op, v, to),
    })
}

/// Convert when building; when only reading the call (`b` is None), the
/// argument itself if it converts.
fn convert_opt(b: Option<&Builder>, v: V, to: T) -> Option<V> {
    match b {
        Some(b) => convert_arg(b, v, to),
        None => conversion(v, to).map(|_| v),
    }
}

/// Parse a call to `__enzyme_*` into a request, converting its arguments
/// to the parameter types (conversions are inserted before the call).
pub fn parse(call: V, mode: Mode) -> Result<Request> {
    let module = module_of(inst_fn(call));
    let b = Builder::new(module);
    b.before(call);
    parse_with(call, mode, Some(&b))
}

/// Read a call to `__enzyme_*` without changing the IR: the same request
/// `parse` makes, with each value as passed (not converted), and no hidden
/// result buffer (`args[0]` of a `fn_sret` request is a placeholder whose
/// values are the call itself). For analyses, which must see exactly the
/// pairing of arguments to parameters that the modes will use.
pub fn scan(call: V) -> Result<Request> {
    let callee = name(called_value(call));
    let mode = Mode::from_callee(&callee)
        .ok_or_else(|| Error::bad_call(call, format!("{callee} is not an __enzyme_* call")))?;
    parse_with(call, mode, None)
}

fn parse_with(call: V, mode: Mode, b: Option<&Builder>) -> Result<Request> {
    let callee_name = name(called_value(call));
    let all = call_args(call);
    let mut k = 0usize;
    let mut sret = None;
    if !all.is_empty() && call_has_sret(call, 0) {
        sret = Some(all[0]);
        k = 1;
    }
    if k >= all.len() {
        return Err(Error::bad_call(
            call,
            format!("{callee_name} needs the function to differentiate as its first argument"),
        ));
    }
    let func = resolve_function(call, all[k])?;
    k += 1;
    let params = params(func);
    let mut req = Request {
        call,
        mode,
        func,
        args: Vec::new(),
        width: 1,
        primal_return: false,
        ret_seed: None,
        ret_active: None,
        sret,
        ret_ty: ret_type(call_fn_type(call)),
        fn_sret: None,
        tape: None,
        allocated: None,
        nofree: false,
        context: None,
    };
    // The C caller cannot pass the hidden result buffer of a function that
    // returns a large struct: when it expects the result back, make it.
    if let Some(st) = fn_sret_type(func) {
        if mode == Mode::Forward && (sret.is_some() || !is_void(req.ret_ty)) {
            req.fn_sret = Some(st);
        }
    }
    // `enzyme_interleave`: the primals (with their markers) before it, the
    // shadows after it, in the same order.
    let split = all[k..]
        .iter()
        .position(|v| marker_name(*v).as_deref() == Some("enzyme_interleave"))
        .map(|i| i + k);
    let mut cur = Cursor {
        call,
        mode,
        b,
        callee_name,
        fname: name(func),
        user_params: params.len() - req.fn_sret.is_some() as usize,
        end: split.unwrap_or(all.len()),
        shadow_k: split.map(|i| i + 1),
        all,
        k,
        byref: None,
    };
    for (pi, p) in params.iter().enumerate() {
        if pi == 0 {
            if let Some(st) = req.fn_sret {
                req.args.push(match b {
                    Some(b) => hidden_sret_arg(call, b, st),
                    None => ArgSpec {
                        activity: Activity::Dup,
                        primal: call,
                        shadows: vec![call],
                    },
                });
                continue;
            }
        }
        while cur.meta(&mut req)? {}
        let arg = cur.param(&req, pi, type_of(*p), params.len())?;
        req.args.push(arg);
    }
    cur.trailing(&mut req)?;
    if mode == Mode::Forward && (returns_primal_too(&req) || returns_inactive_primal(&req)) {
        req.primal_return = true;
    }
    Ok(req)
}

/// The width of context `v` when it is plainly `__enzyme_context(N)`'s
/// result (directly, or through a local variable stored once, -O0).
fn context_width(v: V) -> Option<u32> {
    let mut v = strip_casts(v);
    if opcode(v) == Some(LLVMOpcode::LLVMLoad) {
        let slot = strip_casts(operand(v, 0));
        if opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
            return None;
        }
        let stores: Vec<V> = users(slot)
            .into_iter()
            .filter(|u| opcode(*u) == Some(LLVMOpcode::LLVMStore) && operand(*u, 1) == slot)
            .collect();
        if stores.len() != 1 {
            return None;
        }
        v = strip_casts(operand(stores[0], 0));
    }
    let f = called_function(v).filter(|_| is_call(v))?;
    if name(f) != "__enzyme_context" {
        return None;
    }
    let w = const_int_value(*call_args(v).first()?)?;
    u32::try_from(w).ok()
}

/// The arguments of an `__enzyme_*` call as they are read, left to right.
struct Cursor<'b> {
    call: V,
    mode: Mode,
    /// None when only reading the call (`scan`).
    b: Option<&'b Builder>,
    callee_name: String,
    /// Name of the function to differentiate.
    fname: String,
    /// Its parameters the caller passes (the hidden sret one excluded).
    user_params: usize,
    all: Vec<V>,
    /// The next argument to read.
    k: usize,
    /// Where the primals end: `enzyme_interleave`'s position, else all.
    end: usize,
    /// With `enzyme_interleave`: the next shadow to read (after it).
    shadow_k: Option<usize>,
    /// `enzyme_byref, bytes`: the next value is passed by pointer.
    byref: Option<i64>,
}

impl Cursor<'_> {
    fn next_int(&mut self, marker: &str) -> Result<i64> {
        let call = self.call;
        if self.k >= self.all.len() {
            return Err(Error::bad_call(
                call,
                format!("{marker} must be followed by an integer constant"),
            ));
        }
        let v = self.all[self.k];
        self.k += 1;
        const_int_value(v).ok_or_else(|| {
            Error::bad_call(
                call,
                format!("{marker} must be followed by an integer constant"),
            )
        })
    }

    /// Markers that apply to the whole call; they may appear anywhere.
    fn meta(&mut self, req: &mut Request) -> Result<bool> {
        let call = self.call;
        let Some(m) = self.all.get(self.k).and_then(|v| marker_name(*v)) else {
            return Ok(false);
        };
        if matches!(m.as_str(), "enzyme_tape" | "enzyme_allocated")
            && !matches!(self.mode, Mode::AugmentFwd | Mode::ReverseSplit)
        {
            return Err(Error::bad_call(
                call,
                format!("{m} is a split-mode marker (for __enzyme_augmentfwd / __enzyme_reverse); {} takes no tape", self.callee_name),
            ));
        }
        match m.as_str() {
            "enzyme_width" => {
                self.k += 1;
                let w = self.next_int("enzyme_width")?;
                if !(1..=64).contains(&w) {
                    return Err(Error::bad_call(
                        call,
                        format!("enzyme_width must be between 1 and 64, got {w}"),
                    ));
                }
                req.width = w as u32;
            }
            "enzyme_primal_return" => {
                self.k += 1;
                req.primal_return = true;
            }
            "enzyme_noret" => {
                self.k += 1;
                req.primal_return = false;
            }
            "enzyme_const_return" => {
                self.k += 1;
                req.ret_active = Some(false);
            }
            "enzyme_active_return" | "enzyme_dup_return" => {
                self.k += 1;
                req.ret_active = Some(true);
            }
            "enzyme_allocated" => {
                self.k += 1;
                req.allocated = Some(self.next_int("enzyme_allocated")?);
            }
            "enzyme_nofree" => {
                self.k += 1;
                req.nofree = true;
            }
            // Enzyme's "this argument's memory is not overwritten before
            // the reverse sweep": the user's arguments are taken that way
            // here already (a split pair's too).
            "enzyme_nocache" => {
                self.k += 1;
            }
            "enzyme_byref" => {
                self.k += 1;
                self.byref = Some(self.next_int("enzyme_byref")?);
            }
            "enzyme_context" => {
                self.k += 1;
                let ctx = *self.all.get(self.k).ok_or_else(|| {
                    Error::bad_call(
                        call,
                        "enzyme_context must be followed by a context (__enzyme_context)",
                    )
                })?;
                req.context = Some(ctx);
                // A context made for a width gives the call that width
                // (unless enzyme_width said one), as in Enzyme.
                if req.width == 1 {
                    if let Some(w) = context_width(ctx).filter(|w| (2..=64).contains(w)) {
                        req.width = w;
                    }
                }
                self.k += 1;
            }
            "enzyme_tape" => {
                self.k += 1;
                if self.k >= self.all.len() {
                    return Err(Error::bad_call(
                        call,
                        "enzyme_tape must be followed by the tape",
                    ));
                }
                req.tape = Some(self.all[self.k]);
                self.k += 1;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Parameter `pi` (of `nparams`, type `pty`): its marker, value and shadows.
    fn param(&mut self, req: &Request, pi: usize, pty: T, nparams: usize) -> Result<ArgSpec> {
        let (call, mode) = (self.call, self.mode);
        let callee_name = &self.callee_name;
        let fname = &self.fname;
        let pdesc = || format!("argument {} ({}) of '{}'", pi + 1, print_type(pty), fname);
        if self.k >= self.end {
            return Err(Error::bad_call(
                call,
                format!(
                    "too few arguments to {callee_name}: '{fname}' takes {} parameters, no value given for {}",
                    self.user_params,
                    pdesc()
                ),
            ));
        }
        let mut activity = None;
        let mut stride = None;
        if let Some(m) = marker_name(self.all[self.k]) {
            if m.starts_with("enzyme_dup") && m.ends_with('v') && self.k + 1 < self.end {
                self.k += 1;
                stride = Some(self.all[self.k]);
            }
            activity = Some(match m.as_str() {
                "enzyme_const" => Activity::Const,
                "enzyme_dup" | "enzyme_dupv" => Activity::Dup,
                "enzyme_dupnoneed" | "enzyme_dupnoneedv" => Activity::DupNoNeed,
                "enzyme_out" => Activity::Active,
                other => {
                    return Err(Error::bad_call(
                        call,
                        format!(
                            "marker {other} is not valid before {}{}",
                            pdesc(),
                            crate::modes::iface::markers::hint(other)
                        ),
                    ));
                }
            });
            self.k += 1;
            if self.k >= self.end {
                return Err(Error::bad_call(
                    call,
                    format!("marker {m} has no argument after it (for {})", pdesc()),
                ));
            }
        }
        let activity = match activity {
            Some(a) => a,
            None if is_fp(pty) => match mode {
                Mode::Forward => Activity::Dup,
                _ => Activity::Active,
            },
            None if is_ptr(pty) => {
                // A pointer with no marker is duplicated, unless no shadow
                // follows (Enzyme's tests pass integer pointers that way).
                let remaining_params = nparams - pi - 1;
                let remaining_args = self.all.len() - self.k - 1;
                if self.shadow_k.is_some() || remaining_args > remaining_params {
                    Activity::Dup
                } else {
                    Activity::Const
                }
            }
            None => Activity::Const,
        };
        check_activity(call, mode, req.width, pty, activity, &pdesc())?;
        let mut arg = self.all[self.k];
        if let Some(bytes) = self.byref.take() {
            arg =
                crate::modes::iface::markers::load_byref(call, self.b, arg, bytes, pty, &pdesc())?;
        }
        let primal = convert_opt(self.b, arg, pty).ok_or_else(|| {
            Error::bad_call(
                call,
                format!("value {} does not fit {}", print_value(arg).trim(), pdesc()),
            )
        })?;
        self.k += 1;
        let shadows =
            if let (Some(s), Some(base)) = (stride, self.all.get(self.shadow_at()).copied()) {
                let lanes = crate::modes::iface::markers::strided_shadows(
                    call,
                    self.b,
                    base,
                    s,
                    req.width,
                    &pdesc(),
                )?;
                self.advance_shadow();
                lanes
            } else if activity.has_shadow() {
                self.shadows(req.width, pty, &pdesc())?
            } else {
                Vec::new()
            };
        Ok(ArgSpec {
            activity,
            primal,
            shadows,
        })
    }

    /// The `width` shadow arguments of a duplicated parameter.
    fn shadows(&mut self, width: u32, pty: T, pdesc: &str) -> Result<Vec<V>> {
        let call = self.call;
        let mut shadows = Vec::new();
        for lane in 0..width {
            if self.shadow_at() >= self.all.len() {
                return Err(Error::bad_call(
                    call,
                    format!(
                        "too few arguments to {}: {} is enzyme_dup but has no shadow argument{}",
                        self.callee_name,
                        pdesc,
                        if width > 1 {
                            format!(" (lane {lane} of width {})", width)
                        } else {
                            String::new()
                        }
                    ),
                ));
            }
            let arg = self.all[self.shadow_at()];
            if let Some(m) = marker_name(arg) {
                return Err(Error::bad_call(
                    call,
                    format!("the shadow of {pdesc} is missing: found the marker {m} instead"),
                ));
            }
            let s = convert_opt(self.b, arg, pty).ok_or_else(|| {
                Error::bad_call(
                    call,
                    format!("shadow {} does not fit {}", print_value(arg).trim(), pdesc),
                )
            })?;
            shadows.push(s);
            self.advance_shadow();
        }
        Ok(shadows)
    }

    /// Where the next shadow is: after its primal, or after
    /// `enzyme_interleave`.
    fn shadow_at(&self) -> usize {
        self.shadow_k.unwrap_or(self.k)
    }

    fn advance_shadow(&mut self) {
        match &mut self.shadow_k {
            Some(sk) => *sk += 1,
            None => self.k += 1,
        }
    }

    /// After the parameters: the seed of an active float result (reverse
    /// mode) and, for __enzyme_reverse, the tape last; then nothing more.
    fn trailing(&mut self, req: &mut Request) -> Result<()> {
        let (call, mode, func) = (self.call, self.mode, req.func);
        if let Some(sk) = self.shadow_k.take() {
            // What is left of the primals, then what follows the shadows,
            // read as one list.
            let mut rest: Vec<V> = self.all[..self.end].to_vec();
            rest.extend_from_slice(&self.all[sk.min(self.all.len())..]);
            self.all = rest;
            self.end = self.all.len();
        }
        loop {
            while self.meta(req)? {}
            if self.k >= self.all.len() {
                break;
            }
            let mut arg = self.all[self.k];
            if let (Some(bytes), true) = (self.byref.take(), is_fp(fn_return_type(func))) {
                arg = crate::modes::iface::markers::load_byref(
                    call,
                    self.b,
                    arg,
                    bytes,
                    fn_return_type(func),
                    "the seed of the result",
                )?;
            }
            let t = type_of(arg);
            if mode == Mode::ReverseSplit
                && req.tape.is_none()
                && self.k + 1 == self.all.len()
                && is_ptr(t)
            {
                req.tape = Some(arg);
                self.k += 1;
            } else if matches!(mode, Mode::Reverse | Mode::ReverseSplit)
                && req.ret_seed.is_none()
                && is_fp(t)
                && is_fp(fn_return_type(func))
            {
                req.ret_seed = convert_opt(self.b, arg, fn_return_type(func));
                self.k += 1;
            } else {
                break;
            }
        }
        let callee_name = &self.callee_name;
        if mode == Mode::ReverseSplit && req.tape.is_none() {
            return Err(Error::bad_call(call, format!("{callee_name} needs the tape from __enzyme_augmentfwd as its last argument (or after enzyme_tape)")));
        }
        if let Some(m) = self.all.get(self.k).and_then(|v| marker_name(*v)) {
            if self.k + 1 == self.all.len() {
                return Err(Error::bad_call(
                    call,
                    format!(
                        "marker {m} has no argument after it (all {} parameters of '{}' already have their arguments)",
                        self.user_params, self.fname
                    ),
                ));
            }
        }
        if self.k < self.all.len() {
            // A function only declared here (defined in another file, or by a
            // Fortran caller's implicit interface) shows no real parameter list.
            let hint = if is_declaration(req.func) {
                format!(" ('{}' is only declared in this module: compile its definition into the same module, e.g. the same source file, or link with -flto and the plugin loaded at link time)", self.fname)
            } else {
                String::new()
            };
            return Err(Error::bad_call(
                call,
                format!(
                    "too many arguments to {callee_name}: '{}' takes {} parameters; {} argument(s) left over, starting with {}{hint}",
                    self.fname,
                    self.user_params,
                    self.all.len() - self.k,
                    print_value(self.all[self.k]).trim()
                ),
            ));
        }
        Ok(())
    }
}

/// The hidden result buffer of a function returning a large struct, made
/// at the caller's entry: a primal and a zeroed shadow.
fn hidden_sret_arg(call: V, b: &Builder, st: T) -> ArgSpec {
    let module = module_of(inst_fn(call));
    let eb = Builder::new(module);
    eb.at_entry_allocas(inst_fn(call));
    let primal = eb.alloca(st);
    let shadow = eb.alloca(st);
    let size = type_alloc_size(module, st);
    b.zero_bytes(shadow, const_i64(b.ctx, size as i64));
    ArgSpec {
        activity: Activity::Dup,
        primal,
        shadows: vec![shadow],
    }
}

/// Check that an activity fits the parameter's type.
fn check_activity(
    call: V,
    mode: Mode,
    width: u32,
    pty: T,
    activity: Activity,
    pdesc: &str,
) -> Result<()> {
    match activity {
        Activity::Dup | Activity::DupNoNeed => {
            if !(is_ptr(pty) || (mode == Mode::Forward && is_fp(pty)) || (is_fp(pty) && width > 1))
            {
                let what = if is_int(pty) {
                    "an integer"
                } else {
                    "this type"
                };
                return Err(Error::bad_call(
                    call,
                    format!(
                        "{} cannot be enzyme_dup: {what} carries no derivative{}",
                        pdesc,
                        if mode.is_reverse() && is_fp(pty) {
                            " (use enzyme_out for active scalars in reverse mode)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
        Activity::Active => {
            if mode == Mode::Forward {
                return Err(Error::bad_call(call, format!("enzyme_out is a reverse-mode marker; {} in forward mode takes enzyme_dup (value, tangent) or enzyme_const", pdesc)));
            }
            if !is_fp(pty) {
                return Err(Error::bad_call(call, format!("{} cannot be enzyme_out: only floating-point scalars can be active outputs", pdesc)));
            }
        }
        Activity::Const => {}
    }
    Ok(())
}

/// A declared result with room for two copies of the function's result
/// (`struct {double p, d;}` for a double, `struct {cplx p, d;}` for a
/// cplx) asks for {primal, tangent}; one copy is just the tangent.
fn returns_primal_too(req: &Request) -> bool {
    let fn_leaves = leaf_types(req.fn_sret.unwrap_or_else(|| fn_return_type(req.func))).len();
    let declared = if req.sret.is_some() {
        call_type_attr_at(req.call, 1, "sret").unwrap_or(req.ret_ty)
    } else {
        req.ret_ty
    };
    fn_leaves > 0 && leaf_types(declared).len() == (req.width as usize + 1) * fn_leaves
}

/// Forward mode of a function whose result carries no derivative (an
/// integer, as Rust's `Const` return of an integer), declared to return
/// that type: the call returns the primal result (a tangent of it would
/// always be zero).
fn returns_inactive_primal(req: &Request) -> bool {
    let rt = fn_return_type(req.func);
    req.fn_sret.is_none()
        && req.sret.is_none()
        && !is_void(rt)
        && !may_carry_derivative(rt)
        && req.ret_ty == rt
}

/// The scalar leaves of a (possibly nested) aggregate type, in order.
pub fn leaf_types(t: T) -> Vec<T> {
    let mut out = Vec::new();
    fn go(t: T, out: &mut Vec<T>) {
        if is_struct(t) {
            for f in struct_fields(t) {
                go(f, out);
            }
        } else if is_array(t) {
            let n = array_len(t);
            for _ in 0..n {
                go(elem_type(t), out);
            }
        } else if is_vector(t) {
            for _ in 0..vector_size(t) {
                go(elem_type(t), out);
            }
        } else if !is_void(t) {
            out.push(t);
        }
    }
    go(t, &mut out);
    out
}

/// Build a value of type `t` from scalar leaves (converting each), the way
/// results are returned to the user: one scalar, a struct, an array, or a
/// vector of them, possibly nested (as the C ABI lowers small structs).
pub fn pack(b: &Builder, t: T, leaves: &[V]) -> Option<V> {
    if is_void(t) {
        return None;
    }
    if leaf_types(t).len() != leaves.len() {
        return None;
    }
    fn go(b: &Builder, t: T, leaves: &[V], i: &mut usize) -> Option<V> {
        if is_struct(t) || is_array(t) {
            let fields: Vec<T> = if is_struct(t) {
                struct_fields(t)
            } else {
                vec![elem_type(t); array_len(t) as usize]
            };
            let mut agg = undef(t);
            for (fi, ft) in fields.into_iter().enumerate() {
                let v = go(b, ft, leaves, i)?;
                agg = b.insert_value(agg, v, fi as u32);
            }
            Some(agg)
        } else if is_vector(t) {
            let mut vec = undef(t);
            for lane in 0..vector_size(t) {
                let v = go(b, elem_type(t), leaves, i)?;
                vec = b.insert_element(vec, v, const_i32(b.ctx, lane as i64));
            }
            Some(vec)
        } else {
            let v = leaves[*i];
            *i += 1;
            convert_arg(b, v, t)
        }
    }
    let mut i = 0;
    go(b, t, leaves, &mut i)
}

/// Split a value into its scalar leaves (inverse of [`pack`]).
pub fn unpack(b: &Builder, v: V) -> Vec<V> {
    let t = type_of(v);
    let mut out = Vec::new();
    if is_struct(t) || is_array(t) {
        let n = if is_struct(t) {
            struct_fields(t).len() as u32
        } else {
            array_len(t)
        };
        for i in 0..n {
            out.extend(unpack(b, b.extract_value(v, i)));
        }
    } else if is_vector(t) {
        for lane in 0..vector_size(t) {
            out.push(b.extract_element(v, const_i32(b.ctx, lane as i64)));
        }
    } else if !is_void(t) {
        out.push(v);
    }
    out
}

/// Replace the `__enzyme_*` call with `result` (the leaves of the value the
/// user receives), writing through `sret` when the call returns that way.
pub fn replace_call(req: &Request, b: &Builder, leaves: &[V]) -> Result<()> {
    let call = req.call;
    if let Some(sret) = req.sret {
        let sty = call_type_attr_at(call, 1, "sret").unwrap_or(req.ret_ty);
        let v = pack(b, sty, leaves).ok_or_else(|| {
            Error::bad_call(
                call,
                format!(
                    "the result type {} does not hold the {} values this call returns",
                    print_type(sty),
                    leaves.len()
                ),
            )
        })?;
        b.store(v, sret);
    } else if !is_void(req.ret_ty) {
        let v = if leaves.is_empty() {
            zero(req.ret_ty)
        } else {
            pack(b, req.ret_ty, leaves).ok_or_else(|| {
                Error::bad_call(
                    call,
                    format!(
                        "the declared return type {} of {} does not hold the {} value(s) this call returns",
                        print_type(req.ret_ty),
                        name(called_value(call)),
                        leaves.len()
                    ),
                )
            })?
        };
        replace_all_uses(call, v);
    }
    erase(call);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangled_entry_points() {
        assert_eq!(Mode::from_callee("__enzyme_autodiff"), Some(Mode::Reverse));
        assert_eq!(
            Mode::from_callee("_Z17__enzyme_autodiffPvz"),
            Some(Mode::Reverse)
        );
        assert_eq!(
            Mode::from_callee("_Z16__enzyme_fwddiffIdJPvdEET_S0_DpT0_"),
            Some(Mode::Forward)
        );
        assert_eq!(
            Mode::from_callee("_ZN2ad17__enzyme_autodiffEPvd"),
            Some(Mode::Reverse)
        );
        assert_eq!(
            Mode::from_callee("_ZN2ad17__enzyme_autodiffIdJPidEEET_PvDpT0_"),
            Some(Mode::Reverse)
        );
        assert_eq!(
            Mode::from_callee("_ZL23__enzyme_autodiff_localPviPdS0_ii"),
            Some(Mode::Reverse)
        );
        assert_eq!(Mode::from_callee("_ZN2ad3fooEv"), None);
        assert_eq!(Mode::from_callee("_ZN17__enzyme_autodiff3fooEv"), None);
    }
}
