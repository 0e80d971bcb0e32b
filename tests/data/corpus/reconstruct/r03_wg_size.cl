kernel void stage(global const float* in, global float* out) {
  local float tile[WG_SIZE];
  int l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[WG_SIZE - 1 - l];
}
