//! An IR builder with small methods named after what they build.
use super::llvm::*;
use crate::ir::sys::core::*;
use std::ffi::CString;

pub struct Builder {
    pub(super) raw: LLVMBuilderRef,
    pub ctx: LLVMContextRef,
    pub module: LLVMModuleRef,
    empty: CString,
}

impl Drop for Builder {
    fn drop(&mut self) {
        unsafe { LLVMDisposeBuilder(self.raw) }
    }
}

/// Positions `b` before instruction `i` and before the debug records
/// attached to it. LLVM 22 keeps debug info as records attached to the
/// instruction they precede; an instruction inserted right before `i` takes
/// them over (as `before` does, so that a terminator built before the one it
/// replaces keeps them), but a phi must not: phis are placed at the top of a
/// block through this.
unsafe fn position_at_head(b: LLVMBuilderRef, i: V) {
    #[cfg(feature = "llvm22-1")]
    LLVMPositionBuilderBeforeInstrAndDbgRecords(b, i);
    #[cfg(not(feature = "llvm22-1"))]
    LLVMPositionBuilderBefore(b, i);
}

impl Builder {
    pub fn new(module: LLVMModuleRef) -> Builder {
        unsafe {
            let ctx = LLVMGetModuleContext(module);
            Builder {
                raw: LLVMCreateBuilderInContext(ctx),
                ctx,
                module,
                empty: CString::new("").unwrap(),
            }
        }
    }

    /// A builder for the module of function `f`.
    pub fn for_function(f: V) -> Builder {
        Builder::new(module_of(f))
    }

    fn n(&self) -> *const std::os::raw::c_char {
        self.empty.as_ptr()
    }

    /// A copy of instruction `i` at the builder's position, with the
    /// listed operands replaced (`(index, value)`).
    pub fn clone_call_with(&self, i: V, ops: &[(u32, V)]) -> V {
        unsafe {
            let c = LLVMInstructionClone(i);
            LLVMInsertIntoBuilder(self.raw, c);
            for (k, v) in ops {
                LLVMSetOperand(c, *k, *v);
            }
            c
        }
    }

    /// Insert an instruction made elsewhere (e.g. by `clone_inst`) at the
    /// builder's position.
    pub fn insert(&self, i: V) {
        unsafe { LLVMInsertIntoBuilder(self.raw, i) }
    }

    /// A copy of instruction `i` at the builder's position.
    pub fn insert_clone(&self, i: V) -> V {
        let c = clone_inst(i);
        self.insert(c);
        c
    }

    // ----- positioning -----
    pub fn at_end(&self, bb: BB) {
        unsafe { LLVMPositionBuilderAtEnd(self.raw, bb) }
    }

    pub fn before(&self, i: V) {
        unsafe { LLVMPositionBuilderBefore(self.raw, i) }
    }

    /// Position right after instruction `i` (after all phis if `i` is a phi).
    pub fn after(&self, i: V) {
        unsafe {
            let mut next = LLVMGetNextInstruction(i);
            while !next.is_null() && !LLVMIsAPHINode(next).is_null() {
                next = LLVMGetNextInstruction(next);
            }
            if next.is_null() {
                LLVMPositionBuilderAtEnd(self.raw, LLVMGetInstructionParent(i));
            } else {
                LLVMPositionBuilderBefore(self.raw, next);
            }
        }
    }

    /// Position at the first non-phi instruction of a block.
    pub fn at_first_non_phi(&self, bb: BB) {
        unsafe {
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() && !LLVMIsAPHINode(i).is_null() {
                i = LLVMGetNextInstruction(i);
            }
            if i.is_null() {
                LLVMPositionBuilderAtEnd(self.raw, bb);
            } else {
                position_at_head(self.raw, i);
            }
        }
    }

    /// Position at the start of the entry block after its allocas.
    pub fn at_entry_allocas(&self, f: V) {
        unsafe {
            let bb = LLVMGetEntryBasicBlock(f);
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() && !LLVMIsAAllocaInst(i).is_null() {
                i = LLVMGetNextInstruction(i);
            }
            if i.is_null() {
                LLVMPositionBuilderAtEnd(self.raw, bb);
            } else {
                LLVMPositionBuilderBefore(self.raw, i);
            }
        }
    }

    pub fn block(&self) -> BB {
        unsafe { LLVMGetInsertBlock(self.raw) }
    }

