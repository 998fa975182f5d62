//! Type trees: what the bytes of a value (and of the memory it points to)
//! hold.
//!
//! A tree maps a *path* to a [`Base`] type. The first element of a path is a
//! byte offset into the value itself; for a pointer, further elements are
//! byte offsets into the memory it points to (one element per pointer
//! indirection). So for `p` pointing to `struct { double x; int n; }`:
//!
//! ```text
//! {[0]:Pointer, [0,0]:Float@double, [0,8]:Integer}
//! ```
//!
//! An offset is either exact, *every offset* (printed `-1`: a homogeneous
//! array, or memory reached through an index of unknown scale), or periodic
//! (printed `8+16k`: the field at 8 of every element of an array of 16-byte
//! structs).
//!
//! Bases form a small join semi-lattice ordered by [`Base::rank`]: Unknown <
//! Anything < Integer < Pointer < Float. Joining never loses the possibility
//! of a float: an int/float conflict (a union) resolves to Float, which is
//! the sound answer for differentiation.
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// Floating-point formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatKind {
    Half,
    BFloat,
    Float,
    Double,
    X86Fp80,
    Fp128,
    PpcFp128,
}

impl FloatKind {
    pub fn name(self) -> &'static str {
        match self {
            FloatKind::Half => "half",
            FloatKind::BFloat => "bfloat",
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::X86Fp80 => "x86_fp80",
            FloatKind::Fp128 => "fp128",
            FloatKind::PpcFp128 => "ppc_fp128",
        }
    }
    fn index(self) -> u8 {
        self as u8
    }
}

/// What one scalar of a value or of memory is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// Nothing is known.
    Unknown,
    /// Any type is fine (zero, undef): it carries no information.
    Anything,
    Integer,
    Pointer,
    Float(FloatKind),
}

impl Base {
    /// Position in the join order.
    pub fn rank(self) -> u8 {
        match self {
            Base::Unknown => 0,
            Base::Anything => 1,
            Base::Integer => 2,
            Base::Pointer => 3,
            Base::Float(k) => 4 + k.index(),
        }
    }
    pub fn join(self, o: Base) -> Base {
        if o.rank() > self.rank() {
            o
        } else {
            self
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Base::Float(_))
    }
    pub fn is_known(self) -> bool {
        self != Base::Unknown
    }
}

impl fmt::Display for Base {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Base::Unknown => write!(f, "Unknown"),
            Base::Anything => write!(f, "Anything"),
            Base::Integer => write!(f, "Integer"),
            Base::Pointer => write!(f, "Pointer"),
            Base::Float(k) => write!(f, "Float@{}", k.name()),
        }
    }
}

/// A byte offset: exact (`stride == 0`), or every `start + stride * k`.
/// Every offset is `{start: 0, stride: 1}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Off {
    pub start: i64,
    pub stride: i64,
}

impl Off {
    pub const EVERY: Off = Off {
        start: 0,
        stride: 1,
    };
    pub fn exact(o: i64) -> Off {
        Off {
            start: o,
            stride: 0,
        }
    }
    pub fn periodic(start: i64, stride: i64) -> Off {
        if stride <= 1 {
            return Off::EVERY;
        }
        Off {
            start: start.rem_euclid(stride),
            stride,
        }
    }
    pub fn is_exact(self) -> bool {
        self.stride == 0
    }
    pub fn is_every(self) -> bool {
        self == Off::EVERY
    }
    /// Whether concrete offset `o` is one of these offsets.
    pub fn matches(self, o: i64) -> bool {
        if self.stride == 0 {
            self.start == o
        } else {
            o >= 0 && (o - self.start).rem_euclid(self.stride) == 0
        }
    }
    fn shift(self, delta: i64) -> Option<Off> {
        if self.stride == 0 {
            let o = self.start + delta;
            (o >= 0).then_some(Off::exact(o))
        } else {
            Some(Off::periodic(self.start + delta, self.stride))
        }
    }
    fn fold(self, stride: i64) -> Off {
        let s = if self.stride == 0 {
            stride
        } else {
            gcd(self.stride, stride)
        };
        Off::periodic(self.start, s)
    }
}

impl fmt::Display for Off {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stride == 0 {
            write!(f, "{}", self.start)
        } else if self.is_every() {
            write!(f, "-1")
        } else {
            write!(f, "{}+{}k", self.start, self.stride)
        }
    }
}

