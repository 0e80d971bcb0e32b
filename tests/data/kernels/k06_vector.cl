kernel void dot4(global const float4* a, global const float4* b, global float* out) {
  int i = get_global_id(0);
  float4 p = a[i] * b[i];
  out[i] = p.x + p.y + p.z + p.w;
}
