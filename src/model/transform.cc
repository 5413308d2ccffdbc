// Matrix to translation, rotation and scale (scene.h's Trs): glTF nodes take TRS, and its
// validator refuses a matrix that is not one.
#include <cmath>

#include "assay/model/scene.h"

namespace assay::model {

namespace {

using D3 = std::array<double, 3>;

double dot(const D3& a, const D3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
D3 cross(const D3& a, const D3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
D3 scaled(const D3& a, double k) { return {a[0] * k, a[1] * k, a[2] * k}; }
D3 minus(const D3& a, const D3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double finite_or(double v, double d) { return std::isfinite(v) ? v : d; }

// Unit length of v, or `fallback` when v has (almost) none.
D3 unit(const D3& v, const D3& fallback, double& length) {
  length = std::sqrt(dot(v, v));
  return length > 1e-12 ? scaled(v, 1 / length) : fallback;
}

// The quaternion (x, y, z, w) of the rotation whose columns are x, y, z (orthonormal, det +1).
Vec4 quaternion(const D3& x, const D3& y, const D3& z) {
  const double m00 = x[0], m11 = y[1], m22 = z[2];
  double q[4];
  const double tr = m00 + m11 + m22;
  if (tr > 0) {
    const double s = std::sqrt(tr + 1) * 2;
    q[3] = s / 4, q[0] = (y[2] - z[1]) / s, q[1] = (z[0] - x[2]) / s, q[2] = (x[1] - y[0]) / s;
  } else if (m00 > m11 && m00 > m22) {
    const double s = std::sqrt(1 + m00 - m11 - m22) * 2;
    q[3] = (y[2] - z[1]) / s, q[0] = s / 4, q[1] = (y[0] + x[1]) / s, q[2] = (z[0] + x[2]) / s;
  } else if (m11 > m22) {
    const double s = std::sqrt(1 + m11 - m00 - m22) * 2;
    q[3] = (z[0] - x[2]) / s, q[0] = (y[0] + x[1]) / s, q[1] = s / 4, q[2] = (z[1] + y[2]) / s;
  } else {
    const double s = std::sqrt(1 + m22 - m00 - m11) * 2;
    q[3] = (x[1] - y[0]) / s, q[0] = (z[0] + x[2]) / s, q[1] = (z[1] + y[2]) / s, q[2] = s / 4;
  }
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (q[3] < 0) for (double& v : q) v = -v;  // one of the two equal quaternions, w >= 0
  return {static_cast<float>(q[0] / n), static_cast<float>(q[1] / n), static_cast<float>(q[2] / n),
          static_cast<float>(q[3] / n)};
}

}  // namespace

Trs decompose(const Mat4& m) {
  auto col = [&](int c) { return D3{finite_or(m[c * 4], 0), finite_or(m[c * 4 + 1], 0), finite_or(m[c * 4 + 2], 0)}; };
  const D3 c0 = col(0), c1 = col(1), c2 = col(2);
  double sx = 0, sy = 0, sz = 0;
  const D3 x = unit(c0, {1, 0, 0}, sx);
  D3 y = minus(c1, scaled(x, dot(c1, x)));
  if (dot(y, y) < 1e-18) y = cross(std::abs(x[0]) < 0.9 ? D3{1, 0, 0} : D3{0, 1, 0}, x);  // c1 along x
  y = unit(y, {0, 1, 0}, sy);
  sy = std::sqrt(dot(c1, c1));
  const D3 z = cross(x, y);
  sz = std::sqrt(dot(c2, c2));
  if (dot(cross(c0, c1), c2) < 0) sz = -sz;  // mirrored axes: the scale carries the sign
  Trs t;
  t.translation = {static_cast<float>(finite_or(m[12], 0)), static_cast<float>(finite_or(m[13], 0)),
                   static_cast<float>(finite_or(m[14], 0))};
  t.rotation = quaternion(x, y, z);
  t.scale = {static_cast<float>(sx), static_cast<float>(sy), static_cast<float>(sz)};
  return t;
}

Mat4 multiply(const Mat4& a, const Mat4& b) {
  Mat4 r{};
  for (int c = 0; c < 4; ++c)
    for (int row = 0; row < 4; ++row) {
      double v = 0;
      for (int k = 0; k < 4; ++k) v += static_cast<double>(a[k * 4 + row]) * b[c * 4 + k];
      r[c * 4 + row] = static_cast<float>(v);
    }
  return r;
}

// The 3x3 part by its adjugate over the determinant; the translation as -inverse * t.
std::optional<Mat4> inverse_affine(const Mat4& m) {
  auto at = [&](int row, int col) { return static_cast<double>(m[col * 4 + row]); };
  double inv[3][3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      const int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
      inv[r][c] = at(r1, c1) * at(r2, c2) - at(r1, c2) * at(r2, c1);
    }
  const double det = at(0, 0) * inv[0][0] + at(0, 1) * inv[1][0] + at(0, 2) * inv[2][0];
  if (!std::isfinite(det) || std::fabs(det) < 1e-12) return std::nullopt;
  Mat4 r{};
  for (int row = 0; row < 3; ++row) {
    double t = 0;
    for (int c = 0; c < 3; ++c) {
      r[c * 4 + row] = static_cast<float>(inv[row][c] / det);
      t -= inv[row][c] / det * at(c, 3);
    }
    r[12 + row] = static_cast<float>(t);
  }
  r[15] = 1;
  return r;
}

}  // namespace assay::model
