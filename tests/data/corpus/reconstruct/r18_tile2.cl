kernel void transpose(global const float* in, global float* out, int w) {
  local float tile[TILE * TILE];
  int x = get_local_id(0), y = get_local_id(1);
  tile[y * TILE + x] = in[get_global_id(1) * w + get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0) * w + get_global_id(1)] = tile[x * TILE + y];
}
