// An error on every side, so that clang-tidy names each job it ran
// ("Error while processing"): the count of jobs.
#ifdef VARY
#if __CUDA_ARCH__ >= 900
#endif
#endif
int broken = undeclared_name;
