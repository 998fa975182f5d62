#!/usr/bin/env python3
"""Reuse the C model of model.c in PyTorch: a torch.autograd.Function whose
forward calls the C loss and whose backward is the gradient enzyme-rs
synthesized, so foreign code joins an autograd graph without a rewrite.

    enzyme-clang -O2 -shared -fPIC model.c -o libmodel.so -lm
    pip install torch        # a CPU build is enough
    python3 torch_function.py ./libmodel.so

Checks the backward with torch.autograd.gradcheck and fits the model with
torch.optim.LBFGS."""
import ctypes
import sys

import torch

lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "./libmodel.so")
dptr = ctypes.POINTER(ctypes.c_double)
lib.loss.restype = ctypes.c_double
lib.loss.argtypes = [dptr, dptr, dptr, ctypes.c_int]
lib.loss_grad.restype = ctypes.c_double
lib.loss_grad.argtypes = [dptr, dptr, dptr, dptr, ctypes.c_int]


def ptr(t):
    return ctypes.cast(t.data_ptr(), dptr)


class CModelLoss(torch.autograd.Function):
    """loss(p; xs, ys) computed in C; d loss / d p from enzyme-rs."""

    @staticmethod
    def forward(ctx, p, xs, ys):
        p, xs, ys = (t.detach().contiguous().double() for t in (p, xs, ys))
        dp = torch.zeros_like(p)
        value = lib.loss_grad(ptr(p), ptr(dp), ptr(xs), ptr(ys), xs.numel())
        ctx.dp = dp
        return torch.tensor(value, dtype=torch.float64)

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * ctx.dp, None, None


xs = torch.linspace(0.0, 4.0, 60, dtype=torch.float64)
true = torch.tensor([2.0, 0.8, 0.5, 3.0], dtype=torch.float64)
ys = true[0] * torch.exp(-true[1] * xs) + true[2] * torch.sin(true[3] * xs)

p = torch.tensor([1.5, 1.0, 0.7, 2.9], dtype=torch.float64, requires_grad=True)
ok_grad = torch.autograd.gradcheck(lambda q: CModelLoss.apply(q, xs, ys), (p,))
print(f"gradcheck: {'ok' if ok_grad else 'FAILED'}")

opt = torch.optim.LBFGS([p], max_iter=200, tolerance_grad=1e-12, tolerance_change=1e-14)


def closure():
    opt.zero_grad()
    value = CModelLoss.apply(p, xs, ys)
    value.backward()
    return value


opt.step(closure)
ok_fit = torch.allclose(p.detach(), true, atol=1e-5)
print(f"LBFGS fit: {p.detach().numpy()} {'ok' if ok_fit else 'FAILED'}")
failed = [ok_grad, ok_fit].count(False)
print(f"torch: {2 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
