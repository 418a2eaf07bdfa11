/* Special functions of real arguments, one element at a time: the modified Bessel functions
 * (i0, i0e, i1, i1e, I0, I1, K0, K1 and scaled K0, K1), Bessel J0, J1, Y0, Y1, spherical j0,
 * Airy Ai, erfcx, log_ndtr, ndtri, the Hurwitz zeta and the regularized incomplete gammas.
 * Each comes as _f32 and _f64: float computes in float, as upstream's float32 kernels do (see
 * Note [Special functions in float] in special.c). Adding one: its two prototypes here, its
 * body in special_tmpl.h, a unary or binary op that calls it (unary.c, binary.c).
 */
#ifndef TN_KERNELS_SPECIAL_H
#define TN_KERNELS_SPECIAL_H

/* I0(x), upstream's calc_i0 (aten::i0) */
float tn_special_i0_f32(float x);
double tn_special_i0_f64(double x);
/* exp(-|x|) I0(x) */
float tn_special_i0e_f32(float x);
double tn_special_i0e_f64(double x);
/* I1(x); float takes the shortened Cephes series, as upstream */
float tn_special_i1_f32(float x);
double tn_special_i1_f64(double x);
/* exp(-|x|) I1(x); likewise */
float tn_special_i1e_f32(float x);
double tn_special_i1e_f64(double x);
/* special_modified_bessel_i0 (the full series in float too) */
float tn_special_bessel_i0_f32(float x);
double tn_special_bessel_i0_f64(double x);
/* special_modified_bessel_i1 */
float tn_special_bessel_i1_f32(float x);
double tn_special_bessel_i1_f64(double x);
/* special_modified_bessel_k0 */
float tn_special_bessel_k0_f32(float x);
double tn_special_bessel_k0_f64(double x);
/* special_modified_bessel_k1 */
float tn_special_bessel_k1_f32(float x);
double tn_special_bessel_k1_f64(double x);
/* special_scaled_modified_bessel_k0: exp(x) K0(x) */
float tn_special_bessel_k0e_f32(float x);
double tn_special_bessel_k0e_f64(double x);
/* special_scaled_modified_bessel_k1: exp(x) K1(x) */
float tn_special_bessel_k1e_f32(float x);
double tn_special_bessel_k1e_f64(double x);
float tn_special_bessel_j0_f32(float x);
double tn_special_bessel_j0_f64(double x);
float tn_special_bessel_j1_f32(float x);
double tn_special_bessel_j1_f64(double x);
float tn_special_bessel_y0_f32(float x);
double tn_special_bessel_y0_f64(double x);
float tn_special_bessel_y1_f32(float x);
double tn_special_bessel_y1_f64(double x);
/* sin(x) / x */
float tn_special_spherical_j0_f32(float x);
double tn_special_spherical_j0_f64(double x);
float tn_special_airy_ai_f32(float x);
double tn_special_airy_ai_f64(double x);
/* exp(x^2) erfc(x) */
float tn_special_erfcx_f32(float x);
double tn_special_erfcx_f64(double x);
/* log of the standard normal CDF */
float tn_special_log_ndtr_f32(float x);
double tn_special_log_ndtr_f64(double x);
/* the inverse of the standard normal CDF */
float tn_special_ndtri_f32(float x);
double tn_special_ndtri_f64(double x);
/* Hurwitz zeta(x, q); float accumulates in double (upstream's acc_type), its first term in float */
float tn_special_zeta_f32(float a, float x);
double tn_special_zeta_f64(double a, double x);
/* regularized lower incomplete gamma P(a, x) */
float tn_special_igamma_f32(float a, float x);
double tn_special_igamma_f64(double a, double x);
/* regularized upper incomplete gamma Q(a, x) */
float tn_special_igammac_f32(float a, float x);
double tn_special_igammac_f64(double a, double x);

#endif /* TN_KERNELS_SPECIAL_H */
