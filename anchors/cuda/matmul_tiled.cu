// CUDA C anchor for kernels/src/matmul/k02_tiled.rs: 16×16 tiles in dynamic shared memory, the same
// loads, barriers and edge handling.
#define TILE 16
extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c,
                                        unsigned m, unsigned n, unsigned k) {
    extern __shared__ float tiles[];
    float* a_tile = tiles;
    float* b_tile = tiles + TILE * TILE;
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    unsigned own = ty * TILE + tx;
    float acc = 0.0f;
    for (unsigned t = 0; t < (k + TILE - 1) / TILE; ++t) {
        unsigned a_col = t * TILE + tx, b_row = t * TILE + ty;
        a_tile[own] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
        b_tile[own] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (unsigned i = 0; i < TILE; ++i) acc = fmaf(a_tile[ty * TILE + i], b_tile[i * TILE + tx], acc);
        __syncthreads();
    }
    if (row < m && col < n) c[row * n + col] = acc;
}
