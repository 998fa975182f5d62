! Differentiate the kernels of kernels.f90 from Fortran with the module
! `enzyme` (include/enzyme/enzyme.f90), checked against central finite
! differences. Build: enzyme-flang -O2 from_fortran.f90 (with the module
! `enzyme` prebuilt, see docs/fortran.md; or add enzyme.f90 before it).
!
! The plugin differentiates a routine whose body is in the same LLVM module
! as the call, so the kernels are INCLUDEd into this file (separate files
! work with -flto and the plugin at link time: see from_c.c).
include 'kernels.f90'

program from_fortran
  use enzyme
  implicit none
  ! advect has five arguments, more than the generic interfaces cover:
  ! declare a typed interface of its own (any __enzyme_fwddiff* name).
  interface
    subroutine fwd_advect(f, m1, n, m2, u, du, m3, c, m4, dt, m5, unew, dunew) &
        bind(C, name="__enzyme_fwddiff_advect")
      use, intrinsic :: iso_c_binding, only: c_int, c_double
      external :: f
      integer(c_int) :: m1, m2, m3, m4, m5, n
      real(c_double) :: u(*), du(*), c(*), dt, unew(*), dunew(*)
    end subroutine
    subroutine rev_advect(f, m1, n, m2, u, du, m3, c, m4, dt, m5, unew, dunew) &
        bind(C, name="__enzyme_autodiff_advect")
      use, intrinsic :: iso_c_binding, only: c_int, c_double
      external :: f
      integer(c_int) :: m1, m2, m3, m4, m5, n
      real(c_double) :: u(*), du(*), c(*), dt, unew(*), dunew(*)
    end subroutine
  end interface
  integer, parameter :: n = 6
  double precision :: rosen
  external :: energy, rosen, advect
  double precision :: x(n), dx(n), xp(n), e, de, ep, em, h, fd, df
  double precision :: u(n), du(n), c(n), dt, un(n), dun(n), up(n), um(n)
  double precision :: v(n), w(n), lhs, rhs
  integer :: i, nn, failures, checks

  failures = 0
  checks = 0
  nn = n
  h = 1d-6
  x = [0.3d0, -0.7d0, 1.1d0, 0.5d0, -1.3d0, 0.9d0]

  ! Reverse mode of a subroutine: de/dx, e's shadow de seeded with 1.
  dx = 0d0
  de = 1d0
  call enzyme_autodiff(energy, enzyme_const, nn, enzyme_dup, x, dx, enzyme_dup, e, de)
  do i = 1, n
    xp = x; xp(i) = x(i) + h; call energy(nn, xp, ep)
    xp = x; xp(i) = x(i) - h; call energy(nn, xp, em)
    call check("energy reverse", dx(i), (ep - em) / (2d0 * h))
  end do

  ! Forward mode of a subroutine: the tangent of e along the direction v.
  v = [1d0, 0.5d0, -0.25d0, 2d0, 0.1d0, -1d0]
  de = 0d0
  call enzyme_fwddiff(energy, enzyme_const, nn, enzyme_dup, x, v, enzyme_dup, e, de)
  call energy(nn, x + h * v, ep)
  call energy(nn, x - h * v, em)
  call check("energy forward", de, (ep - em) / (2d0 * h))

  ! Reverse mode of a function (its result seeded with 1) and forward mode
  ! returning the result's tangent.
  dx = 0d0
  call enzyme_autodiff(rosen, enzyme_const, nn, enzyme_dup, x, dx)
  do i = 1, n
    xp = x; xp(i) = x(i) + h; ep = rosen(nn, xp)
    xp = x; xp(i) = x(i) - h; em = rosen(nn, xp)
    call check("rosen reverse", dx(i), (ep - em) / (2d0 * h))
  end do
  df = enzyme_fwddiff_result(rosen, enzyme_const, nn, enzyme_dup, x, v)
  call check("rosen forward", df, (rosen(nn, x + h * v) - rosen(nn, x - h * v)) / (2d0 * h))

  ! The stencil: a Jacobian-vector product (forward) against finite
  ! differences, and a vector-Jacobian product (reverse) against it by the
  ! dot-product test <w, J v> = <J^T w, v>.
  u = [0.2d0, 0.4d0, 0.9d0, 0.6d0, -0.3d0, 0.1d0]
  c = [1d0, -0.5d0, 0.8d0, -1.2d0, 0.3d0, 0.6d0]
  dt = 0.05d0
  dun = 0d0
  call fwd_advect(advect, enzyme_const, nn, enzyme_dup, u, v, enzyme_const, c, &
                  enzyme_const, dt, enzyme_dup, un, dun)
  call advect(nn, u + h * v, c, dt, up)
  call advect(nn, u - h * v, c, dt, um)
  do i = 1, n
    call check("advect forward", dun(i), (up(i) - um(i)) / (2d0 * h))
  end do
  w = [0.5d0, -1d0, 0.25d0, 1.5d0, -0.75d0, 2d0]
  du = 0d0
  un = 0d0
  dun = w
  call rev_advect(advect, enzyme_const, nn, enzyme_dup, u, du, enzyme_const, c, &
                  enzyme_const, dt, enzyme_dup, un, dun)
  lhs = 0d0
  rhs = 0d0
  do i = 1, n
    lhs = lhs + w(i) * (up(i) - um(i)) / (2d0 * h)
    rhs = rhs + du(i) * v(i)
  end do
  call check("advect reverse", rhs, lhs)

  print '(a, i0, a, i0, a)', 'fortran: ', checks - failures, ' passed, ', failures, ' failed'
  if (failures > 0) error stop 1

contains

  subroutine check(what, got, want)
    character(*) :: what
    double precision :: got, want
    checks = checks + 1
    if (abs(got - want) > 1d-5 * max(1d0, abs(want))) then
      failures = failures + 1
      print '(a, a, es24.16, a, es24.16)', what, ': got ', got, ' want ', want
    end if
  end subroutine check
end program from_fortran
