/* Sanitizer canaries (see canary.h): kernels/ stands where ATen does, so upstream's ATen canary
 * lives here, compiled with the rest of the kernels.
 */
#include "canary.h"

/* UBSan would see the overrun first (bounds, object-size): this canary is ASan's */
__attribute__((no_sanitize("undefined"))) int
tn_canary_stack_overrun(int i)
{
    volatile char x[3];
    x[i] = 0;
    return x[0];
}
