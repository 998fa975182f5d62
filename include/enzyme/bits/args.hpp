/*
 * enzyme/bits/args.hpp -- shared by <enzyme/enzyme.hpp> and <enzyme/enzyme>
 * (include one of those, not this): the argument wrappers (Active,
 * Duplicated, DuplicatedNoNeed, Const) and the always_inline machinery that
 * flattens them into a marker, value(s) argument list for the __enzyme_*
 * entry points. Everything the plugin must see as a constant (the function,
 * the markers) reaches the entry point directly, also at -O0.
 */
#ifndef ENZYME_RS_BITS_ARGS_HPP
#define ENZYME_RS_BITS_ARGS_HPP

#include <enzyme/enzyme.h>

#include <tuple>
#include <type_traits>
#include <utility>

/* Entry points as templates: the result type is spelled by the caller. The
 * names start with the C prefixes, which is all the plugin looks at. */
template <class R, class... A> R __enzyme_autodiff_cxx(void *, A...);
template <class R, class... A> R __enzyme_fwddiff_cxx(void *, A...);

namespace enzyme {

/* Argument wrappers. `value_type` is what is passed to the entry point:
 * a reference argument (Duplicated<double &>(x, dx)) is passed as a pointer. */
template <class T> struct Active {
  static_assert(!std::is_reference<T>::value && !std::is_pointer<T>::value,
                "enzyme::Active<T>: an active argument is a value (a float or a struct of floats) whose "
                "derivative is returned; pass a reference or a pointer with enzyme::Duplicated (its "
                "derivative goes into the shadow)");
  using value_type = T;
  T value;
  Active(T v) : value(v) {}
};
template <class T> struct Duplicated {
  using value_type = T;
  T value, shadow;
  Duplicated(T v, T s) : value(v), shadow(s) {}
};
template <class T> struct Duplicated<T &> {
  using value_type = T *;
  T *value, *shadow;
  Duplicated(T &v, T &s) : value(&v), shadow(&s) {}
};
template <class T> struct DuplicatedNoNeed {
  using value_type = T;
  T value, shadow;
  DuplicatedNoNeed(T v, T s) : value(v), shadow(s) {}
};
template <class T> struct DuplicatedNoNeed<T &> {
  using value_type = T *;
  T *value, *shadow;
  DuplicatedNoNeed(T &v, T &s) : value(&v), shadow(&s) {}
};
template <class T> struct Const {
  using value_type = T;
  T value;
  Const(T v) : value(v) {}
};
template <class T> struct Const<T &> {
  using value_type = T *;
  T *value;
  Const(T &v) : value(&v) {}
};

namespace detail {
#define ENZYME_RS_AI __attribute__((always_inline)) inline

/* The primal type behind a wrapper. */
template <class W> struct raw;
template <class T> struct raw<Active<T>> { using type = T; };
template <class T> struct raw<Duplicated<T>> { using type = T; };
template <class T> struct raw<DuplicatedNoNeed<T>> { using type = T; };
template <class T> struct raw<Const<T>> { using type = T; };
template <class W> using raw_t = typename raw<std::decay_t<W>>::type;

/* A result struct with its fields in order (std::tuple's layout is not). */
template <class... T> struct pack;
template <class H> struct pack<H> { H head; };
template <class H, class H2, class... T> struct pack<H, H2, T...> {
  H head;
  pack<H2, T...> tail;
};
template <class H> ENZYME_RS_AI std::tuple<H> to_tuple(const pack<H> &p) { return std::tuple<H>(p.head); }
template <class H, class H2, class... T>
ENZYME_RS_AI std::tuple<H, H2, T...> to_tuple(const pack<H, H2, T...> &p) {
  return std::tuple_cat(std::tuple<H>(p.head), to_tuple(p.tail));
}

template <class... T> struct list {};
template <class L> struct pack_of { using type = void; };
template <class H, class... T> struct pack_of<list<H, T...>> { using type = pack<H, T...>; };
template <class L> struct tuple_of;
template <class... T> struct tuple_of<list<T...>> { using type = std::tuple<T...>; };
template <class X, class L> struct cons;
template <class X, class... T> struct cons<X, list<T...>> { using type = list<X, T...>; };

/* The types of the Active arguments, in order. */
template <class... W> struct actives { using type = list<>; };
template <class T, class... W> struct actives<Active<T>, W...> {
  using type = typename cons<T, typename actives<W...>::type>::type;
};
template <class X, class... W> struct actives<X, W...> { using type = typename actives<W...>::type; };

/* Calls a callable object: the function the plugin differentiates. */
template <class F, class R, class... A> R trampoline(const void *f, A... a) {
  return (*static_cast<const F *>(f))(a...);
}

/* The final call, with the flat argument list. */
struct reverse_tag {};
struct forward_tag {};
template <class R, class Mode> struct entry;
template <class R> struct entry<R, reverse_tag> {
  template <class... A> ENZYME_RS_AI static R call(void *fn, A... a) { return __enzyme_autodiff_cxx<R>(fn, a...); }
};
template <class R> struct entry<R, forward_tag> {
  template <class... A> ENZYME_RS_AI static R call(void *fn, A... a) { return __enzyme_fwddiff_cxx<R>(fn, a...); }
};

/* Flatten wrappers into marker, value(s): Acc are the arguments so far. */
template <class R, class Mode, class... Acc> struct flat {
  ENZYME_RS_AI static R run(void *fn, Acc... acc) { return entry<R, Mode>::call(fn, acc...); }
  template <class T, class... Rest>
  ENZYME_RS_AI static R run(void *fn, Acc... acc, Active<T> w, Rest... rest) {
    return flat<R, Mode, Acc..., int, T>::run(fn, acc..., enzyme_out, w.value, rest...);
  }
  template <class T, class... Rest>
  ENZYME_RS_AI static R run(void *fn, Acc... acc, Duplicated<T> w, Rest... rest) {
    using V = typename Duplicated<T>::value_type;
    static_assert(!(std::is_same<Mode, reverse_tag>::value && std::is_arithmetic<V>::value),
                  "enzyme::Duplicated<T> of a number passed by value in reverse mode: its derivative "
                  "has nowhere to go; use enzyme::Active<T>, or enzyme::Duplicated<T &> for a reference");
    return flat<R, Mode, Acc..., int, V, V>::run(fn, acc..., enzyme_dup, w.value, w.shadow, rest...);
  }
  template <class T, class... Rest>
  ENZYME_RS_AI static R run(void *fn, Acc... acc, DuplicatedNoNeed<T> w, Rest... rest) {
    using V = typename DuplicatedNoNeed<T>::value_type;
    static_assert(!(std::is_same<Mode, reverse_tag>::value && std::is_arithmetic<V>::value),
                  "enzyme::DuplicatedNoNeed<T> of a number passed by value in reverse mode: its "
                  "derivative has nowhere to go; use enzyme::Active<T>, or a reference");
    return flat<R, Mode, Acc..., int, V, V>::run(fn, acc..., enzyme_dupnoneed, w.value, w.shadow, rest...);
  }
  template <class T, class... Rest>
  ENZYME_RS_AI static R run(void *fn, Acc... acc, Const<T> w, Rest... rest) {
    using V = typename Const<T>::value_type;
    return flat<R, Mode, Acc..., int, V>::run(fn, acc..., enzyme_const, w.value, rest...);
  }
};

/* Run with the function (or the trampoline and the object) first. The
 * first `N` of the markers p0, p1 (return activity, primal return) come
 * before the arguments. */
template <class R, class Mode, int N, class F, class... W>
ENZYME_RS_AI R dispatch_pre(const F &f, int p0, int p1, W... w) {
  using Fd = std::decay_t<F>;
  using Ret = decltype(std::declval<const Fd &>()(std::declval<raw_t<W>>()...));
  if constexpr (std::is_class_v<Fd>) {
    void *fn = (void *)&trampoline<Fd, Ret, raw_t<W>...>;
    const void *obj = &f;
    if constexpr (N == 0)
      return flat<R, Mode, int, const void *>::run(fn, enzyme_const, obj, w...);
    else if constexpr (N == 1)
      return flat<R, Mode, int, int, const void *>::run(fn, p0, enzyme_const, obj, w...);
    else
      return flat<R, Mode, int, int, int, const void *>::run(fn, p0, p1, enzyme_const, obj, w...);
  } else {
    void *fn = (void *)f;
    if constexpr (N == 0)
      return flat<R, Mode>::run(fn, w...);
    else if constexpr (N == 1)
      return flat<R, Mode, int>::run(fn, p0, w...);
    else
      return flat<R, Mode, int, int>::run(fn, p0, p1, w...);
  }
}

template <class R, class Mode, bool WithPrimal, class F, class... W>
ENZYME_RS_AI R dispatch(const F &f, W... w) {
  return dispatch_pre<R, Mode, WithPrimal ? 1 : 0>(f, enzyme_primal_return, 0, w...);
}

template <class F, class... W>
using result_t = decltype(std::declval<const std::decay_t<F> &>()(std::declval<raw_t<W>>()...));
} // namespace detail
} // namespace enzyme

#endif /* ENZYME_RS_BITS_ARGS_HPP */
