/*
 * What every part of the u32/string model shares: the verdict of a match
 * and the kernel version being modelled. The model is pure: no I/O, no
 * exits; errors come back as -errno with a message.
 */
#ifndef TRIAGE_U32_VERDICT_H
#define TRIAGE_U32_VERDICT_H

#include <stdbool.h>

#define U32_ERR_LEN 320 /* room for any message of the model */

enum u32_verdict { U32_VERDICT_NO = 0, U32_VERDICT_YES = 1, U32_VERDICT_INDET = 2 };

/* Which behaviour of a kernel version to model (spec 5.8). */
struct u32_kernel_profile {
	bool shift_mod32; /* pre-6.18.40 x86: shift counts taken mod 32 */
	bool to_start;	  /* pre-6.7: a string match need only start at <= --to */
};

/*
 * The options that pick a profile: --shift reject|mod32, --string-to
 * end|start. 1: opt was one and val was valid; 0: opt is not one of them;
 * -EINVAL: a bad or missing val.
 */
int u32_kernel_profile_option(struct u32_kernel_profile *kp, const char *opt, const char *val);

#endif
