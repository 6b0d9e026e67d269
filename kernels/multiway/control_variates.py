"""Control-variate estimation over grouped sufficient statistics (pure NumPy).

For a per-sample outcome ``Y`` (T targets) and controls ``C`` (P values with known means ``μ``),
the estimate is ``mean(Y) - βᵀ (mean(C) - μ)`` with ``β = Σ_CC⁻¹ Σ_CY``. Samples come in
independent groups (batches); everything is computed from per-group sums, so the inputs are
integer counts and sums of products, never averages:

* β is **cross-fitted**: groups are split into two folds by parity and each fold is adjusted with
  the β fitted on the other, so β is independent of the samples it adjusts and the estimate has no
  O(P/N) bias however few samples there are. The fit standardises the controls and uses a
  pseudo-inverse, so collinear or constant controls are harmless (their weight is zero).
* Standard errors are **batch means** (cluster-robust ratio form): with ``R_g`` the adjusted sum
  and ``N_g`` the sample count of group g, ``s² = G/(G-1) Σ_g (R_g - θ N_g)² / (Σ N_g)²``, which
  counts every correlation inside a group (e.g. the seats of one deal). ``s`` has only G - 1
  degrees of freedom, so the reported ``se = s · t(0.975, G-1) / 1.96``: ``estimate ± 1.96 se`` is
  then the 95% Student-t interval (with 128 groups, ``se`` is 1% larger than ``s``; with 32, 4%).
* ``gain`` is the ratio of per-sample variances without and with the controls (β fitted on all
  samples): the factor by which the controls multiply the effective number of samples.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.constants import Z_975  # spec/constants.json; the build and the CLI import it from here

FOLDS = 2
#: Residual variance below this fraction of the plain variance is rounding noise: the controls
#: determine the outcome (e.g. 2 players, where they are the outcome), so the error is zero.
EXACT_FRACTION = 1e-12


class ControlVariateEstimate(NamedTuple):
    """Estimates of the T targets, each array ``(..., T)``; ``gain`` is ``inf`` where the controls explain all variance."""

    mean: np.ndarray
    se: np.ndarray
    mean_plain: np.ndarray
    se_plain: np.ndarray
    gain: np.ndarray


def _covariances(n, sum_y, sum_c, sum_cc, sum_cy):
    """Centred sums of products: ``S_cc`` (..., P, P) and ``S_cy`` (..., P, T) from raw sums."""
    count = np.maximum(n, 1)[..., None, None]
    s_cc = sum_cc - sum_c[..., :, None] * sum_c[..., None, :] / count
    s_cy = sum_cy - sum_c[..., :, None] * sum_y[..., None, :] / count
    return s_cc, s_cy


def fit_coefficients(s_cc: np.ndarray, s_cy: np.ndarray) -> np.ndarray:
    """β = S_cc⁺ S_cy with standardised controls, ``(..., P, T)``; a constant control gets β = 0."""
    scale = np.sqrt(np.clip(np.diagonal(s_cc, axis1=-2, axis2=-1), 0.0, None))
    safe = np.where(scale > 0, scale, 1.0)
    correlation = s_cc / (safe[..., :, None] * safe[..., None, :])
    beta_standard = np.linalg.pinv(correlation, rcond=1e-10, hermitian=True) @ (s_cy / safe[..., :, None])
    return np.where(scale[..., None] > 0, beta_standard / safe[..., :, None], 0.0)


def student_t_975(dof: np.ndarray) -> np.ndarray:
    """0.975 quantile of Student's t with ``dof`` ≥ 1 degrees of freedom (Cornish–Fisher series, error < 1e-3 for dof ≥ 3)."""
    z = Z_975
    v = np.asarray(dof, dtype=np.float64)
    return z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2) + (
        3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z
    ) / (384 * v**3)


def _batch_means(n, adjusted):
    """Ratio estimate and its t-scaled batch-means standard error over the group axis (-2 of ``adjusted``).

    With fewer than two non-empty groups the error is unknown: ``inf``.
    """
    total = n.sum(axis=-1)
    mean = adjusted.sum(axis=-2) / np.maximum(total, 1)[..., None]
    groups = np.count_nonzero(n, axis=-1)
    spread = ((adjusted - mean[..., None, :] * n[..., None]) ** 2).sum(axis=-2)
    dof = np.maximum(groups - 1, 1)
    factor = groups / dof / np.maximum(total, 1) ** 2 * (student_t_975(dof) / Z_975) ** 2
    se = np.sqrt(spread * factor[..., None])
    return mean, np.where((groups >= 2)[..., None], se, np.inf)


def control_variate_estimate(n, sum_y, sum_yy, sum_c, sum_cc, sum_cy, mu) -> ControlVariateEstimate:
    """Cross-fitted control-variate estimate with batch-means standard errors.

    n: samples per group ``(..., G)``; sum_y, sum_yy: Σ Y and Σ Y² per target ``(..., G, T)``;
    sum_c: Σ C ``(..., G, P)``; sum_cc: Σ C Cᵀ ``(..., G, P, P)``; sum_cy: Σ C Yᵀ ``(..., G, P, T)``;
    mu: exact means of the controls ``(..., P)``. Groups must be independent of one another.
    """
    n = np.asarray(n, dtype=np.float64)
    sum_y, sum_yy, sum_c, sum_cc, sum_cy = (np.asarray(a, dtype=np.float64) for a in (sum_y, sum_yy, sum_c, sum_cc, sum_cy))
    fold_of_group = np.arange(n.shape[-1]) % FOLDS
    centred_c = sum_c - n[..., None] * np.asarray(mu, dtype=np.float64)[..., None, :]
    adjusted = sum_y.copy()
    for fold in range(FOLDS):
        other = fold_of_group != fold
        s_cc, s_cy = _covariances(
            n[..., other].sum(-1), sum_y[..., other, :].sum(-2), sum_c[..., other, :].sum(-2),
            sum_cc[..., other, :, :].sum(-3), sum_cy[..., other, :, :].sum(-3),
        )
        beta = fit_coefficients(s_cc, s_cy)
        mine = fold_of_group == fold
        adjusted[..., mine, :] -= np.einsum("...gp,...pt->...gt", centred_c[..., mine, :], beta)
    mean, se = _batch_means(n, adjusted)
    mean_plain, se_plain = _batch_means(n, sum_y)

    total = n.sum(-1)
    s_cc, s_cy = _covariances(total, sum_y.sum(-2), sum_c.sum(-2), sum_cc.sum(-3), sum_cy.sum(-3))
    s_yy = sum_yy.sum(-2) - sum_y.sum(-2) ** 2 / np.maximum(total, 1)[..., None]
    explained = np.einsum("...pt,...pt->...t", s_cy, fit_coefficients(s_cc, s_cy))
    residual = s_yy - explained
    exact = residual <= EXACT_FRACTION * s_yy
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.where(exact, np.inf, s_yy / np.where(exact, 1.0, residual))
    gain = np.where(s_yy > 0, gain, 1.0)
    se = np.where(exact & (s_yy > 0), 0.0, se)
    return ControlVariateEstimate(mean, se, mean_plain, se_plain, gain)
