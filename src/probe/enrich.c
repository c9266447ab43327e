/* System-wide eBPF enrichment of a report window; see enrich.h. (Stub: being implemented.) */
#include "probe/enrich.h"

#include <errno.h>
#include <stddef.h>

int probe_enrich_start(const struct probe_enrich_opts *opts, struct probe_enrich **out)
{
	(void)opts;
	*out = NULL;
	return -ENOSYS;
}

int probe_enrich_stop(struct probe_enrich *e)
{
	return e ? 0 : -EINVAL;
}

void probe_enrich_free(struct probe_enrich *e)
{
	(void)e;
}

int probe_enrich_part_status(const struct probe_enrich *e, enum probe_enrich_part part,
			     const char **stage)
{
	if (stage)
		*stage = "starting";
	return -ENOSYS;
}

double probe_enrich_seconds(const struct probe_enrich *e)
{
	return 0;
}

int probe_enrich_runq(const struct probe_enrich *e, int pid, struct probe_enrich_runq *out)
{
	return -ENOSYS;
}

int probe_enrich_top_functions(struct probe_enrich *e, int pid, struct probe_enrich_func *out,
			       size_t max, size_t *n, struct probe_enrich_profile *sum)
{
	*n = 0;
	return -ENOSYS;
}

int probe_enrich_top_syscalls(const struct probe_enrich *e, int pid,
			      struct probe_enrich_syscall *out, size_t max, size_t *n)
{
	*n = 0;
	return -ENOSYS;
}

int probe_enrich_dstate(const struct probe_enrich *e, int pid, struct probe_enrich_dwait *out,
			size_t max, size_t *n)
{
	*n = 0;
	return -ENOSYS;
}
