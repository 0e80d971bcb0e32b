/* The same kernel as amplify, with other names and layout: a duplicate. */
constant float g = 2.0f;
kernel void louder(global float* data) { int k = get_global_id(0);
  data[k] = data[k] * g; }
