#include "runloop/fdlimit.h"

rlim_t runloop_raise_nofile(rlim_t cap)
{
	struct rlimit rl, want = { cap, cap };

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_max < cap && !setrlimit(RLIMIT_NOFILE, &want))
		getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > cap ? cap : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	return rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > cap ? cap : rl.rlim_cur;
}
