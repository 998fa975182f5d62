//! Activity analysis: which values of a function carry a derivative.
//!
//! Two facts, each a fixed point:
//! - **reached** (forward): a derivative can flow into the value from an
//!   active input (a seed argument, or a global that holds active floats).
//!   Per-instruction rules: loads read reached memory, allocations are
//!   reached only when active data is stored in them, integers only carry
//!   the raw bits of a float (per type analysis) or of a pointer, calls to
//!   inactive functions (known library functions, `__enzyme_inactivefn`,
//!   the `"enzyme_inactive"` attribute) carry nothing. Storing a reached
//!   value through a pointer makes the memory it points to reached.
//! - **useful** (backward): the value can reach an output: the return value
//!   (when asked for), memory that outlives the function or is read again
//!   (stores into arguments, globals, memory passed to calls, local memory
//!   whose contents are used), or a call that may have effects.
//!
//! A value is *active* (`varied`) when it is both: only active values get
//! tangent/adjoint code. It is sound: anything a derivative can reach, and
//! that can reach an output, is active; constant means no derivative can be
//! lost by ignoring it. Storing active data into memory that cannot have a
//! shadow (a constant argument) is an error rather than a silent zero.
use super::types::{Base, TypeAnalysis, TypeResults};
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::ir::metadata::has_flag;
use crate::rules::vecmem::masked_access;
use crate::rules::{self, CallKind};
use std::collections::{HashMap, HashSet};

mod globals;
mod objects;
pub use globals::ActiveGlobals;
use globals::{const_ptr_global, globals_touched_by};
use objects::{derived_from_constant_arg, is_local_allocation, pointer_result_call};
pub use objects::{
    int_without_pointer_bits, underlying_allocations, underlying_objects, without_provenance,
    Params,
};

/// How to analyse.
#[derive(Clone, Debug)]
/// What the pass gives an activity analysis about the module beyond the
/// function analysed: the options it honours and the globals that may
/// hold active floats (`Session::activity_cx`).
pub struct ModuleCx {
    /// Unknown memory is integer (`-enzyme-loose-types`).
    pub loose_types: bool,
    /// From [`ActiveGlobals::of`].
    pub globals: HashSet<V>,
}

pub struct Config {
    /// The return value is an output (its derivative is wanted).
    pub ret_is_output: bool,
    /// Use type analysis to tell integers from float bits and pointers to
    /// integer-only memory.
    pub use_types: bool,
    /// Unknown memory is integer (`-enzyme-loose-types`) instead of an error.
    pub loose_types: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            ret_is_output: true,
            use_types: true,
            loose_types: false,
        }
    }
}

pub struct Activity {
    /// Active values: reached by a derivative and useful for an output. The
    /// modes give these (and only these) tangents/adjoints.
    pub varied: HashSet<V>,
    /// Values a derivative reaches (active or not).
    pub reached: HashSet<V>,
    /// Values that can reach an output (whether or not a derivative
    /// reaches them).
    pub useful: HashSet<V>,
    /// Function arguments with shadows (seeds).
    seeds: HashSet<V>,
    /// The type analysis the activity was computed with (when it owns one).
    pub types: Option<TypeResults>,
    /// The type trees of the arguments of each call to a function with a
    /// body, when the analysis owns its types.
    pub call_trees: HashMap<V, Vec<crate::analysis::types::TypeTree>>,
    /// Globals each callee touches (transitively), as the analysis found.
    touched: HashMap<V, HashSet<V>>,
}

/// What a memory transfer copies, for its derivative: float bytes get
/// adjoints in the reverse sweep; pointer bytes need their shadows copied in
/// the forward sweep (a shadow pointer is not an adjoint).
#[derive(Clone, Debug, PartialEq)]
pub enum CopyLayout {
    /// Nothing known: treated as floats.
    Unknown,
    /// Floats (and maybe integers), no pointers.
    Floats,
    /// Pointers (and maybe integers), no floats.
    Pointers,
    /// Both, at these exact byte offsets (constant length).
    Mixed {
        floats: Vec<(i64, crate::analysis::types::FloatKind)>,
        ptrs: Vec<i64>,
    },
    /// Both, at offsets not known exactly.
    MixedUnknown,
}

/// The tree LLVM's types give the `len` bytes memory transfer `i` copies:
/// the allocated type of an alloca, or the type a GEP with constant indices
/// selects, when its size is `len`.
fn ir_copied_tree(i: V, len: u64) -> Option<crate::analysis::types::TypeTree> {
    let lay = crate::analysis::types::layout::Layout::new(module_of(inst_fn(i)));
    for p in [operand(i, 0), operand(i, 1)] {
        let ty = match opcode(p) {
            Some(LLVMOpcode::LLVMAlloca) => Some(allocated_type(p)),
            Some(LLVMOpcode::LLVMGetElementPtr) => gep_result_type(p),
            _ => None,
        };
        if let Some(t) = ty {
            if lay.alloc_size(t) == len {
                return Some(lay.type_tree(t, false));
            }
        }
    }
    None
}

