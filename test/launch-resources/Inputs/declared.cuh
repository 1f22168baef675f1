// A kernel declared in a header: other files may launch it.
#pragma once
__global__ void shared_kernel(float *out);