/// Whether path `g` is more general than (another) path `k`.
fn path_covers(g: &[Off], k: &[Off]) -> bool {
    g.len() == k.len() && g != k && g.iter().zip(k).all(|(a, b)| a == b || covers(*a, *b))
}

/// Whether every offset of `k` is one of the offsets of `g`.
fn covers(g: Off, k: Off) -> bool {
    if g.is_every() {
        return true;
    }
    if g.stride == 0 {
        return false;
    }
    if k.stride == 0 {
        return g.matches(k.start);
    }
    k.stride % g.stride == 0 && k.start.rem_euclid(g.stride) == g.start
}

pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// Bounds that keep trees (and so the fixed point) finite.
const MAX_DEPTH: usize = 6;
const MAX_ENTRIES: usize = 256;
/// Periodic offsets are spelled out when a value covers at most this many.
const MAX_EXPAND: i64 = 16;

/// More exact offsets than this under one prefix are widened (see
/// [`TypeTree::widen`]).
const WIDEN_MIN: usize = 16;

/// The smallest period `s` with which the scalars at `offs` repeat: the
/// offsets of each residue class mod `s` hold scalars of the same type (what
/// they point to may differ: it is joined; an offset known only through
/// what it points to fits any class), and there are at most half as many
/// classes as offsets (a real repetition, not a coincidence).
fn period(offs: &BTreeMap<i64, Vec<(Vec<Off>, Base)>>) -> Option<i64> {
    let scalar = |sig: &Vec<(Vec<Off>, Base)>| -> Vec<Base> {
        let mut v: Vec<Base> = sig
            .iter()
            .filter(|(suffix, _)| suffix.is_empty())
            .map(|(_, b)| *b)
            .collect();
        v.sort_by_key(|b| b.rank());
        v.dedup();
        v
    };
    // Each offset's scalars, computed once for all candidate periods.
    let scalars: Vec<(i64, Vec<Base>)> = offs.iter().map(|(o, sig)| (*o, scalar(sig))).collect();
    // The answer depends only on `scalars`; the fixed point asks again for
    // the same group each time another part of the tree grows, and the
    // search is quadratic: remember recent answers.
    thread_local! {
        static SEEN: std::cell::RefCell<HashMap<Vec<(i64, Vec<Base>)>, Option<i64>>> =
            std::cell::RefCell::new(HashMap::new());
    }
    if let Some(r) = SEEN.with(|c| c.borrow().get(&scalars).copied()) {
        return r;
    }
    let r = period_of(&scalars, offs.len());
    SEEN.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 4096 {
            c.clear();
        }
        c.insert(scalars, r);
    });
    r
}

/// [`period`]'s search over the candidate periods.
fn period_of(scalars: &[(i64, Vec<Base>)], n: usize) -> Option<i64> {
    let keys: Vec<i64> = scalars.iter().map(|(o, _)| *o).collect();
    let o0 = keys[0];
    let mut cands: Vec<i64> = keys[1..].iter().map(|o| o - o0).collect();
    cands.sort_unstable();
    cands.dedup();
    let mut classes: HashMap<i64, &[Base]> = HashMap::new();
    'cand: for s in cands {
        classes.clear();
        for (o, sc) in scalars {
            let c = classes.entry(o.rem_euclid(s)).or_insert(&[]);
            if c.is_empty() {
                *c = sc;
            } else if !sc.is_empty() && *c != sc.as_slice() {
                continue 'cand;
            }
            if classes.len() * 2 > n {
                continue 'cand;
            }
        }
        return Some(s);
    }
    None
}

/// A type tree (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeTree {
    entries: BTreeMap<Vec<Off>, Base>,
    /// The paths of `entries` with an offset that is not exact: the only
    /// ones that can cover another path (kept so that [`Self::insert`] need
    /// not scan every entry).
    general: std::collections::BTreeSet<Vec<Off>>,
}

impl TypeTree {
    pub fn new() -> TypeTree {
        TypeTree::default()
    }

    /// `{[0]: b}`
    pub fn scalar(b: Base) -> TypeTree {
        let mut t = TypeTree::new();
        t.insert(vec![Off::exact(0)], b);
        t
    }