/// The type a GEP with constant indices selects (its source type indexed).
fn gep_result_type(g: V) -> Option<T> {
    let mut t = gep_source_type(g);
    for (k, idx) in operands(g).into_iter().skip(1).enumerate() {
        if k == 0 {
            continue; // steps over whole objects
        }
        t = if is_struct(t) {
            let f = const_int_value(idx)?;
            *struct_fields(t).get(f as usize)?
        } else if is_array(t) || is_vector(t) {
            elem_type(t)
        } else {
            return None;
        };
    }
    Some(t)
}

/// State of one analysis.
struct Run<'a> {
    reached: HashSet<V>,
    seeds: HashSet<V>,
    types: Option<&'a TypeResults>,
    cfg: &'a Config,
    primal: V,
    /// Globals each function touches (transitively through its callees).
    touched: HashMap<V, HashSet<V>>,
}

impl Activity {
    /// Whether the callee of `call` (or a function it calls) touches a
    /// global that carries derivatives: a call without active arguments
    /// or result that must still be differentiated (it moves adjoints
    /// between globals).
    pub fn call_touches_reached_global(&self, call: V) -> bool {
        let Some(f) = called_function(call).filter(|f| !is_declaration(*f)) else {
            return false;
        };
        let g = match self.touched.get(&f) {
            Some(s) => s.clone(),
            None => globals_touched_by(f),
        };
        g.iter().any(|x| self.reached.contains(x))
    }

    /// Whether `v` is active (gets a tangent/adjoint).
    pub fn is_varied(&self, v: V) -> bool {
        self.varied.contains(&v)
    }

    /// Same as [`Self::is_varied`].
    pub fn is_active(&self, v: V) -> bool {
        self.varied.contains(&v)
    }

    /// Whether integer `v` is varied and type analysis says it holds a
    /// float's bits (not merely unknown data that may).
    pub fn is_float_bits(&self, v: V) -> bool {
        self.varied.contains(&v)
            && self
                .types
                .as_ref()
                .is_some_and(|t| matches!(t.base(v), Base::Float(_)))
    }

    /// Whether a derivative reaches `v` (even if it cannot reach an output).
    pub fn is_reached(&self, v: V) -> bool {
        self.reached.contains(&v)
    }

    /// Drop `v` (an instruction about to be erased) from every set.
    pub fn forget(&mut self, v: V) {
        self.varied.remove(&v);
        self.reached.remove(&v);
        self.useful.remove(&v);
        self.call_trees.remove(&v);
    }

    /// Whether `v` can reach an output.
    pub fn is_useful(&self, v: V) -> bool {
        self.useful.contains(&v)
    }

    /// Analyse `f`; `seeds` are the arguments that carry derivatives
    /// (dup pointers, active floats). `primal` names the user's function
    /// for error messages. The return value is taken as an output. `arg_trees`
    /// are type trees for `f`'s parameters; `cx` what the pass knows about
    /// the module (options, active globals).
    pub fn analyse_args(
        f: V,
        seeds: &[V],
        primal: V,
        arg_trees: &[crate::analysis::types::TypeTree],
        cx: &ModuleCx,
    ) -> Result<Activity> {
        let cfg = Config {
            loose_types: cx.loose_types,
            ..Config::default()
        };
        Activity::analyse_seeded(f, seeds, primal, &cfg, arg_trees, &cx.globals)
    }

    /// The type trees of `call`'s arguments in this analysis (taken before
    /// the modes rewrite the function).
    pub fn arg_trees(&self, call: V) -> Vec<crate::analysis::types::TypeTree> {
        self.call_trees.get(&call).cloned().unwrap_or_default()
    }

    /// As [`Self::analyse_args`], with a configuration of the caller's
    /// choosing and the module's active globals (`ActiveGlobals::of`).
    pub fn analyse_with(
        f: V,
        seeds: &[V],
        primal: V,
        cfg: &Config,
        globals: &HashSet<V>,
    ) -> Result<Activity> {
        Activity::analyse_seeded(f, seeds, primal, cfg, &[], globals)
    }

