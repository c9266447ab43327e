/*
 * Capability checks by name, for every command that needs privilege
 * (probes, doctor, and the report's BPF enrichment): one capget() and the
 * effective set as data.
 */
#ifndef TRIAGE_UTIL_CAPS_H
#define TRIAGE_UTIL_CAPS_H

#include <stdbool.h>
#include <stdint.h>

/* Capability numbers (linux/capability.h; CAP_PERFMON and CAP_BPF since Linux 5.8). */
enum caps_id {
	CAPS_SYS_PTRACE = 19,
	CAPS_SYS_ADMIN = 21,
	CAPS_SYSLOG = 34,
	CAPS_PERFMON = 38,
	CAPS_BPF = 39,
};

struct caps {
	uint64_t effective; /* bit n: capability n */
};

/* Reads this thread's effective capabilities. 0 or -errno. */
int caps_read(struct caps *c);
bool caps_has(const struct caps *c, enum caps_id cap);
/*
 * Loading and attaching tracing BPF programs: CAP_SYS_ADMIN, or both
 * CAP_BPF and CAP_PERFMON.
 */
bool caps_can_trace(const struct caps *c);
/* "CAP_BPF" for CAPS_BPF, and so on. */
const char *caps_name(enum caps_id cap);

#endif
