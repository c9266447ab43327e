/* Capability checks; see caps.h. */
#include "util/caps.h"

#include <errno.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

_Static_assert(CAPS_SYS_ADMIN == CAP_SYS_ADMIN, "capability numbers are the kernel's");
_Static_assert(CAPS_SYS_PTRACE == CAP_SYS_PTRACE, "capability numbers are the kernel's");
_Static_assert(CAPS_SYSLOG == CAP_SYSLOG, "capability numbers are the kernel's");

int caps_read(struct caps *c)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = { 0 };

	c->effective = 0;
	if (syscall(SYS_capget, &h, d))
		return -errno;
	c->effective = (uint64_t)d[1].effective << 32 | d[0].effective;
	return 0;
}

bool caps_has(const struct caps *c, enum caps_id cap)
{
	return c->effective >> cap & 1;
}

bool caps_can_trace(const struct caps *c)
{
	return caps_has(c, CAPS_SYS_ADMIN) || (caps_has(c, CAPS_BPF) && caps_has(c, CAPS_PERFMON));
}

const char *caps_name(enum caps_id cap)
{
	switch (cap) {
	case CAPS_SYS_PTRACE:
		return "CAP_SYS_PTRACE";
	case CAPS_SYS_ADMIN:
		return "CAP_SYS_ADMIN";
	case CAPS_SYSLOG:
		return "CAP_SYSLOG";
	case CAPS_PERFMON:
		return "CAP_PERFMON";
	case CAPS_BPF:
		return "CAP_BPF";
	}
	return "?";
}
