// 256-bin histogram with atomics on local then global counters.
kernel void histogram(global const uchar* data, global uint* bins, const uint n) {
  local uint counts[256];
  int lid = get_local_id(0);
  for (int b = lid; b < 256; b += get_local_size(0)) counts[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&counts[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 256; b += get_local_size(0)) atomic_add(&bins[b], counts[b]);
}
