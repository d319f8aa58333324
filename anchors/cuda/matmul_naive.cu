// CUDA C anchor for kernels/src/matmul/k01_naive.rs: the same algorithm and launch shape (16×16 blocks).
extern "C" __global__ void matmul_naive(const float* a, const float* b, float* c,
                                        unsigned m, unsigned n, unsigned k) {
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (unsigned i = 0; i < k; ++i) acc = fmaf(a[row * k + i], b[i * n + col], acc);
    c[row * n + col] = acc;
}
