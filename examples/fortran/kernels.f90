! Legacy-style Fortran kernels (external procedures, explicit-shape arrays,
! DO loops, elemental intrinsics) differentiated by enzyme-rs, from Fortran
! (from_fortran.f90) and from C (from_c.c).

! An energy: Rosenbrock coupling between neighbours plus smooth intrinsic
! terms, summed with a work array. E = energy(x); the derivative of e.
subroutine energy(n, x, e)
  implicit none
  integer :: n
  double precision :: x(n), e
  double precision :: t(n)
  integer :: i
  if (n < 2) print *, 'energy: n < 2'   ! diagnostics carry no derivative
  do i = 1, n
    t(i) = sin(x(i))**2 * exp(0.1d0 * x(i)) + sqrt(x(i)**2 + 1d0) &
         + abs(x(i))**1.5d0 + log(1d0 + x(i)**2) * tanh(x(i)) + mod(i, 3) * x(i)**3
  end do
  e = 0d0
  do i = 1, n - 1
    e = e + 100d0 * (x(i + 1) - x(i)**2)**2 + (1d0 - x(i))**2
  end do
  do i = 1, n
    e = e + max(t(i), 0.25d0) / dble(n)
  end do
end subroutine energy

! The Rosenbrock function as a function result.
double precision function rosen(n, x)
  implicit none
  integer :: n
  double precision :: x(n)
  integer :: i
  rosen = 0d0
  do i = 1, n - 1
    rosen = rosen + 100d0 * (x(i + 1) - x(i)**2)**2 + (1d0 - x(i))**2
  end do
end function rosen

! One explicit upwind step of u_t + c(x) u_x = nu u_xx on a periodic grid:
! a stencil with MOD indices, MAX/MIN upwinding and a nonlinear source.
subroutine advect(n, u, c, dt, unew)
  implicit none
  integer :: n
  double precision :: u(n), c(n), dt, unew(n)
  integer :: i, im, ip
  double precision :: flux, cp, cm, nu
  nu = 0.01d0
  do i = 1, n
    im = mod(i - 2 + n, n) + 1
    ip = mod(i, n) + 1
    cp = max(c(i), 0d0)
    cm = min(c(i), 0d0)
    flux = cp * (u(i) - u(im)) + cm * (u(ip) - u(i))
    unew(i) = u(i) - dt * flux + dt * nu * (u(ip) - 2d0 * u(i) + u(im)) &
            + dt * 0.1d0 * sin(u(i)) * u(i)**2
  end do
end subroutine advect
