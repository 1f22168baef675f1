// The architecture macros each device parse of an nvcc build sees must be
// nvcc 13.0's (nvcc -E -Xcompiler -dM): a wrong set is an #error, the right
// one is named by a #pragma message per parse.
#define CT_STR2(x) #x
#define CT_STR(x) CT_STR2(x)
#ifdef __CUDA_ARCH__
#  if defined(WANT_A)
#    if !defined(__CUDA_ARCH_SPECIFIC__) || __CUDA_ARCH_SPECIFIC__ != __CUDA_ARCH__ || \
        !defined(__CUDA_ARCH_FAMILY_SPECIFIC__) || __CUDA_ARCH_FAMILY_SPECIFIC__ != __CUDA_ARCH__
#      error "an 'a' target without nvcc's __CUDA_ARCH_SPECIFIC__ and __CUDA_ARCH_FAMILY_SPECIFIC__"
#    endif
#    if !__CUDA_ARCH_HAS_FEATURE__(SM90_ALL) && !__CUDA_ARCH_HAS_FEATURE__(SM100_ALL) && \
        !__CUDA_ARCH_HAS_FEATURE__(SM103_ALL) && !__CUDA_ARCH_HAS_FEATURE__(SM110_ALL) && \
        !__CUDA_ARCH_HAS_FEATURE__(SM120_ALL) && !__CUDA_ARCH_HAS_FEATURE__(SM121_ALL)
#      error "an 'a' target without its __CUDA_ARCH_FEAT_SMXY_ALL"
#    endif
#  elif defined(WANT_F)
#    if defined(__CUDA_ARCH_SPECIFIC__) || !defined(__CUDA_ARCH_FAMILY_SPECIFIC__) || \
        __CUDA_ARCH_FAMILY_SPECIFIC__ != __CUDA_ARCH__
#      error "an 'f' target without nvcc's __CUDA_ARCH_FAMILY_SPECIFIC__ alone"
#    endif
#    if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL) || \
        defined(__CUDA_ARCH_FEAT_SM110_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL) || \
        defined(__CUDA_ARCH_FEAT_SM121_ALL)
#      error "an 'f' target with the 'a' target's feature macro"
#    endif
#  elif defined(__CUDA_ARCH_SPECIFIC__) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__) || \
        defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
#    error "a generic target with feature macros"
#  endif
#  if defined(__CUDA_ARCH_SPECIFIC__)
#    pragma message("arch " CT_STR(__CUDA_ARCH__) " specific " CT_STR(__CUDA_ARCH_SPECIFIC__) " family " CT_STR(__CUDA_ARCH_FAMILY_SPECIFIC__))
#  elif defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
#    pragma message("arch " CT_STR(__CUDA_ARCH__) " family " CT_STR(__CUDA_ARCH_FAMILY_SPECIFIC__) " only")
#  else
#    pragma message("arch " CT_STR(__CUDA_ARCH__) " generic")
#  endif
#else
#  if defined(__CUDA_ARCH_SPECIFIC__) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
#    error "the host side with device macros"
#  endif
#endif

__global__ void fill(int *out) { out[threadIdx.x] = 1; }