    /// `{[o]: b}` for each offset.
    pub fn at(b: Base, offs: &[i64]) -> TypeTree {
        let mut t = TypeTree::new();
        for o in offs {
            t.insert(vec![Off::exact(*o)], b);
        }
        t
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn entries(&self) -> impl Iterator<Item = (&Vec<Off>, &Base)> {
        self.entries.iter()
    }

    /// Join `b` into the entry at `path`. Returns whether the tree changed.
    pub fn insert(&mut self, path: Vec<Off>, b: Base) -> bool {
        if b == Base::Unknown || path.is_empty() || path.len() > MAX_DEPTH {
            return false;
        }
        if let Some(old) = self.entries.get_mut(&path) {
            let j = old.join(b);
            if j != *old {
                *old = j;
                return true;
            }
            return false;
        }
        // Already implied by a more general entry with the same suffix?
        if self.covered(&path, b) {
            return false;
        }
        if self.entries.len() >= MAX_ENTRIES {
            return false;
        }
        // Entries the new one makes redundant.
        if !path.iter().all(|o| o.is_exact()) {
            let gone: Vec<Vec<Off>> = self
                .entries
                .iter()
                .filter(|(p, e)| path_covers(&path, p) && b.join(**e) == b)
                .map(|(p, _)| p.clone())
                .collect();
            for p in gone {
                self.entries.remove(&p);
                self.general.remove(&p);
            }
            self.general.insert(path.clone());
        }
        self.entries.insert(path, b);
        true
    }

    fn covered(&self, path: &[Off], b: Base) -> bool {
        // Only a path with a non-exact offset covers another one.
        self.general
            .iter()
            .any(|p| path_covers(p, path) && self.entries[p].join(b) == self.entries[p])
    }

    /// Join another tree in. Returns whether anything changed.
    pub fn merge(&mut self, o: &TypeTree) -> bool {
        let mut changed = false;
        for (p, b) in &o.entries {
            // Already there (the common case at the fixed point): no copy.
            if self.entries.get(p).is_some_and(|old| old.join(*b) == *old) {
                continue;
            }
            changed |= self.insert(p.clone(), *b);
        }
        changed
    }

    pub fn join(mut self, o: &TypeTree) -> TypeTree {
        self.merge(o);
        self
    }

    /// The base at a concrete path (join of all entries that match it).
    pub fn get(&self, path: &[i64]) -> Base {
        let mut b = Base::Unknown;
        for (p, e) in &self.entries {
            if p.len() == path.len() && p.iter().zip(path).all(|(k, o)| k.matches(*o)) {
                b = b.join(*e);
            }
        }
        b
    }

    /// The base of the scalar at byte `o` of the value.
    pub fn base_at(&self, o: i64) -> Base {
        self.get(&[o])
    }

    /// The tree of the memory a pointer points to (entries under offset 0).
    pub fn pointee(&self) -> TypeTree {
        let mut t = TypeTree::new();
        for (p, b) in &self.entries {
            if p.len() >= 2 && p[0].matches(0) {
                t.insert(p[1..].to_vec(), *b);
            }
        }
        t
    }

    /// A pointer to memory typed `pointee`.
    pub fn pointer_to(pointee: &TypeTree) -> TypeTree {
        let mut t = TypeTree::scalar(Base::Pointer);
        for (p, b) in &pointee.entries {
            let mut q = Vec::with_capacity(p.len() + 1);
            q.push(Off::exact(0));
            q.extend_from_slice(p);
            t.insert(q, *b);
        }
        t
    }

    /// Offsets of the first level moved by `delta` (negative results are
    /// dropped).
    pub fn shift(&self, delta: i64) -> TypeTree {
        if delta == 0 {
            return self.clone();
        }
        let mut t = TypeTree::new();
        for (p, b) in &self.entries {
            if let Some(o) = p[0].shift(delta) {
                let mut q = p.clone();
                q[0] = o;
                t.insert(q, *b);
            }
        }
        t
    }

    /// The view through an index of unknown value scaled by `stride`: each
    /// first-level offset becomes periodic. A homogeneous result (every entry
    /// with the same period and start) becomes every-offset.
    pub fn fold(&self, stride: i64) -> TypeTree {
        if stride == 0 {
            return self.clone();
        }
        let mut t = TypeTree::new();
        for (p, b) in &self.entries {
            let mut q = p.clone();
            q[0] = p[0].fold(stride);
            t.insert(q, *b);
        }
        t.normalize_homogeneous()
    }

    fn normalize_homogeneous(self) -> TypeTree {
        // Only small periods starting at 0: a scalar array (doubles, floats,
        // pointers...). A lone field of a larger struct keeps its period.
        let homogeneous = self
            .entries
            .keys()
            .all(|p| p[0].is_every() || (p[0].stride > 1 && p[0].stride <= 8 && p[0].start == 0));
        if !homogeneous || self.entries.keys().all(|p| p[0].is_every()) {
            return self;
        }
        let mut t = TypeTree::new();
        for (p, b) in &self.entries {
            let mut q = p.clone();
            q[0] = Off::EVERY;
            t.insert(q, *b);
        }
        t
    }

    /// Only the first-level offsets in `[0, size)`; periodic offsets are
    /// spelled out when there are few of them.
    pub fn restrict(&self, size: u64) -> TypeTree {
        let size = size as i64;
        let mut t = TypeTree::new();
        for (p, b) in &self.entries {
            let k = p[0];
            if k.is_exact() {
                if k.start < size {
                    t.insert(p.clone(), *b);
                }
            } else if k.is_every() {
                t.insert(p.clone(), *b);
            } else if k.start < size {
                let n = (size - k.start + k.stride - 1) / k.stride;
                if n <= MAX_EXPAND {
                    let mut o = k.start;
                    while o < size {
                        let mut q = p.clone();
                        q[0] = Off::exact(o);
                        t.insert(q, *b);
                        o += k.stride;
                    }
                } else {
                    t.insert(p.clone(), *b);
                }
            }
        }
        t
    }

    /// First-level offsets that are not exact (every offset, periodic) made
    /// exact at the given scalar offsets of a value's layout.
    pub fn instantiate(&self, scalars: &[i64]) -> TypeTree {
        let mut t = TypeTree::new();
        for (p, b) in &self.entries {
            if p[0].is_exact() {
                t.insert(p.clone(), *b);
                continue;
            }
            for o in scalars {
                if p[0].matches(*o) {
                    let mut q = p.clone();
                    q[0] = Off::exact(*o);
                    t.insert(q, *b);
                }
            }
        }
        t
    }

    /// The `size` bytes at offset `o` of the value, as a value of their own.
    pub fn extract(&self, o: i64, size: u64) -> TypeTree {
        self.shift(-o).restrict(size)
    }

    /// Whether any entry (at any depth) is a float.
    pub fn has_float(&self) -> bool {
        self.entries.values().any(|b| b.is_float())
    }

    /// The bases at the first level (the value itself, not what it points to).
    pub fn first_level(&self) -> impl Iterator<Item = (Off, Base)> + '_ {
        self.entries
            .iter()
            .filter(|(p, _)| p.len() == 1)
            .map(|(p, b)| (p[0], *b))
    }