    pub fn set_debug_loc_from(&self, inst: V) {
        unsafe {
            let loc = crate::ir::sys::debuginfo::LLVMInstructionGetDebugLoc(inst);
            LLVMSetCurrentDebugLocation2(self.raw, loc);
        }
    }

    pub fn clear_debug_loc(&self) {
        unsafe { LLVMSetCurrentDebugLocation2(self.raw, std::ptr::null_mut()) }
    }

    // ----- float arithmetic -----
    pub fn fadd(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildFAdd(self.raw, a, b, self.n()) }
    }
    pub fn fsub(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildFSub(self.raw, a, b, self.n()) }
    }
    pub fn fmul(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildFMul(self.raw, a, b, self.n()) }
    }
    pub fn fdiv(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildFDiv(self.raw, a, b, self.n()) }
    }
    pub fn fneg(&self, a: V) -> V {
        unsafe { LLVMBuildFNeg(self.raw, a, self.n()) }
    }
    pub fn fcmp(&self, p: LLVMRealPredicate, a: V, b: V) -> V {
        unsafe { LLVMBuildFCmp(self.raw, p, a, b, self.n()) }
    }
    pub fn icmp(&self, p: LLVMIntPredicate, a: V, b: V) -> V {
        unsafe { LLVMBuildICmp(self.raw, p, a, b, self.n()) }
    }
    pub fn select(&self, c: V, a: V, b: V) -> V {
        unsafe { LLVMBuildSelect(self.raw, c, a, b, self.n()) }
    }
    /// A float constant of the type of `like`.
    pub fn real_like(&self, like: V, x: f64) -> V {
        const_real(type_of(like), x)
    }
    /// `a * a`
    pub fn square(&self, a: V) -> V {
        self.fmul(a, a)
    }

    // ----- integer arithmetic -----
    pub fn add(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildAdd(self.raw, a, b, self.n()) }
    }
    pub fn sub(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildSub(self.raw, a, b, self.n()) }
    }
    pub fn udiv(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildUDiv(self.raw, a, b, self.n()) }
    }
    pub fn and(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildAnd(self.raw, a, b, self.n()) }
    }
    pub fn or(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildOr(self.raw, a, b, self.n()) }
    }
    pub fn mul(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildMul(self.raw, a, b, self.n()) }
    }
    pub fn nuw_add(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildNUWAdd(self.raw, a, b, self.n()) }
    }

    // ----- casts -----
    pub fn fp_cast(&self, v: V, to: T) -> V {
        unsafe { LLVMBuildFPCast(self.raw, v, to, self.n()) }
    }
    /// `freeze v`: the same value, held by an instruction of its own (it
    /// follows `v` when `v` is replaced).
    pub fn freeze(&self, v: V) -> V {
        unsafe { LLVMBuildFreeze(self.raw, v, self.n()) }
    }
    pub fn int_cast(&self, v: V, to: T, signed: bool) -> V {
        unsafe { LLVMBuildIntCast2(self.raw, v, to, signed as i32, self.n()) }
    }
    pub fn bitcast(&self, v: V, to: T) -> V {
        unsafe { LLVMBuildBitCast(self.raw, v, to, self.n()) }
    }
    pub fn cast(&self, op: LLVMOpcode, v: V, to: T) -> V {
        unsafe { LLVMBuildCast(self.raw, op, v, to, self.n()) }
    }
    /// Convert a float value to float type `to` (fpext/fptrunc, or no-op).
    pub fn float_to(&self, v: V, to: T) -> V {
        if type_of(v) == to {
            v
        } else {
            self.fp_cast(v, to)
        }
    }

    // ----- memory -----
    pub fn alloca(&self, t: T) -> V {
        unsafe { LLVMBuildAlloca(self.raw, t, self.n()) }
    }
    pub fn array_alloca(&self, t: T, n: V) -> V {
        unsafe { LLVMBuildArrayAlloca(self.raw, t, n, self.n()) }
    }
    pub fn load(&self, t: T, p: V) -> V {
        unsafe { LLVMBuildLoad2(self.raw, t, p, self.n()) }
    }
    pub fn store(&self, v: V, p: V) -> V {
        unsafe { LLVMBuildStore(self.raw, v, p) }
    }
    pub fn gep(&self, t: T, p: V, idx: &mut [V]) -> V {
        unsafe { LLVMBuildGEP2(self.raw, t, p, idx.as_mut_ptr(), idx.len() as u32, self.n()) }
    }
    pub fn inbounds_gep(&self, t: T, p: V, idx: &mut [V]) -> V {
        unsafe {
            LLVMBuildInBoundsGEP2(self.raw, t, p, idx.as_mut_ptr(), idx.len() as u32, self.n())
        }
    }
    pub fn memset(&self, p: V, byte: V, len: V, align: u32) -> V {
        unsafe { LLVMBuildMemSet(self.raw, p, byte, len, align) }
    }
    pub fn memcpy(&self, dst: V, src: V, len: V, align: u32) -> V {
        unsafe { LLVMBuildMemCpy(self.raw, dst, align, src, align, len) }
    }
    pub fn memmove(&self, dst: V, src: V, len: V, align: u32) -> V {
        unsafe { LLVMBuildMemMove(self.raw, dst, align, src, align, len) }
    }
    pub fn atomic_fadd(&self, p: V, v: V) -> V {
        unsafe {
            LLVMBuildAtomicRMW(
                self.raw,
                crate::ir::sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFAdd,
                p,
                v,
                crate::ir::sys::LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic,
                0,
            )
        }
    }

    // ----- aggregates and vectors -----
    pub fn extract_value(&self, agg: V, i: u32) -> V {
        unsafe { LLVMBuildExtractValue(self.raw, agg, i, self.n()) }
    }
    pub fn insert_value(&self, agg: V, v: V, i: u32) -> V {
        unsafe { LLVMBuildInsertValue(self.raw, agg, v, i, self.n()) }
    }
    pub fn extract_element(&self, vec: V, i: V) -> V {
        unsafe { LLVMBuildExtractElement(self.raw, vec, i, self.n()) }
    }
    pub fn insert_element(&self, vec: V, v: V, i: V) -> V {
        unsafe { LLVMBuildInsertElement(self.raw, vec, v, i, self.n()) }
    }
    pub fn shuffle(&self, a: V, b: V, mask: V) -> V {
        unsafe { LLVMBuildShuffleVector(self.raw, a, b, mask, self.n()) }
    }
    /// Build a struct value of type `t` from `fields`.
    pub fn make_struct(&self, t: T, fields: &[V]) -> V {
        let mut agg = unsafe { LLVMGetUndef(t) };
        for (i, f) in fields.iter().enumerate() {
            agg = self.insert_value(agg, *f, i as u32);
        }
        agg
    }

    // ----- control flow -----
    pub fn phi(&self, t: T) -> V {
        unsafe { LLVMBuildPhi(self.raw, t, self.n()) }
    }
    pub fn br(&self, bb: BB) -> V {
        unsafe { LLVMBuildBr(self.raw, bb) }
    }
    pub fn cond_br(&self, c: V, t: BB, e: BB) -> V {
        unsafe { LLVMBuildCondBr(self.raw, c, t, e) }
    }
    pub fn ret(&self, v: V) -> V {
        unsafe { LLVMBuildRet(self.raw, v) }
    }
    pub fn ret_void(&self) -> V {
        unsafe { LLVMBuildRetVoid(self.raw) }
    }
    pub fn unreachable(&self) -> V {
        unsafe { LLVMBuildUnreachable(self.raw) }
    }

    /// A `switch` on `v` with default `default` and room for `n` cases.
    pub fn switch(&self, v: V, default: BB, n: u32) -> V {
        unsafe { LLVMBuildSwitch(self.raw, v, default, n) }
    }

    /// A private global holding string `s`, as a pointer.
    pub fn global_string(&self, s: &str, name: &str) -> V {
        let (cs, cn) = (cstr(s), cstr(name));
        unsafe { LLVMBuildGlobalStringPtr(self.raw, cs.as_ptr(), cn.as_ptr()) }
    }

    // ----- calls -----
    pub fn call(&self, fty: T, f: V, args: &mut [V]) -> V {
        unsafe {
            LLVMBuildCall2(
                self.raw,
                fty,
                f,
                args.as_mut_ptr(),
                args.len() as u32,
                self.n(),
            )
        }
    }

    /// Call a function by value, using its declared type.
    pub fn call_fn(&self, f: V, args: &mut [V]) -> V {
        self.call(fn_type(f), f, args)
    }

    /// Call an overloaded LLVM intrinsic, e.g. `intrinsic("llvm.cos", &[double], ..)`.
    pub fn intrinsic(&self, name: &str, overload: &[T], args: &mut [V]) -> V {
        unsafe {
            let id = LLVMLookupIntrinsicID(name.as_ptr() as *const _, name.len());
            assert!(id != 0, "unknown intrinsic {name}");
            let mut tys = overload.to_vec();
            let f = LLVMGetIntrinsicDeclaration(self.module, id, tys.as_mut_ptr(), tys.len());
            let fty = LLVMIntrinsicGetType(self.ctx, id, tys.as_mut_ptr(), tys.len());
            self.call(fty, f, args)
        }
    }

    /// A unary float intrinsic over the type of `x` (`llvm.cos`, `llvm.exp`...).
    pub fn unary_intrinsic(&self, name: &str, x: V) -> V {
        self.intrinsic(name, &[type_of(x)], &mut [x])
    }

    pub fn binary_intrinsic(&self, name: &str, x: V, y: V) -> V {
        self.intrinsic(name, &[type_of(x)], &mut [x, y])
    }

    /// Call a C math library function `base` for the float type of `x`:
    /// `cosh` for double, `coshf` for float, `coshl` for x86_fp80/fp128.
    pub fn libm(&self, base: &str, args: &mut [V]) -> V {
        let t = type_of(args[0]);
        if is_vector(t) {
            // Scalarize vector calls to libm.
            let n = vector_size(t);
            let mut out = unsafe { LLVMGetUndef(t) };
            for lane in 0..n {
                let idx = const_i32(self.ctx, lane as i64);
                let mut scalars: Vec<V> =
                    args.iter().map(|a| self.extract_element(*a, idx)).collect();
                let r = self.libm(base, &mut scalars);
                out = self.insert_element(out, r, idx);
            }
            return out;
        }
        let suffix = match kind(t) {
            LLVMTypeKind::LLVMFloatTypeKind => "f",
            LLVMTypeKind::LLVMDoubleTypeKind => "",
            _ => "l",
        };
        let name = format!("{base}{suffix}");
        let mut ptys: Vec<T> = args.iter().map(|a| type_of(*a)).collect();
        let fty = fn_type_of(t, &mut ptys, false);
        let f = get_or_declare(self.module, &name, fty);
        self.call(fty, f, args)
    }

    pub fn malloc(&self, size: V) -> V {
        let ctx = self.ctx;
        let fty = fn_type_of(ptr_type(ctx), &mut [i64_type(ctx)], false);
        let f = get_or_declare(self.module, "malloc", fty);
        let size = self.int_cast(size, i64_type(ctx), false);
        self.call(fty, f, &mut [size])
    }

    pub fn free(&self, p: V) -> V {
        let ctx = self.ctx;
        let fty = fn_type_of(void_type(ctx), &mut [ptr_type(ctx)], false);
        let f = get_or_declare(self.module, "free", fty);
        self.call(fty, f, &mut [p])
    }

    /// `malloc_usable_size(p)` (i64): the bytes heap block `p` may use,
    /// at least those asked for (0 for null).
    pub fn malloc_usable_size(&self, p: V) -> V {
        let ctx = self.ctx;
        let fty = fn_type_of(i64_type(ctx), &mut [ptr_type(ctx)], false);
        let f = get_or_declare(self.module, "malloc_usable_size", fty);
        self.call(fty, f, &mut [p])
    }

    pub fn realloc(&self, p: V, size: V) -> V {
        let ctx = self.ctx;
        let fty = fn_type_of(ptr_type(ctx), &mut [ptr_type(ctx), i64_type(ctx)], false);
        let f = get_or_declare(self.module, "realloc", fty);
        let size = self.int_cast(size, i64_type(ctx), false);
        self.call(fty, f, &mut [p, size])
    }

    /// Zero `len` bytes at `p`.
    pub fn zero_bytes(&self, p: V, len: V) -> V {
        let len = self.int_cast(len, i64_type(self.ctx), false);
        self.memset(p, unsafe { LLVMConstInt(i8_type(self.ctx), 0, 0) }, len, 1)
    }
}

/// Add case `v => bb` to a switch instruction.
pub fn add_case(switch: V, v: V, bb: BB) {
    unsafe { LLVMAddCase(switch, v, bb) }
}
