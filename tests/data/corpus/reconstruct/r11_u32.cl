kernel void rotate(global u32* w) {
  int i = get_global_id(0);
  u32 x = w[i];
  w[i] = (x << 3) | (x >> 29);
}
