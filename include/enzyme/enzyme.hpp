/*
 * enzyme/enzyme.hpp -- a C++17 interface to enzyme-rs on top of the
 * __enzyme_* entry points (header only; compile with the enzyme-rs plugin).
 *
 *   #include <enzyme/enzyme.hpp>
 *   // reverse mode: a std::tuple of the derivatives of the Active arguments
 *   auto [dx] = enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active(x),
 *                   enzyme::Duplicated(a, da), enzyme::Const(n));
 *   // reverse mode with the primal: std::tuple<result, std::tuple<d...>>
 *   auto [y, ds] = enzyme::autodiff<enzyme::ReverseWithPrimal>(f, ...);
 *   // forward mode: the tangent of the result (Duplicated(x, dx) gives a
 *   // scalar's value and tangent, or a pointer and its shadow)
 *   double dy = enzyme::autodiff<enzyme::Forward>(f, enzyme::Duplicated(x, 1.0));
 *   // forward mode with the primal: std::tuple<result, tangent>
 *   auto [y2, dy2] = enzyme::autodiff<enzyme::ForwardWithPrimal>(f, ...);
 *
 * The argument wrappers follow the markers of the C interface: Active =
 * enzyme_out, Duplicated = enzyme_dup, DuplicatedNoNeed = enzyme_dupnoneed,
 * Const = enzyme_const. Every argument must be wrapped.
 *
 * `f` may be a function (or a pointer to one known at compile time), a
 * lambda or a function object: callable objects are differentiated through
 * a static trampoline function (`detail::trampoline`) that receives the
 * object as a constant argument and calls it, so captured state is treated
 * as constant (pass values to differentiate as arguments).
 *
 * The wrappers are always_inline so that, also at -O0, the plugin sees the
 * function being differentiated at the __enzyme_* call it builds.
 */
#ifndef ENZYME_RS_ENZYME_HPP
#define ENZYME_RS_ENZYME_HPP

#include <enzyme/enzyme.h>

#include <tuple>
#include <type_traits>
#include <utility>

/* Entry points as templates: the result type is spelled by the caller. The
 * names start with the C prefixes, which is all the plugin looks at. */
template <class R, class... A> R __enzyme_autodiff_cxx(void *, A...);
template <class R, class... A> R __enzyme_fwddiff_cxx(void *, A...);

namespace enzyme {

/* Modes (types, usable as template arguments in C++17). */
struct Reverse {};
struct ReverseWithPrimal {};
struct Forward {};
struct ForwardWithPrimal {};

/* Argument wrappers. */
template <class T> struct Active {
  T value;
  Active(T v) : value(v) {}
};
template <class T> struct Duplicated {
  T value, shadow;
  Duplicated(T v, T s) : value(v), shadow(s) {}
};
template <class T> struct DuplicatedNoNeed {
  T value, shadow;
  DuplicatedNoNeed(T v, T s) : value(v), shadow(s) {}
};
template <class T> struct Const {
  T value;
  Const(T v) : value(v) {}
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
template <class R, class Mode> struct entry;
template <class R> struct entry<R, Reverse> {
  template <class... A> ENZYME_RS_AI static R call(void *fn, A... a) { return __enzyme_autodiff_cxx<R>(fn, a...); }
};
template <class R> struct entry<R, Forward> {
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
    return flat<R, Mode, Acc..., int, T, T>::run(fn, acc..., enzyme_dup, w.value, w.shadow, rest...);
  }
  template <class T, class... Rest>
  ENZYME_RS_AI static R run(void *fn, Acc... acc, DuplicatedNoNeed<T> w, Rest... rest) {
    return flat<R, Mode, Acc..., int, T, T>::run(fn, acc..., enzyme_dupnoneed, w.value, w.shadow, rest...);
  }
  template <class T, class... Rest>
  ENZYME_RS_AI static R run(void *fn, Acc... acc, Const<T> w, Rest... rest) {
    return flat<R, Mode, Acc..., int, T>::run(fn, acc..., enzyme_const, w.value, rest...);
  }
};

/* Run with the function (or the trampoline and the object) first. */
template <class R, class Mode, bool WithPrimal, class F, class... W>
ENZYME_RS_AI R dispatch(const F &f, W... w) {
  using Fd = std::decay_t<F>;
  using Ret = decltype(std::declval<const Fd &>()(std::declval<raw_t<W>>()...));
  if constexpr (std::is_class_v<Fd>) {
    void *fn = (void *)&trampoline<Fd, Ret, raw_t<W>...>;
    const void *obj = &f;
    if constexpr (WithPrimal)
      return flat<R, Mode, int, int, const void *>::run(fn, enzyme_primal_return, enzyme_const, obj, w...);
    else
      return flat<R, Mode, int, const void *>::run(fn, enzyme_const, obj, w...);
  } else {
    void *fn = (void *)f;
    if constexpr (WithPrimal)
      return flat<R, Mode, int>::run(fn, enzyme_primal_return, w...);
    else
      return flat<R, Mode>::run(fn, w...);
  }
}

template <class F, class... W>
using result_t = decltype(std::declval<const std::decay_t<F> &>()(std::declval<raw_t<W>>()...));
} // namespace detail

/* autodiff<Mode>(f, wrapped arguments...) */
template <class Mode, class F, class... W> ENZYME_RS_AI auto autodiff(const F &f, W... w) {
  using Ret = detail::result_t<F, W...>;
  using Act = typename detail::actives<W...>::type;
  using Tup = typename detail::tuple_of<Act>::type;
  if constexpr (std::is_same_v<Mode, Reverse>) {
    using P = typename detail::pack_of<Act>::type;
    if constexpr (std::is_void_v<P>) {
      detail::dispatch<void, Reverse, false>(f, w...);
      return Tup();
    } else {
      return detail::to_tuple(detail::dispatch<P, Reverse, false>(f, w...));
    }
  } else if constexpr (std::is_same_v<Mode, ReverseWithPrimal>) {
    using P = typename detail::pack_of<typename detail::cons<Ret, Act>::type>::type;
    auto all = detail::to_tuple(detail::dispatch<P, Reverse, true>(f, w...));
    return std::make_tuple(std::get<0>(all), std::apply([](auto, auto... d) { return Tup(d...); }, all));
  } else if constexpr (std::is_same_v<Mode, Forward>) {
    return detail::dispatch<Ret, Forward, false>(f, w...);
  } else {
    static_assert(std::is_same_v<Mode, ForwardWithPrimal>, "enzyme::autodiff: unknown mode");
    auto r = detail::dispatch<detail::pack<Ret, Ret>, Forward, true>(f, w...);
    return std::make_tuple(r.head, r.tail.head);
  }
}

#undef ENZYME_RS_AI
} // namespace enzyme

#endif /* ENZYME_RS_ENZYME_HPP */