    /// As [`Self::analyse_with`], the type analysis starting from these
    /// trees for `f`'s parameters (what a caller knows about them).
    pub fn analyse_seeded(
        f: V,
        seeds: &[V],
        primal: V,
        cfg: &Config,
        arg_trees: &[crate::analysis::types::TypeTree],
        globals: &HashSet<V>,
    ) -> Result<Activity> {
        let types = if cfg.use_types {
            Some(
                TypeAnalysis::analyse(module_of(f), f, arg_trees).with_loose_types(cfg.loose_types),
            )
        } else {
            None
        };
        let mut a = Activity::analyse_typed(f, seeds, primal, cfg, types.as_ref(), globals)?;
        if let Some(t) = &types {
            for bb in blocks(f) {
                for i in instructions(bb) {
                    if is_call(i) && called_function(i).is_some_and(|c| !is_declaration(c)) {
                        let trees = call_args(i).into_iter().map(|a| t.query(a)).collect();
                        a.call_trees.insert(i, trees);
                    }
                }
            }
        }
        a.types = types;
        Ok(a)
    }

    /// As [`Self::analyse_with`], with type analysis results of the caller's
    /// choosing (they must cover `f`).
    pub fn analyse_typed(
        f: V,
        seeds: &[V],
        primal: V,
        cfg: &Config,
        types: Option<&TypeResults>,
        globals: &HashSet<V>,
    ) -> Result<Activity> {
        let mut r = Run {
            reached: seeds.iter().copied().collect(),
            seeds: seeds.iter().copied().collect(),
            types,
            cfg,
            primal,
            touched: HashMap::new(),
        };
        // Globals that hold active floats somewhere in the module.
        r.reached.extend(globals.iter().copied());
        let order: Vec<V> = rpo(f).into_iter().flat_map(instructions).collect();
        loop {
            let mut changed = false;
            for &i in &order {
                // A constant expression into a reached global (`gep (@g,
                // 0, 1)`, as clang folds `g[1]`) is reached with it.
                for o in operands(i) {
                    if !r.reached.contains(&o)
                        && const_ptr_global(o).map_or(false, |g| r.reached.contains(&g))
                    {
                        r.reached.insert(o);
                        changed = true;
                    }
                }
                if !r.reached.contains(&i) && r.flows_into(i)? {
                    r.reached.insert(i);
                    changed = true;
                }
                changed |= r.memory_effects(i)?;
            }
            if !changed {
                break;
            }
        }
        super::escape::check(&order, &r.reached, primal)?;
        let useful = r.useful(&order);
        // ENZYME_RS_NO_USEFUL=1 keeps every reached value (to measure what
        // the useful pass saves).
        let all_reached = crate::options::switches::no_useful();
        let varied = r
            .reached
            .iter()
            .copied()
            .filter(|v| all_reached || useful.contains(v))
            .collect();
        Ok(Activity {
            varied,
            reached: r.reached,
            useful,
            seeds: r.seeds,
            types: None,
            call_trees: HashMap::new(),
            touched: r.touched,
        })
    }

    /// What the bytes a memcpy/memmove `i` copies hold, from the type
    /// analysis (see [`CopyLayout`]).
    pub fn copy_layout(&self, i: V) -> CopyLayout {
        let Some(t) = self.types.as_ref() else {
            return CopyLayout::Unknown;
        };
        let len = const_int_value(operand(i, 2));
        let tree = match len {
            Some(n) if n > 0 => t.memory_at(operand(i, 0), 0, n as u64).join(&t.memory_at(
                operand(i, 1),
                0,
                n as u64,
            )),
            _ => t
                .query(operand(i, 0))
                .pointee()
                .join(&t.query(operand(i, 1)).pointee()),
        };
        let (mut floats, mut ptrs, mut exact) = (Vec::new(), Vec::new(), true);
        // Nothing known from the accesses (a callee analysed without its
        // callers' types): what clang's IR types say about the copied
        // object, when one of the pointers is an alloca or a struct GEP of
        // exactly the copied size.
        let tree = if tree
            .first_level()
            .all(|(_, b)| !b.is_known() || b == Base::Anything)
        {
            match len.and_then(|n| ir_copied_tree(i, n as u64)) {
                Some(t) => t,
                None => tree,
            }
        } else {
            tree
        };
        for (o, b) in tree.first_level() {
            match b {
                Base::Float(k) => floats.push((o.start, k)),
                Base::Pointer => ptrs.push(o.start),
                _ => continue,
            }
            exact &= o.is_exact();
        }
        if floats.is_empty() && ptrs.is_empty() {
            log::debug!(
                "copy layout unknown: {} bytes in {} (dst {}, src {})",
                len.map_or("a variable number of".into(), |n| n.to_string()),
                name(inst_fn(i)),
                t.query(operand(i, 0)),
                t.query(operand(i, 1))
            );
            return CopyLayout::Unknown;
        }
        if floats.is_empty() {
            return CopyLayout::Pointers;
        }
        if ptrs.is_empty() {
            return CopyLayout::Floats;
        }
        match len {
            Some(n) if exact => CopyLayout::Mixed {
                floats: floats.into_iter().filter(|(o, _)| *o < n as i64).collect(),
                ptrs: ptrs.into_iter().filter(|o| o + 8 <= n as i64).collect(),
            },
            _ => CopyLayout::MixedUnknown,
        }
    }

