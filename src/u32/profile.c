/* The kernel version a run models, from the options that choose it. */
#include <errno.h>
#include <string.h>

#include "u32/verdict.h"

int u32_kernel_profile_option(struct u32_kernel_profile *kp, const char *opt, const char *val)
{
	bool shift = strcmp(opt, "--shift") == 0;

	if (!shift && strcmp(opt, "--string-to"))
		return 0;
	if (!val)
		return -EINVAL;
	if (shift && (!strcmp(val, "reject") || !strcmp(val, "mod32")))
		kp->shift_mod32 = strcmp(val, "mod32") == 0;
	else if (!shift && (!strcmp(val, "end") || !strcmp(val, "start")))
		kp->to_start = strcmp(val, "start") == 0;
	else
		return -EINVAL;
	return 1;
}
