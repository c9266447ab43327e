/*
 * The CPUs whose backlog (netdev_max_backlog) dropped packets over the
 * window, from /proc/net/softnet_stat at the window's two ends: the rows
 * net-drops names a CPU from.
 */
#include "report/collect.h"

static const struct softnet_cpu *row_of(const struct softnet *s, int cpu)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->c[i].cpu == cpu)
			return &s->c[i];
	return NULL;
}

static void softnet_cpu(const struct softnet_cpu *a, const struct softnet_cpu *b,
			struct report_data *d)
{
	/* the kernel's counters are 32 bits: the difference modulo 2^32 survives a wrap */
	uint32_t dropped = (uint32_t)(b->dropped - a->dropped);
	struct rp_softnet *o;

	if (!dropped || d->nsoftnet >= RP_MAX_SOFTNET)
		return;
	o = &d->softnet[d->nsoftnet++];
	o->cpu = b->cpu;
	o->dropped = dropped;
	o->squeezed = (uint32_t)(b->time_squeeze - a->time_squeeze);
	o->processed = (uint32_t)(b->processed - a->processed);
}

void report_softnet_results(const struct window *w, struct report_data *d)
{
	const struct report_host_snap *a = &w->h[0], *b = &w->h[1];

	d->have_softnet = a->have_softnet && b->have_softnet;
	if (!d->have_softnet) {
		if (!(w->src->lacks & REPORT_LACKS_SOFTNET))
			report_skip(d, "softnet", "/proc/net/softnet_stat could not be read");
		return;
	}
	for (size_t i = 0; i < b->softnet.n; i++) {
		const struct softnet_cpu *s = row_of(&a->softnet, b->softnet.c[i].cpu);

		if (s) /* a CPU that came online in the window has no start */
			softnet_cpu(s, &b->softnet.c[i], d);
	}
}