    /// Widening for the fixed point: under one path prefix, more than
    /// [`WIDEN_MIN`] exact offsets at the same level that repeat with a
    /// period `s` (every offset `o` of a residue class mod `s` holds the same
    /// entries below it) become periodic offsets `r + s*k`. Memory a pointer
    /// walks by constant steps (`++p` on a pointer kept in memory, an
    /// iterator) otherwise grows by one exact offset per fixed-point round
    /// until the entry bound. Returns the widened tree when anything changed.
    pub fn widen(&self) -> Option<TypeTree> {
        if self.entries.len() <= WIDEN_MIN {
            return None;
        }
        for d in 0..MAX_DEPTH {
            if !self.has_wide_group(d) {
                continue;
            }
            // prefix -> exact offset at d -> entries below it
            type Sig = Vec<(Vec<Off>, Base)>;
            let mut groups: BTreeMap<&[Off], BTreeMap<i64, Sig>> = BTreeMap::new();
            for (p, b) in &self.entries {
                if p.len() > d && p[d].is_exact() {
                    groups
                        .entry(&p[..d])
                        .or_default()
                        .entry(p[d].start)
                        .or_default()
                        .push((p[d + 1..].to_vec(), *b));
                }
            }
            for (prefix, offs) in groups {
                if offs.len() <= WIDEN_MIN {
                    continue;
                }
                let Some(s) = period(&offs) else { continue };
                let mut t = TypeTree::new();
                for (p, b) in &self.entries {
                    if p.len() > d && &p[..d] == prefix && p[d].is_exact() {
                        let mut q = p.clone();
                        q[d] = Off::periodic(p[d].start, s);
                        t.insert(q, *b);
                    }
                }
                for (p, b) in &self.entries {
                    if !(p.len() > d && &p[..d] == prefix && p[d].is_exact()) {
                        t.insert(p.clone(), *b);
                    }
                }
                // Further levels or prefixes are widened by later calls.
                return Some(t);
            }
        }
        None
    }

