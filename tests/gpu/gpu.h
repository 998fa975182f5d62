// Device-side header for the GPU kernels of tests/gpu (and gpu/run-device.sh):
// CUDA's qualifiers and index variables without the CUDA SDK (clang's own
// __clang_cuda_builtin_vars.h), libdevice math declarations, Enzyme's entry
// points with fixed parameter lists (CUDA device code has no variadic
// functions), and GPU_TEST(F): the three kernels every test defines.
#pragma once
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __host__ __attribute__((host))
#define __noinline__ __attribute__((noinline))
#define __forceinline__ __attribute__((always_inline)) inline
#ifdef __HIP__
// HIP without its headers: the same index variables from AMDGPU builtins.
#define GPU_AXIS(S, X, E)                                                                          \
  __declspec(property(get = get_##X)) unsigned X;                                                 \
  static __device__ __attribute__((always_inline)) unsigned get_##X(void) { return E; }
struct gpu_tid {
  GPU_AXIS(t, x, __builtin_amdgcn_workitem_id_x()) GPU_AXIS(t, y, __builtin_amdgcn_workitem_id_y())
  GPU_AXIS(t, z, __builtin_amdgcn_workitem_id_z())
};
struct gpu_bid {
  GPU_AXIS(b, x, __builtin_amdgcn_workgroup_id_x()) GPU_AXIS(b, y, __builtin_amdgcn_workgroup_id_y())
  GPU_AXIS(b, z, __builtin_amdgcn_workgroup_id_z())
};
struct gpu_bdim {
  GPU_AXIS(d, x, __builtin_amdgcn_workgroup_size_x())
  GPU_AXIS(d, y, __builtin_amdgcn_workgroup_size_y())
  GPU_AXIS(d, z, __builtin_amdgcn_workgroup_size_z())
};
struct gpu_gdim {
  GPU_AXIS(g, x, __builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x())
  GPU_AXIS(g, y, __builtin_amdgcn_grid_size_y() / __builtin_amdgcn_workgroup_size_y())
  GPU_AXIS(g, z, __builtin_amdgcn_grid_size_z() / __builtin_amdgcn_workgroup_size_z())
};
extern const __device__ __attribute__((weak)) gpu_gdim gridDim;
extern const __device__ __attribute__((weak)) gpu_tid threadIdx;
extern const __device__ __attribute__((weak)) gpu_bid blockIdx;
extern const __device__ __attribute__((weak)) gpu_bdim blockDim;
#define __syncthreads() __builtin_amdgcn_s_barrier()
#else
#include <__clang_cuda_builtin_vars.h>
#endif

// MATH(sin)(x): the device math library's double function (libdevice's
// __nv_sin on CUDA, OCML's __ocml_sin_f64 on HIP).
extern "C" {
#ifdef __HIP__
#define MATH(f) __ocml_##f##_f64
#define GPU_MATH1(f) __device__ double __ocml_##f##_f64(double);
#define GPU_MATH2(f) __device__ double __ocml_##f##_f64(double, double);
#else
#define MATH(f) __nv_##f
#define GPU_MATH1(f) __device__ double __nv_##f(double);
#define GPU_MATH2(f) __device__ double __nv_##f(double, double);
#endif
GPU_MATH1(sin) GPU_MATH1(cos) GPU_MATH1(tan) GPU_MATH1(exp) GPU_MATH1(log) GPU_MATH1(sqrt)
GPU_MATH1(tanh) GPU_MATH1(sinh) GPU_MATH1(cosh) GPU_MATH1(exp2) GPU_MATH1(log2) GPU_MATH1(log10)
GPU_MATH1(fabs) GPU_MATH1(atan) GPU_MATH1(cbrt) GPU_MATH1(erf) GPU_MATH1(log1p) GPU_MATH1(expm1)
GPU_MATH2(pow) GPU_MATH2(fmax) GPU_MATH2(fmin) GPU_MATH2(hypot) GPU_MATH2(atan2)
}

extern __device__ int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;

// Every test: a __device__ function F(in, out, n) over the grid, and the
// kernels the host harness launches: primal, grad (reverse: din += J^T dout),
// fwd (forward: dout = J din).
__device__ void __enzyme_autodiff(void *, int, double *, double *, int, double *, double *, int,
                                  int);
__device__ void __enzyme_fwddiff(void *, int, double *, double *, int, double *, double *, int,
                                 int);
#define GPU_TEST(F)                                                                                \
  extern "C" __global__ void primal(double *in, double *out, int n) { F(in, out, n); }             \
  extern "C" __global__ void grad(double *in, double *din, double *out, double *dout, int n) {     \
    __enzyme_autodiff((void *)F, enzyme_dup, in, din, enzyme_dup, out, dout, enzyme_const, n);      \
  }                                                                                                \
  extern "C" __global__ void fwd(double *in, double *din, double *out, double *dout, int n) {      \
    __enzyme_fwddiff((void *)F, enzyme_dup, in, din, enzyme_dup, out, dout, enzyme_const, n);       \
  }

#define GTID_X (blockIdx.x * blockDim.x + threadIdx.x)
#define GTID_Y (blockIdx.y * blockDim.y + threadIdx.y)
