//! Typed handles tied to the module they belong to: a first layer over the
//! raw `V`/`T`/`BB` handles, in the way rustc's `&'ll Value` ties values to
//! their LLVM context.
//!
//! [`in_module`] opens a scope over one module; the scope's lifetime `'m`
//! is a brand (invariant, and fresh for every scope), so a [`Value<'m>`],
//! [`Type<'m>`] or [`Block<'m>`] made in one scope cannot be handed to a
//! builder of another module's scope, nor outlive the scope, without an
//! explicit `raw()`. Code moves to it one layer at a time: the tape's
//! runtime helpers (`modes/reverse/tape.rs`) are built through it; the
//! rest of the plugin still uses the raw handles, and [`Scope::adopt`] /
//! `raw()` convert at the boundary.
use super::llvm::*;
use super::Builder;
use std::marker::PhantomData;

/// An invariant lifetime brand.
type Brand<'m> = PhantomData<fn(&'m ()) -> &'m ()>;

/// A value of the module of scope `'m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value<'m>(V, Brand<'m>);

/// A type of the context of scope `'m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Type<'m>(T, Brand<'m>);

/// A basic block of a function of the module of scope `'m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block<'m>(BB, Brand<'m>);

impl Value<'_> {
    /// The raw handle, for code not on the typed layer yet.
    pub fn raw(self) -> V {
        self.0
    }
}

impl Type<'_> {
    pub fn raw(self) -> T {
        self.0
    }
}

/// One module, for the duration of an [`in_module`] call.
pub struct Scope<'m> {
    module: LLVMModuleRef,
    ctx: LLVMContextRef,
    _brand: Brand<'m>,
}

/// Run `f` with a scope over module `m`; nothing typed escapes it.
pub fn in_module<R>(m: LLVMModuleRef, f: impl for<'m> FnOnce(&Scope<'m>) -> R) -> R {
    let s = Scope {
        module: m,
        ctx: module_context(m),
        _brand: PhantomData,
    };
    f(&s)
}

impl<'m> Scope<'m> {
    pub fn module(&self) -> LLVMModuleRef {
        self.module
    }

    /// A raw value of this scope's module, on the typed layer.
    pub fn adopt(&self, v: V) -> Value<'m> {
        Value(v, PhantomData)
    }

    pub fn ptr_type(&self) -> Type<'m> {
        Type(ptr_type(self.ctx), PhantomData)
    }

    pub fn i8_type(&self) -> Type<'m> {
        Type(i8_type(self.ctx), PhantomData)
    }

    pub fn i64_type(&self) -> Type<'m> {
        Type(i64_type(self.ctx), PhantomData)
    }

    /// A struct type of these fields.
    pub fn struct_type(&self, fields: &[Type<'m>]) -> Type<'m> {
        let mut raw: Vec<T> = fields.iter().map(|t| t.0).collect();
        Type(struct_type(self.ctx, &mut raw), PhantomData)
    }

    pub fn i32(&self, k: i32) -> Value<'m> {
        self.adopt(const_i32(self.ctx, k as i64))
    }

    pub fn i64(&self, k: i64) -> Value<'m> {
        self.adopt(const_i64(self.ctx, k))
    }

    /// The function named `n`, if the module has one.
    pub fn function(&self, n: &str) -> Option<Value<'m>> {
        get_function(self.module, n).map(|f| self.adopt(f))
    }

    /// A new internal function `n` of type `ret (params...)`, with no body.
    pub fn internal_function(&self, n: &str, ret: Type<'m>, params: &[Type<'m>]) -> Value<'m> {
        let mut ps: Vec<T> = params.iter().map(|t| t.0).collect();
        let f = get_or_declare(self.module, n, fn_type_of(ret.0, &mut ps, false));
        set_internal(f);
        self.adopt(f)
    }

    pub fn params(&self, f: Value<'m>) -> Vec<Value<'m>> {
        params(f.0).into_iter().map(|p| self.adopt(p)).collect()
    }

    pub fn append_block(&self, f: Value<'m>, n: &str) -> Block<'m> {
        Block(append_block(f.0, n), PhantomData)
    }

    /// A builder over this scope's module.
    pub fn builder(&self) -> TypedBuilder<'m> {
        TypedBuilder(Builder::new(self.module), PhantomData)
    }
}

/// [`Builder`] over typed handles of one scope.
pub struct TypedBuilder<'m>(Builder, Brand<'m>);

impl<'m> TypedBuilder<'m> {
    /// The raw builder, for helpers not on the typed layer yet.
    pub fn raw(&self) -> &Builder {
        &self.0
    }

    fn v(&self, v: V) -> Value<'m> {
        Value(v, PhantomData)
    }

    pub fn at_end(&self, bb: Block<'m>) {
        self.0.at_end(bb.0)
    }

    /// `getelementptr t, p, idx...`
    pub fn gep(&self, t: Type<'m>, p: Value<'m>, idx: &[Value<'m>]) -> Value<'m> {
        let mut raw: Vec<V> = idx.iter().map(|i| i.0).collect();
        self.v(self.0.gep(t.0, p.0, &mut raw))
    }

    /// The address of field `k` of the struct of type `t` at `p`.
    pub fn field(&self, t: Type<'m>, p: Value<'m>, k: i32) -> Value<'m> {
        let ctx = context_of(t.0);
        let mut idx = [const_i32(ctx, 0), const_i32(ctx, k as i64)];
        self.v(self.0.gep(t.0, p.0, &mut idx))
    }

    pub fn load(&self, t: Type<'m>, p: Value<'m>) -> Value<'m> {
        self.v(self.0.load(t.0, p.0))
    }

    pub fn store(&self, v: Value<'m>, p: Value<'m>) -> Value<'m> {
        self.v(self.0.store(v.0, p.0))
    }

    pub fn add(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.v(self.0.add(a.0, b.0))
    }

    pub fn sub(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.v(self.0.sub(a.0, b.0))
    }

    pub fn icmp(&self, p: LLVMIntPredicate, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.v(self.0.icmp(p, a.0, b.0))
    }

    pub fn select(&self, c: Value<'m>, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.v(self.0.select(c.0, a.0, b.0))
    }

    pub fn realloc(&self, p: Value<'m>, size: Value<'m>) -> Value<'m> {
        self.v(self.0.realloc(p.0, size.0))
    }

    pub fn br(&self, bb: Block<'m>) {
        self.0.br(bb.0);
    }

    pub fn cond_br(&self, c: Value<'m>, t: Block<'m>, e: Block<'m>) {
        self.0.cond_br(c.0, t.0, e.0);
    }

    pub fn ret(&self, v: Value<'m>) {
        self.0.ret(v.0);
    }
}
