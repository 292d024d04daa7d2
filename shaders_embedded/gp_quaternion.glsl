// gp_quaternion.glsl: rotations by unit quaternions (x, y, z, s), for the bodies' passes and
// their drawing (Harada 2007, section 29.2).
// v rotated by q (eq. 18), and the product a * b (its appendix).
vec3 gp_rotate(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }
vec4 gp_quat_mul(vec4 a, vec4 b) { return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz)); }
