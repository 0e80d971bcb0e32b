kernel void blur(read_only image2d_t img, global float4* out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  out[p.y * get_image_width(img) + p.x] = read_imagef(img, smp, p);
}
