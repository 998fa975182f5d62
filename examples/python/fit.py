#!/usr/bin/env python3
"""Fit the C model of model.c with scipy, its gradients synthesized by
enzyme-rs and called through ctypes.

    enzyme-clang -O2 -shared -fPIC model.c -o libmodel.so -lm
    python3 fit.py ./libmodel.so

Checks the gradient and Jacobian against finite differences and that both
fits recover the parameters the data were made with."""
import ctypes
import sys

import numpy as np
from scipy.optimize import check_grad, least_squares, minimize

lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "./libmodel.so")
dptr = ctypes.POINTER(ctypes.c_double)
lib.loss.restype = ctypes.c_double
lib.loss.argtypes = [dptr, dptr, dptr, ctypes.c_int]
lib.loss_grad.restype = ctypes.c_double
lib.loss_grad.argtypes = [dptr, dptr, dptr, dptr, ctypes.c_int]
lib.residuals.restype = None
lib.residuals.argtypes = [dptr, dptr, dptr, ctypes.c_int, dptr]
lib.residuals_jacobian.restype = None
lib.residuals_jacobian.argtypes = [dptr, dptr, dptr, ctypes.c_int, dptr, dptr, dptr]


def ptr(a):
    return a.ctypes.data_as(dptr)


xs = np.linspace(0.0, 4.0, 60)
true = np.array([2.0, 0.8, 0.5, 3.0])
ys = true[0] * np.exp(-true[1] * xs) + true[2] * np.sin(true[3] * xs)
n = len(xs)


def loss(p):
    p = np.ascontiguousarray(p, dtype=float)
    return lib.loss(ptr(p), ptr(xs), ptr(ys), n)


def grad(p):
    p = np.ascontiguousarray(p, dtype=float)
    dp = np.zeros(4)
    lib.loss_grad(ptr(p), ptr(dp), ptr(xs), ptr(ys), n)
    return dp


def residuals(p):
    p = np.ascontiguousarray(p, dtype=float)
    r = np.zeros(n)
    lib.residuals(ptr(p), ptr(xs), ptr(ys), n, ptr(r))
    return r


def jacobian(p):
    p = np.ascontiguousarray(p, dtype=float)
    jac, r, dr = np.zeros((n, 4)), np.zeros(n), np.zeros(n)
    lib.residuals_jacobian(ptr(p), ptr(xs), ptr(ys), n, ptr(jac), ptr(r), ptr(dr))
    return jac


checks, failures = [], []


def check(what, ok):
    print(f"{what}: {'ok' if ok else 'FAILED'}")
    checks.append(what)
    if not ok:
        failures.append(what)


p0 = np.array([1.5, 1.0, 0.7, 2.9])
# The synthesized gradient against central finite differences.
fd = np.array([(loss(p0 + 1e-6 * e) - loss(p0 - 1e-6 * e)) / 2e-6 for e in np.eye(4)])
check("gradient vs finite differences", np.allclose(grad(p0), fd, rtol=1e-6, atol=1e-8))
check("check_grad", check_grad(loss, grad, p0) < 1e-5)
fdj = np.stack([(residuals(p0 + 1e-6 * e) - residuals(p0 - 1e-6 * e)) / 2e-6 for e in np.eye(4)], axis=1)
check("jacobian vs finite differences", np.allclose(jacobian(p0), fdj, rtol=1e-6, atol=1e-8))

# Fits with exact derivatives.
res = minimize(loss, p0, jac=grad, method="BFGS", options={"gtol": 1e-10})
print(f"minimize(BFGS, jac=enzyme-rs): {res.x} in {res.nit} iterations, {res.njev} gradients")
check("minimize recovers the parameters", np.allclose(res.x, true, atol=1e-5))
ls = least_squares(residuals, p0, jac=jacobian, xtol=1e-14, ftol=1e-14, gtol=1e-14)
print(f"least_squares(jac=enzyme-rs): {ls.x} in {ls.njev} Jacobians")
check("least_squares recovers the parameters", np.allclose(ls.x, true, atol=1e-6))

print(f"python: {len(checks) - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
