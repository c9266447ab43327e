/* Forks by parent (forks.h): the skeleton's start and stop, and its map read. */
#include "probe/forks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "bpf/forks.h"
#include "forks.skel.h"
#include "probe/session.h"

PROBE_SKEL_OPS(forks, NULL);

int probe_forks_start(void **skel, const char **stage)
{
	*skel = NULL;
	return probe_start(&forks_skel_ops, 0, NULL, skel, stage);
}

void probe_forks_detach(void *skel)
{
	probe_skel_detach(&forks_skel_ops, skel);
}

void probe_forks_stop(void **skel)
{
	probe_skel_stop(&forks_skel_ops, skel);
}

/* Puts p among the top max of out (n of them so far), most forks first. */
static void keep_top(struct forks_parent *out, size_t max, size_t *n, const struct forks_parent *p)
{
	size_t i;

	if (*n == max) { /* full: p must beat the last one kept */
		if (out[max - 1].forks >= p->forks)
			return;
		i = max - 1;
	} else {
		i = (*n)++; /* a free slot: out[i] holds nothing yet */
	}
	while (i > 0 && out[i - 1].forks < p->forks) {
		out[i] = out[i - 1];
		i--;
	}
	out[i] = *p;
}

void probe_forks_maps(void *skel, struct probe_maps *m)
{
	struct forks_bpf *s = skel;

	*m = (struct probe_maps){ 0 };
	m->map[FORKS_MAP_BY_PARENT].fd = bpf_map__fd(s->maps.forks_by_parent);
	m->map[FORKS_MAP_BY_PARENT].cap = bpf_map__max_entries(s->maps.forks_by_parent);
	m->counter[FORKS_CTR_MAP_FULL] = &s->bss->map_full;
}

int probe_forks_read_top(const struct probe_maps *m, struct forks_parent *out, size_t max,
			 size_t *n)
{
	int fd = m->map[FORKS_MAP_BY_PARENT].fd;
	__u32 key, next;
	bool first = true;

	*n = 0;
	if (!max)
		return 0;
	while (!bpf_map_get_next_key(fd, first ? NULL : &key, &next)) {
		struct forks_val v;
		struct forks_parent p = { .pid = (int)next };

		first = false;
		key = next;
		if (bpf_map_lookup_elem(fd, &key, &v))
			continue;
		p.forks = v.forks;
		memcpy(p.comm, v.comm, sizeof(p.comm));
		p.comm[sizeof(p.comm) - 1] = '\0';
		keep_top(out, max, n, &p);
	}
	return 0;
}

#else /* !TRIAGE_HAVE_BPF */

int probe_forks_start(void **skel, const char **stage)
{
	*skel = NULL;
	*stage = "starting";
	return -ENOPKG;
}

void probe_forks_detach(void *skel)
{
	(void)skel;
}

void probe_forks_stop(void **skel)
{
	(void)skel;
}

void probe_forks_maps(void *skel, struct probe_maps *m)
{
	(void)skel;
	*m = (struct probe_maps){ 0 };
}

int probe_forks_read_top(const struct probe_maps *m, struct forks_parent *out, size_t max,
			 size_t *n)
{
	(void)m;
	(void)out;
	(void)max;
	*n = 0;
	return -ENOPKG;
}

#endif
