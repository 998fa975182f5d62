! A Fortran routine differentiated with the module `enzyme`.
subroutine spring(n, x, e)
  integer :: n
  double precision :: x(n), e
  integer :: i
  e = 0d0
  do i = 1, n - 1
    e = e + 0.5d0 * (x(i + 1) - x(i) - 1d0)**2 + cos(x(i))
  end do
end subroutine spring

program grad_f
  use enzyme
  implicit none
  integer, parameter :: n = 4
  double precision :: x(n), dx(n), e, de, want(n)
  integer :: nn, i
  external :: spring
  nn = n
  x = [0.1d0, 1.3d0, 2.0d0, 3.4d0]
  dx = 0d0
  de = 1d0
  call enzyme_autodiff(spring, enzyme_const, nn, enzyme_dup, x, dx, enzyme_dup, e, de)
  want = 0d0
  do i = 1, n - 1
    want(i) = want(i) - (x(i + 1) - x(i) - 1d0) - sin(x(i))
    want(i + 1) = want(i + 1) + (x(i + 1) - x(i) - 1d0)
  end do
  if (maxval(abs(dx - want)) > 1d-12) then
    print *, 'grad_f: FAILED', dx, want
    error stop 1
  end if
  print '(a)', 'grad_f: ok'
end program grad_f
