kernel void convert(global const TA* in, global TB* out) {
  int i = get_global_id(0);
  out[i] = (TB)in[i];
}
