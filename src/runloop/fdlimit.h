/*
 * Samplers keep /proc files open between samples (one pread instead of
 * openat + read + close): that needs file descriptors.
 */
#ifndef TRIAGE_RUNLOOP_FDLIMIT_H
#define TRIAGE_RUNLOOP_FDLIMIT_H

#include <sys/resource.h>

/*
 * Raises RLIMIT_NOFILE toward cap: the hard limit too when privileged,
 * the soft one to the hard one. Returns the soft limit now in force, at
 * most cap; 0 if it cannot be read. Callers keep room for everything else.
 */
rlim_t runloop_raise_nofile(rlim_t cap);

#endif
