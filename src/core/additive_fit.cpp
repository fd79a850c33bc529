// RTT(a, b) = u(a) + u(b) + c by least squares: how much of a map is "each
// unit has its own cost" (for a flag line: its distance to the line's home)
// rather than anything about the pair.
//
// The normal equations are an (N+1) x (N+1) symmetric system, N at most a
// few hundred units: a Cholesky factorisation written out here is ~30 lines
// and a few million flops, so the core takes no linear-algebra dependency
// (Eigen would be one more package for setup, CI and the GPU compilers that
// also see the core's headers, for one small solve).
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "cumap/backend.hpp"
#include "core/homes.hpp"

namespace cumap {
namespace {

// Solves A x = b for symmetric positive definite A (n x n, row-major) in
// place by Cholesky (A = L L^T). Returns false when A is not positive definite.
bool cholesky_solve(std::vector<double>& a, std::vector<double>& b, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0.0)) return false;
    const double l_jj = std::sqrt(d);
    a[j * n + j] = l_jj;
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / l_jj;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {  // L y = b
    double s = b[i];
    for (std::size_t k = 0; k < i; ++k) s -= a[i * n + k] * b[k];
    b[i] = s / a[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T x = y
    double s = b[i];
    for (std::size_t k = i + 1; k < n; ++k) s -= a[k * n + i] * b[k];
    b[i] = s / a[i * n + i];
  }
  return true;
}

}  // namespace

AdditiveFit fit_additive(const ValueMatrix& m) {
  const std::size_t n = m.size();
  AdditiveFit fit;
  fit.units = m.units;
  fit.unit_term.assign(n, kNaN);
  fit.constant = kNaN;
  fit.r2 = kNaN;

  // Only units with at least one finite cell are unknowns; the others keep NaN.
  std::vector<int> slot(n, -1);
  std::size_t unknowns = 0;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n && slot[r] < 0; ++c)
      if (r != c && (std::isfinite(m.at(r, c)) || std::isfinite(m.at(c, r)))) slot[r] = static_cast<int>(unknowns++);
  if (unknowns < 2) return fit;

  // Unknowns: u of every playing unit, then c. Every finite off-diagonal cell
  // is one observation (an ordered map gives both directions).
  const std::size_t dim = unknowns + 1;
  std::vector<double> normal(dim * dim, 0.0), rhs(dim, 0.0);
  double sum_y = 0.0;
  std::size_t observations = 0;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) {
      const double y = m.at(r, c);
      if (r == c || !std::isfinite(y)) continue;
      const std::size_t idx[3] = {static_cast<std::size_t>(slot[r]), static_cast<std::size_t>(slot[c]), unknowns};
      for (std::size_t i : idx) {
        rhs[i] += y;
        for (std::size_t j : idx) normal[i * dim + j] += 1.0;
      }
      sum_y += y;
      ++observations;
    }
  // Gauge: adding t to every u and taking 2t off c changes nothing, so the
  // system is singular by one direction. The penalty (sum of u)^2 removes it
  // and, since the residual does not depend on that direction, the solution
  // is the least-squares one with sum u = 0.
  for (std::size_t i = 0; i < unknowns; ++i)
    for (std::size_t j = 0; j < unknowns; ++j) normal[i * dim + j] += 1.0;
  if (!cholesky_solve(normal, rhs, dim)) return fit;  // observations do not pin every unit down

  for (std::size_t r = 0; r < n; ++r)
    if (slot[r] >= 0) fit.unit_term[r] = rhs[static_cast<std::size_t>(slot[r])];
  fit.constant = rhs[unknowns];

  const double mean_y = sum_y / static_cast<double>(observations);
  double ss_res = 0.0, ss_tot = 0.0;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) {
      const double y = m.at(r, c);
      if (r == c || !std::isfinite(y)) continue;
      const double e = y - (fit.unit_term[r] + fit.unit_term[c] + fit.constant);
      ss_res += e * e;
      ss_tot += (y - mean_y) * (y - mean_y);
    }
  fit.r2 = ss_tot > 0.0 ? 1.0 - ss_res / ss_tot : kNaN;
  return fit;
}

}  // namespace cumap