    /// The seeds this analysis started from.
    pub fn seeds(&self) -> &HashSet<V> {
        &self.seeds
    }
}

impl Run<'_> {
    fn any_operand_reached(&self, i: V) -> bool {
        operands(i).into_iter().any(|o| self.reached.contains(&o))
    }

    /// Type analysis says pointer `p` points to memory holding no floats.
    fn integer_memory(&self, p: V) -> bool {
        is_ptr(type_of(p)) && self.types.map(|t| t.holds_no_floats(p)).unwrap_or(false)
    }

    /// Whether a derivative flows into instruction `i` from its operands.
    fn flows_into(&mut self, i: V) -> Result<bool> {
        use LLVMOpcode::*;
        let t = type_of(i);
        let Some(op) = opcode(i) else {
            return Ok(false);
        };
        if is_ptr(t) && self.integer_memory(i) {
            return Ok(false);
        }
        Ok(match op {
            LLVMLoad => {
                let p = operand(i, 0);
                if !self.reached.contains(&p) || has_flag(i, crate::modes::loops::pair::CONST_ARG) {
                    return Ok(false);
                }
                if may_carry_derivative(t) {
                    return Ok(true);
                }
                if !is_int_like(t) {
                    self.check_narrow_copy(i)?;
                    return Ok(false);
                }
                self.int_carries_bits(i)?
            }
            LLVMBitCast => {
                // float <-> integer punning keeps the shadow bits.
                self.any_operand_reached(i)
                    && (may_carry_derivative(t)
                        || (is_int_like(t) && contains_fp(type_of(operand(i, 0)))))
            }
            LLVMAlloca => false, // only through memory_effects
            LLVMCall | LLVMInvoke => {
                if !may_carry_derivative(t) {
                    return Ok(false);
                }
                match rules::classify(i) {
                    // Allocations only through memory_effects (or realloc of
                    // reached); a loop driver returns its runtime's context.
                    CallKind::Alloc(_)
                    | CallKind::AllocOut
                    | CallKind::Inactive
                    | CallKind::LoopDriver(_) => return Ok(false),
                    _ => {}
                }
                call_args(i).into_iter().any(|o| self.reached.contains(&o))
                    || self.callee_reads_active_global(i)
            }
            LLVMICmp | LLVMFCmp | LLVMPtrToInt | LLVMFPToSI | LLVMFPToUI | LLVMSIToFP
            | LLVMUIToFP | LLVMIntToPtr => false,
            LLVMPHI | LLVMSelect | LLVMExtractValue | LLVMExtractElement | LLVMFreeze
                if is_int_like(t) =>
            {
                // Integers carry a derivative only as a float's bits.
                self.any_operand_reached(i) && self.int_is_float_bits(i)
            }
            _ => may_carry_derivative(t) && self.any_operand_reached(i),
        })
    }

    /// An integer load from reached memory: does it carry float (or
    /// pointer) bits? Type analysis answers; unknown memory that is copied
    /// on (stored or reinterpreted) is an error unless loose types are on.
    fn int_carries_bits(&self, load: V) -> Result<bool> {
        let Some(types) = self.types else {
            return Ok(carries_bits(load));
        };
        match types.base(load) {
            Base::Float(_) | Base::Pointer => Ok(true),
            Base::Integer | Base::Anything => Ok(false),
            Base::Unknown => {
                if !carries_bits(load) || self.cfg.loose_types {
                    return Ok(false);
                }
                let p = operand(load, 0);
                types.is_float_at(p, 0, load).map(|k| k.is_some())
            }
        }
    }

    /// An integer narrower than any float (a byte) loaded from reached
    /// memory and copied on: if it may be a piece of a float, its derivative
    /// cannot follow it (a byte holds no adjoint), so this is an error
    /// rather than a silent zero. Bytes known to be integer data are fine.
    fn check_narrow_copy(&self, load: V) -> Result<()> {
        let t = type_of(load);
        // (A bool, or any integer narrower than a byte, is no piece of a
        // float's bytes: a branch decision kept on a derivative's tape.)
        if !is_int(t) || int_width(t) < 8 || !carries_bits(load) {
            return Ok(());
        }
        let Some(types) = self.types else {
            return Ok(());
        };
        let float_piece = match types.base(load) {
            Base::Float(_) => true,
            Base::Integer | Base::Anything | Base::Pointer => false,
            Base::Unknown => !self.cfg.loose_types && !types.holds_no_floats(operand(load, 0)),
        };
        if !float_piece {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::Unsupported(format!(
                "memory that may hold active floating-point data is copied through {}-bit integers (a byte-wise copy loop); the derivative cannot follow a float split into pieces: copy it with memcpy or as a whole float (or pass -mllvm -enzyme-loose-types if these bytes hold no floats)",
                int_width(t)
            )),
            self.primal,
            Some(load),
        ))
    }

    /// An integer computed from reached values: a float's bits only if type
    /// analysis says so (or cannot say otherwise).
    fn int_is_float_bits(&self, i: V) -> bool {
        match self.types {
            None => false,
            Some(t) => matches!(t.base(i), Base::Float(_) | Base::Pointer),
        }
    }

    fn callee_reads_active_global(&mut self, call: V) -> bool {
        let Some(f) = called_function(call) else {
            return false;
        };
        if is_declaration(f) {
            return false;
        }
        let g = self.globals_touched(f);
        g.iter().any(|x| self.reached.contains(x))
    }

    fn globals_touched(&mut self, f: V) -> HashSet<V> {
        if let Some(s) = self.touched.get(&f) {
            return s.clone();
        }
        let out = globals_touched_by(f);
        self.touched.insert(f, out.clone());
        out
    }

    /// Memory effects of `i`: marks allocations reached. Returns whether
    /// anything changed.
    fn memory_effects(&mut self, i: V) -> Result<bool> {
        use LLVMOpcode::*;
        let Some(op) = opcode(i) else {
            return Ok(false);
        };
        let mut changed = false;
        match op {
            LLVMStore => {
                let v = operand(i, 0);
                if self.reached.contains(&v) {
                    changed |= self.mark_memory(operand(i, 1), i)?;
                } else if is_ptr(type_of(v))
                    && self.reached.contains(&operand(i, 1))
                    && !has_flag(i, crate::modes::loops::pair::CONST_ARG)
                {
                    // A pointer stored into a slot that has a shadow (e.g. a
                    // local `double *p = malloc(..)` at -O0): loads from the
                    // slot read the shadow pointer, so the stored pointer
                    // needs one too (an error for a constant argument).
                    changed |= self.mark_memory(v, i)?;
                }
            }
            LLVMRet if num_operands(i) > 0 && !self.seeds.is_empty() => {
                // A returned pointer gets a shadow (the derivative returns
                // one when any argument has a shadow): a pointer read from
                // a local slot (`return iterator(nullptr)` at -O0) needs
                // the slot's shadow, as for a merge of pointers.
                let v = operand(i, 0);
                if is_ptr(type_of(v)) && !self.reached.contains(&v) {
                    changed |= self.mark_local_memory(v);
                    for root in underlying_objects(v) {
                        if opcode(root) != Some(LLVMOpcode::LLVMLoad) {
                            continue;
                        }
                        for slot in underlying_objects(operand(root, 0)) {
                            if opcode(slot) == Some(LLVMOpcode::LLVMAlloca)
                                && self.reached.insert(slot)
                            {
                                changed = true;
                            }
                        }
                    }
                }
            }
            LLVMAtomicRMW | LLVMAtomicCmpXchg => {
                if self.any_operand_reached(i) {
                    changed |= self.mark_memory(operand(i, 0), i)?;
                }
            }
            LLVMCall | LLVMInvoke => {
                let kind = rules::classify(i);
                if let Some(a) = masked_access(i) {
                    // As for a load or a store (rules/vecmem.rs).
                    if let Some(v) = a.value {
                        if self.reached.contains(&v) {
                            changed |= self.mark_memory(a.ptr, i)?;
                        } else if contains_ptr(type_of(v)) && self.reached.contains(&a.ptr) {
                            changed |= self.mark_memory(v, i)?;
                        }
                    }
                } else if let CallKind::MemTransfer(k) = kind {
                    if k != rules::MemKind::Set && self.reached.contains(&operand(i, 1)) {
                        changed |= self.mark_memory(operand(i, 0), i)?;
                    }
                } else if let CallKind::Alloc(rules::AllocKind::Realloc { .. }) = kind {
                    if self.reached.contains(&operand(i, 0)) && !self.reached.contains(&i) {
                        self.reached.insert(i);
                        changed = true;
                    }
                } else if let CallKind::Mpi(k) = kind {
                    changed |= self.mpi_effects(i, k)?;
                } else if matches!(kind, CallKind::ShadowReplay)
                    && call_args(i).iter().any(|a| self.reached.contains(a))
                {
                    // Run again on the shadows (a red-black tree's links):
                    // every pointer argument needs its shadow, float
                    // memory or not (a node base holds only pointers).
                    for a in call_args(i) {
                        if is_ptr(type_of(a)) && !self.reached.contains(&a) {
                            changed |= self.mark_local_memory(a);
                        }
                    }
                } else if !kind.is_pure_value() && !matches!(kind, CallKind::AllocOut) {
                    // A call that may write active data through pointer
                    // arguments: local allocations passed to it get shadows.
                    if call_args(i).iter().any(|a| self.reached.contains(a))
                        || self.callee_reads_active_global(i)
                    {
                        for a in call_args(i) {
                            // A parallel region reads the pointers its
                            // captured pointer variables hold; they need
                            // shadows only when the stored pointer has one.
                            let captured_ptr = matches!(kind, CallKind::OpenMp(_))
                                && crate::ir::omp::alloca_holds_pointer(a);
                            if captured_ptr {
                                // The region may write active data into a
                                // local allocation the variable points to.
                                for v in crate::ir::omp::pointers_stored_into(a) {
                                    changed |= self.mark_local_memory(v);
                                }
                            }
                            if is_ptr(type_of(a))
                                && !captured_ptr
                                && !self.reached.contains(&a)
                                && !self.integer_memory(a)
                            {
                                changed |= self.mark_local_memory(a);
                            }
                        }
                    }
                }
            }
            LLVMPHI | LLVMSelect => {
                // A reached pointer merged with others: all of them need shadows.
                if is_ptr(type_of(i)) && self.reached.contains(&i) {
                    for o in operands(i) {
                        if is_ptr(type_of(o)) && !self.reached.contains(&o) {
                            changed |= self.mark_local_memory(o);
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(changed)
    }

    /// An MPI call: request slots of floating-point messages get shadows
    /// (their derivative's request travels there); receive buffers get
    /// shadows once any buffer this function sends is reached (the peer
    /// may run this same code with active data).
    fn mpi_effects(&mut self, i: V, k: rules::mpi::MpiCall) -> Result<bool> {
        let l = rules::mpi::layout(k);
        let mut changed = false;
        let floats = |ps: &[(u32, u32)]| {
            ps.iter()
                .any(|(_, dt)| rules::mpi::may_be_float(operand(i, *dt)))
        };
        if let (Some(r), true) = (l.request, floats(&l.sends) || floats(&l.recvs)) {
            changed |= self.mark_memory(operand(i, r), i)?;
        }
        if l.recvs.is_empty() {
            return Ok(changed);
        }
        let sent = rules::mpi::send_buffers(inst_fn(i)).into_iter().any(|b| {
            self.reached.contains(&b)
                || underlying_objects(b)
                    .iter()
                    .any(|o| self.reached.contains(o))
        });
        if sent {
            for (b, dt) in l.recvs {
                if rules::mpi::may_be_float(operand(i, dt)) {
                    changed |= self.mark_memory(operand(i, b), i)?;
                }
            }
        }
        Ok(changed)
    }

    /// Mark the allocations `p` may point into as reached (they get shadows).
    fn mark_memory(&mut self, p: V, at: V) -> Result<bool> {
        self.mark_memory_from(p, at, &mut HashSet::new())
    }

    /// [`Self::mark_memory`], `seen` holding the loads already followed (a
    /// pointer chased through memory in a loop, `p = p->next`, is its own
    /// root).
    fn mark_memory_from(&mut self, p: V, at: V, seen: &mut HashSet<V>) -> Result<bool> {
        let mut changed = false;
        let primal = self.primal;
        for root in underlying_objects(p) {
            if self.reached.contains(&root) {
                continue;
            }
            if is_argument(root) {
                if self.seeds.contains(&root) {
                    continue;
                }
                return Err(Error::new(
                    ErrorKind::Unsupported(format!(
                        "the memory argument {} of '{}' points to needs a shadow (the pointer is stored into memory that has one, or active data goes there), but the argument has none (it is enzyme_const or an integer): pass it with enzyme_dup and a shadow",
                        describe_arg(root, &self.seeds),
                        name(primal)
                    )),
                    primal,
                    Some(at),
                ));
            }
            if is_constant(root) && !is_global_var(root) {
                continue; // null, undef: no memory
            }
            match opcode(root) {
                Some(LLVMOpcode::LLVMLoad) => {
                    // A pointer loaded from memory: its shadow is loaded from
                    // the shadow of that memory, which must then exist.
                    if seen.insert(root) {
                        changed |= self.mark_memory_from(operand(root, 0), at, seen)?;
                    }
                }
                Some(LLVMOpcode::LLVMIntToPtr)
                    if without_provenance(root, Params::FromCallers(Some(primal), 3)) =>
                {
                    // An address without provenance (Rust's dangling
                    // pointer of an empty Vec): no memory to shadow.
                }
                Some(LLVMOpcode::LLVMIntToPtr) => {
                    return Err(Error::new(
                        ErrorKind::Unsupported("an active value is stored through a pointer made from an integer (inttoptr); its shadow is unknown".into()),
                        primal,
                        Some(at),
                    ));
                }
                Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke)
                    if !matches!(rules::classify(root), CallKind::Alloc(_)) =>
                {
                    // A pointer a function returns (an accessor such as
                    // `unique_ptr::operator[]` at -O0) may point into memory
                    // reached from its pointer arguments: their local
                    // memory needs shadows too, for the callee's augmented
                    // version to return the shadow pointer.
                    self.reached.insert(root);
                    changed = true;
                    for a in call_args(root) {
                        if is_ptr(type_of(a)) && !self.reached.contains(&a) {
                            changed |= self.mark_local_memory(a);
                        }
                    }
                }
                Some(LLVMOpcode::LLVMExtractValue) if pointer_result_call(root).is_some() => {
                    // A pointer returned inside a struct ({ptr, ptr} of
                    // std::map's insert position at -O2): as for a call.
                    changed |= self.mark_local_memory(root);
                }
                _ => {
                    self.reached.insert(root);
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// Like mark_memory, but only for allocations local to the function
    /// (allocas and heap allocations); others are left alone.
    fn mark_local_memory(&mut self, p: V) -> bool {
        let mut changed = false;
        for root in underlying_objects(p) {
            if self.reached.contains(&root) {
                continue;
            }
            if is_local_allocation(root) {
                self.reached.insert(root);
                changed = true;
            } else if opcode(root) == Some(LLVMOpcode::LLVMLoad) && is_ptr(type_of(root)) {
                changed |= self.mark_local_slot(operand(root, 0), &mut HashSet::new());
            } else if let Some(call) = pointer_result_call(root).filter(|c| {
                opcode(root) == Some(LLVMOpcode::LLVMExtractValue)
                    || !derived_from_constant_arg(*c, &self.seeds)
            }) {
                // A pointer a function returns (an accessor such as
                // `vector::operator[]` at -O0, unless what it indexes comes
                // from a constant argument: no shadow there) or returns
                // inside a struct (std::map's insert position {ptr, ptr}
                // at -O2): it may point into memory
                // reached from the call's pointer arguments, whose local
                // memory gets shadows so the callee's augmented version
                // returns the shadow pointers.
                self.reached.insert(root);
                self.reached.insert(call);
                changed = true;
                for a in call_args(call) {
                    if is_ptr(type_of(a)) && !self.reached.contains(&a) {
                        changed |= self.mark_local_memory(a);
                    }
                }
            }
        }
        changed
    }

    /// Whether a write through `p` can be observed: it may reach memory
    /// that is not a local allocation, or a local allocation whose contents
    /// are used (`useful`).
    fn observable(&self, p: V, useful: &HashSet<V>) -> bool {
        underlying_objects(p)
            .into_iter()
            .any(|r| !is_local_allocation(r) || useful.contains(&r))
    }

    /// The backward fixed point: values that can reach an output.
    fn useful(&mut self, order: &[V]) -> HashSet<V> {
        use LLVMOpcode::*;
        let mut useful: HashSet<V> = HashSet::new();
        let mut work: Vec<V> = Vec::new();
        let mut roots_done: HashSet<V> = HashSet::new();
        loop {
            // Roots: instructions whose effect is an output.
            for &i in order {
                if roots_done.contains(&i) {
                    continue;
                }
                let Some(op) = opcode(i) else { continue };
                let root = match op {
                    LLVMRet => self.cfg.ret_is_output && num_operands(i) > 0,
                    LLVMStore => {
                        self.reached.contains(&operand(i, 1))
                            && self.observable(operand(i, 1), &useful)
                    }
                    LLVMAtomicRMW | LLVMAtomicCmpXchg => {
                        self.reached.contains(&operand(i, 0))
                            && self.observable(operand(i, 0), &useful)
                    }
                    LLVMCall | LLVMInvoke => {
                        match rules::classify(i) {
                            // A masked store or scatter: as for a store.
                            CallKind::Rule(r) if r.masked.is_some() => {
                                masked_access(i).filter(|a| a.op.writes()).is_some_and(|a| {
                                    self.reached.contains(&a.ptr) && self.observable(a.ptr, &useful)
                                })
                            }
                            CallKind::MemTransfer(_) => {
                                self.reached.contains(&operand(i, 0))
                                    && self.observable(operand(i, 0), &useful)
                            }
                            CallKind::Alloc(_)
                            | CallKind::AllocOut
                            | CallKind::Inactive
                            | CallKind::Rule(_) => false,
                            // May have effects through its arguments or globals.
                            _ => true,
                        }
                    }
                    _ => false,
                };
                if root {
                    roots_done.insert(i);
                    useful.insert(i);
                    work.push(i);
                }
            }
            if work.is_empty() {
                break;
            }
            while let Some(v) = work.pop() {
                if !is_instruction(v) && (is_global_var(v) || const_ptr_global(v).is_none()) {
                    continue;
                }
                // A comparison's result carries no derivative: its operands
                // are needed as values, not as adjoints (a running max's
                // value used only by its comparisons stays inactive).
                if matches!(opcode(v), Some(LLVMFCmp | LLVMICmp)) {
                    continue;
                }
                for o in operands(v) {
                    if (is_instruction(o)
                        || is_argument(o)
                        || is_global_var(o)
                        || const_ptr_global(o).is_some())
                        && !useful.contains(&o)
                    {
                        useful.insert(o);
                        work.push(o);
                    }
                }
            }
        }
        useful
    }

    /// A pointer kept in a local variable (a slot, at -O0) and loaded back:
    /// when a local allocation is stored in the slot, the allocation and
    /// the slot get shadows, so the load hands the allocation's shadow on.
    /// Slots holding only other pointers (constant arguments) are left alone.
    fn mark_local_slot(&mut self, slot: V, seen: &mut HashSet<V>) -> bool {
        if !seen.insert(slot) || opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
            return false;
        }
        let mut changed = false;
        let mut holds_shadowed = false;
        let holds_ptr = is_ptr(allocated_type(slot));
        for u in users(slot) {
            if holds_ptr && is_call(u) && call_args(u).contains(&slot) && !is_inactive_call(u) {
                // A callee may store a pointer into the slot (an out
                // parameter, `make(&buf)`): give the slot a shadow, so the
                // callee's derivative stores the shadow pointer there.
                if matches!(
                    rules::classify(u),
                    CallKind::Defined(_) | CallKind::Custom(_)
                ) && called_function(u).map_or(false, |f| !is_declaration(f))
                {
                    holds_shadowed = true;
                }
                continue;
            }
            if opcode(u) != Some(LLVMOpcode::LLVMStore) || operand(u, 1) != slot {
                continue;
            }
            let v = operand(u, 0);
            if !is_ptr(type_of(v)) {
                continue;
            }
            for root in underlying_objects(v) {
                if opcode(root) == Some(LLVMOpcode::LLVMLoad) {
                    changed |= self.mark_local_slot(operand(root, 0), seen);
                } else {
                    changed |= self.mark_local_memory(root);
                }
                holds_shadowed |= self.reached.contains(&root);
            }
        }
        if holds_shadowed && !self.reached.contains(&slot) {
            self.reached.insert(slot);
            changed = true;
        }
        changed
    }
}

pub use crate::rules::classify::{is_inactive_call, is_inactive_function};

/// An argument as the user sees it: its position among the primal
/// function's parameters (the derivative has a shadow parameter after each
/// seed, which is skipped in the count).
fn describe_arg(a: V, seeds: &HashSet<V>) -> String {
    let n = name(a);
    let f = param_parent(a);
    let mut idx = 0;
    let mut skip = false;
    for p in params(f) {
        if std::mem::take(&mut skip) {
            continue;
        }
        idx += 1;
        if p == a {
            break;
        }
        skip = seeds.contains(&p);
    }
    if n.is_empty() {
        format!("#{idx}")
    } else {
        format!("#{idx} '{n}'")
    }
}

/// Integers (and integer vectors) wide enough to hold a float's bits.
fn is_int_like(t: T) -> bool {
    (is_int(t) && int_width(t) >= 16)
        || (is_vector(t) && is_int(elem_type(t)) && int_width(elem_type(t)) >= 16)
}

/// An integer loaded only to be stored or reinterpreted (a memory copy
/// through an integer register) carries the shadow's bits along.
fn carries_bits(load: V) -> bool {
    users(load).into_iter().any(|u| match opcode(u) {
        Some(LLVMOpcode::LLVMStore) => operand(u, 0) == load,
        Some(LLVMOpcode::LLVMBitCast) => contains_fp(type_of(u)),
        _ => false,
    })
}
