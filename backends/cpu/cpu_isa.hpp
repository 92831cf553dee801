// CPU capability for the backends' own loops. On x86-64 a backend's hot loops of its own
// (the xtensor backend's elementwise kernels and dtype conversion, the torch backend's
// passes that make LibTorch's results NumPy's) are compiled twice: for the ISA the build
// targets (the x86-64 baseline, SSE2, by default) and for AVX2 (the same source under
// IVY_AVX2_FN, [[gnu::target("avx2")]]), picked per call by `cpu::isa::kAvx2`: true when the CPU
// has AVX2 and FMA, unless the environment says IVY_CPU_CAPABILITY=default (LibTorch picks
// its kernels the same way: ATEN_CPU_CAPABILITY). Results are the same bit for bit on both:
// the loops do the same IEEE operations lane by lane in wider vectors and call the same
// libm functions; FMA is used only where a kernel asks for it by name (std::fma, exact by
// definition; the files with such loops build with -ffp-contract=off, so nothing else is
// fused). kAvx2 is zero-initialized before its dynamic initialization (cpu_isa.cpp): a
// call that comes earlier takes the baseline loops.
// A third build, for AVX-512 (IVY_AVX512_FN: F, DQ, VL and BW, 512-bit vectors preferred),
// is kept for the loops whose lanes are float64 (vec_math.cpp's float32 functions computed in
// float64), where the width is the speed, and (IVY_AVX512VL_FN: the same instructions on
// 256-bit vectors) for element-wise selects on a compare (maximum/minimum, cpu::loops::each2_best's
// Wide), where its mask registers are: `cpu::isa::kAvx512`, true when the CPU and the operating
// system have it, unless IVY_CPU_CAPABILITY is `default` or `avx2`. The same bits again.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define IVY_AVX2 1
#define IVY_AVX2_FN [[gnu::target("avx2")]]
#define IVY_AVX2_FMA_FN [[gnu::target("avx2,fma")]]
#define IVY_AVX512_FN [[gnu::target("avx512f,avx512dq,avx512vl,avx512bw,prefer-vector-width=512")]]
#define IVY_AVX512VL_FN [[gnu::target("avx512f,avx512dq,avx512vl,avx512bw,prefer-vector-width=256")]]
// The AVX2 and AVX-512VL instructions on 128-bit vectors (cpu::loops::each2_best on operands off
// a 32-byte boundary).
#define IVY_AVX2_128_FN [[gnu::target("avx2,prefer-vector-width=128")]]
#define IVY_AVX512VL_128_FN [[gnu::target("avx512f,avx512dq,avx512vl,avx512bw,prefer-vector-width=128")]]
namespace ivy::cpu::isa {
extern const bool kAvx2;
extern const bool kAvx512;  // implies kAvx2
}  // namespace ivy::cpu::isa
#else
#define IVY_AVX2 0
#endif