    /// Whether some prefix of length `d` has more than [`WIDEN_MIN`]
    /// distinct exact offsets at level `d` (what [`Self::widen`] looks for),
    /// counted in one pass without allocating: the entries are sorted, so
    /// those under one prefix are contiguous, and so are those with the
    /// same offset under it.
    fn has_wide_group(&self, d: usize) -> bool {
        let mut prefix: Option<&[Off]> = None;
        let mut last = 0i64;
        let mut count = 0usize;
        for p in self.entries.keys() {
            if p.len() <= d || !p[d].is_exact() {
                continue;
            }
            if prefix == Some(&p[..d]) {
                if p[d].start != last {
                    count += 1;
                    last = p[d].start;
                }
            } else {
                prefix = Some(&p[..d]);
                last = p[d].start;
                count = 1;
            }
            if count > WIDEN_MIN {
                return true;
            }
        }
        false
    }

    /// Keep only the first `depth` levels.
    pub fn truncate(&self, depth: usize) -> TypeTree {
        let mut t = TypeTree::new();
        for (p, b) in &self.entries {
            if p.len() <= depth {
                t.insert(p.clone(), *b);
            }
        }
        t
    }
}

impl fmt::Display for TypeTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (n, (p, b)) in self.entries.iter().enumerate() {
            if n > 0 {
                write!(f, ", ")?;
            }
            write!(f, "[")?;
            for (k, o) in p.iter().enumerate() {
                if k > 0 {
                    write!(f, ",")?;
                }
                write!(f, "{o}")?;
            }
            write!(f, "]:{b}")?;
        }
        write!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_array_of_doubles_is_every_offset() {
        let t = TypeTree::at(Base::Float(FloatKind::Double), &[0]).fold(8);
        assert_eq!(t.to_string(), "{[-1]:Float@double}");
        let s = TypeTree::at(Base::Float(FloatKind::Double), &[0])
            .join(&TypeTree::at(Base::Integer, &[8]))
            .fold(16);
        assert_eq!(s.to_string(), "{[0+16k]:Float@double, [8+16k]:Integer}");
        assert_eq!(
            s.restrict(16).to_string(),
            "{[0]:Float@double, [8]:Integer}"
        );
    }

    #[test]
    fn widen_walked_pointer() {
        // A pointer whose pointee grew by one double per round.
        let mut t = TypeTree::scalar(Base::Pointer);
        for k in 0..20 {
            t.insert(
                vec![Off::exact(0), Off::exact(8 * k)],
                Base::Float(FloatKind::Double),
            );
        }
        assert_eq!(
            t.widen().unwrap().to_string(),
            "{[0]:Pointer, [0,0+8k]:Float@double}"
        );
        // An array of {double, ptr}: period 16.
        let mut a = TypeTree::new();
        for k in 0..10 {
            a.insert(vec![Off::exact(16 * k)], Base::Float(FloatKind::Double));
            a.insert(vec![Off::exact(16 * k + 8)], Base::Pointer);
        }
        assert_eq!(
            a.widen().unwrap().to_string(),
            "{[0+16k]:Float@double, [8+16k]:Pointer}"
        );
        // Growing: the newest pointer's pointee is not known yet.
        let mut g = TypeTree::scalar(Base::Pointer);
        for k in 0..20 {
            g.insert(vec![Off::exact(0), Off::exact(8 * k)], Base::Pointer);
            if k < 19 {
                g.insert(
                    vec![Off::exact(0), Off::exact(8 * k), Off::EVERY],
                    Base::Float(FloatKind::Double),
                );
            }
        }
        assert_eq!(
            g.widen().unwrap().to_string(),
            "{[0]:Pointer, [0,0+8k]:Pointer, [0,0+8k,-1]:Float@double}"
        );
        // A struct of 20 doubles and an int after them: no period.
        let mut st = TypeTree::new();
        for k in 0..20 {
            st.insert(vec![Off::exact(8 * k)], Base::Float(FloatKind::Double));
        }
        st.insert(vec![Off::exact(160)], Base::Integer);
        assert!(st.widen().is_none());
    }

    #[test]
    fn join_prefers_float() {
        assert_eq!(
            Base::Integer.join(Base::Float(FloatKind::Double)),
            Base::Float(FloatKind::Double)
        );
        assert_eq!(Base::Anything.join(Base::Integer), Base::Integer);
    }
}
