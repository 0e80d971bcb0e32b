kernel void reverse_tile(global const int* in, global int* out) {
  local int tile[64];
  int l = get_local_id(0);
  int g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[63 - l];
}
