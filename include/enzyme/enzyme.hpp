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

#include <enzyme/bits/args.hpp>

namespace enzyme {

/* Modes (types, usable as template arguments in C++17). */
struct Reverse {};
struct ReverseWithPrimal {};
struct Forward {};
struct ForwardWithPrimal {};


/* autodiff<Mode>(f, wrapped arguments...) */
template <class Mode, class F, class... W> ENZYME_RS_AI auto autodiff(const F &f, W... w) {
  using Ret = detail::result_t<F, W...>;
  using Act = typename detail::actives<W...>::type;
  using Tup = typename detail::tuple_of<Act>::type;
  if constexpr (std::is_same_v<Mode, Reverse>) {
    using P = typename detail::pack_of<Act>::type;
    if constexpr (std::is_void_v<P>) {
      detail::dispatch<void, detail::reverse_tag, false>(f, w...);
      return Tup();
    } else {
      return detail::to_tuple(detail::dispatch<P, detail::reverse_tag, false>(f, w...));
    }
  } else if constexpr (std::is_same_v<Mode, ReverseWithPrimal>) {
    using P = typename detail::pack_of<typename detail::cons<Ret, Act>::type>::type;
    auto all = detail::to_tuple(detail::dispatch<P, detail::reverse_tag, true>(f, w...));
    return std::make_tuple(std::get<0>(all), std::apply([](auto, auto... d) { return Tup(d...); }, all));
  } else if constexpr (std::is_same_v<Mode, Forward>) {
    return detail::dispatch<Ret, detail::forward_tag, false>(f, w...);
  } else {
    static_assert(std::is_same_v<Mode, ForwardWithPrimal>, "enzyme::autodiff: unknown mode");
    auto r = detail::dispatch<detail::pack<Ret, Ret>, detail::forward_tag, true>(f, w...);
    return std::make_tuple(r.head, r.tail.head);
  }
}

#undef ENZYME_RS_AI
} // namespace enzyme

#endif /* ENZYME_RS_ENZYME_HPP */
