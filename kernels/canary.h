/* Sanitizer canaries: code that is wrong on purpose, so a sanitized build can be shown to report
 * it (tools/asan.py, Note [Canaries]). Nothing but torch._C._crash_if_aten_asan calls it.
 */
#ifndef TN_KERNELS_CANARY_H
#define TN_KERNELS_CANARY_H

/* Writes x[i] of a 3-byte stack array and returns x[0], as upstream's at::_crash_if_asan:
 * i >= 3 is a stack overrun that ASan reports; a release build just returns. */
int tn_canary_stack_overrun(int i);

#endif /* TN_KERNELS_CANARY_H */
