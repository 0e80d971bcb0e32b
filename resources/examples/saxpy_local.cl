// y = alpha * x + y, staged through local memory.
kernel void saxpy_local(global const float* x, global float* y, const float alpha, local float* tile) {
  int gid = get_global_id(0);
  int lid = get_local_id(0);
  tile[lid] = x[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  y[gid] = alpha * tile[lid] + y[gid];
}
