/* Adapter from the report window's pidstat table and host readings (see sources.h). */
#include "collect/sources.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pidstat/pidstat.h"
#include "procfs/parsers.h"

int collect_task_rows(const struct pidstat_table *tb, int curr, proc_row_fn fn, void *ctx)
{
	int rc = 0;

	for (size_t i = 0; tb && i < tb->len && !rc; i++) {
		const struct pidstat_task *t = tb->order[i];
		const struct pidstat_snap *s = &t->snap[curr];
		struct proc_row r;

		if (t->leader)
			continue; /* threads are summed into their process */
		r = (struct proc_row){ .pid = t->pid,
				       .start = t->start,
				       .comm = t->comm,
				       .utime = s->utime,
				       .stime = s->stime,
				       .wtime = s->wtime,
				       .nvcsw = s->nvcsw,
				       .nivcsw = s->nivcsw,
				       .rss_kb = s->rss,
				       .nthreads = t->nthreads };
		if (!(t->flags & TASK_NO_IO)) {
			r.read_bytes = s->read_bytes;
			r.write_bytes = s->write_bytes;
		}
		rc = fn(ctx, &r);
	}
	return rc;
}

static const char *const cpu_modes[] = { "user",   "nice", "system",  "idle",
					 "iowait", "irq",  "softirq", "steal" };

static int cpu_metrics(const struct cpu_times *t, const char *cpu, double hz, struct metric_set *m)
{
	const uint64_t v[] = { t->user,	  t->nice, t->system,  t->idle,
			       t->iowait, t->irq,  t->softirq, t->steal };
	int rc = 0;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]) && !rc; i++)
		rc = metric_add(m, M_CPU_SECONDS, cpu, cpu_modes[i], (double)v[i] / hz);
	return rc;
}

static int load_metrics(const struct loadavg *la, const struct cpu_stat *cs, struct metric_set *m)
{
	int rc = 0;

	if (la) {
		rc = metric_add(m, M_LOAD1, NULL, NULL, la->load[0]);
		rc = rc ? rc : metric_add(m, M_LOAD5, NULL, NULL, la->load[1]);
		rc = rc ? rc : metric_add(m, M_LOAD15, NULL, NULL, la->load[2]);
	}
	if (cs && !rc) {
		rc = metric_add(m, M_TASKS_RUNNABLE, NULL, NULL, (double)cs->procs_running);
		rc =
		    rc ? rc : metric_add(m, M_TASKS_BLOCKED, NULL, NULL, (double)cs->procs_blocked);
	}
	return rc;
}

static int psi_metrics(const struct report_host_view *v, struct metric_set *m)
{
	static const char *const res[RP_PSI_COUNT] = {
		[RP_PSI_CPU] = "cpu", [RP_PSI_MEM] = "memory", [RP_PSI_IO] = "io"
	};
	static const char *const kind[2] = { "some", "full" };
	int rc = 0;

	for (int r = 0; r < RP_PSI_COUNT && !rc; r++) {
		const struct psi *p = v->psi[r];

		for (int k = 0; p && k < 2 && !rc; k++) {
			const struct psi_line *l = k ? &p->full : &p->some;

			if (!l->present)
				continue;
			rc = metric_add(m, M_PSI_STALL, res[r], kind[k], (double)l->total_us / 1e6);
			rc = rc ? rc : metric_add(m, M_PSI_AVG10, res[r], kind[k], l->avg10 / 100);
		}
	}
	return rc;
}

static int mem_metrics(const struct meminfo *mi, struct metric_set *m)
{
	int rc;

	if (!mi)
		return 0;
	rc = metric_add(m, M_MEM_TOTAL, NULL, NULL, (double)mi->total * 1024);
	if (!rc && mi->has_available)
		rc = metric_add(m, M_MEM_AVAILABLE, NULL, NULL, (double)mi->available * 1024);
	rc = rc ? rc : metric_add(m, M_SWAP_TOTAL, NULL, NULL, (double)mi->swap_total * 1024);
	rc = rc ? rc : metric_add(m, M_SWAP_FREE, NULL, NULL, (double)mi->swap_free * 1024);
	return rc;
}

static int disk_metrics(const struct disk_stats *ds, struct metric_set *m)
{
	int rc = 0;

	for (size_t i = 0; ds && i < ds->n && !rc; i++) {
		const struct disk_stat *d = &ds->d[i];

		if (!strncmp(d->name, "loop", 4) || !strncmp(d->name, "ram", 3))
			continue; /* idle pseudo devices would crowd the export */
		rc = metric_add(m, M_DISK_READ_BYTES, d->name, NULL, (double)d->rd_sectors * 512);
		rc = rc ? rc
			: metric_add(m, M_DISK_WRITTEN_BYTES, d->name, NULL,
				     (double)d->wr_sectors * 512);
		rc = rc ? rc : metric_add(m, M_DISK_READS, d->name, NULL, (double)d->rd_ios);
		rc = rc ? rc : metric_add(m, M_DISK_WRITES, d->name, NULL, (double)d->wr_ios);
		rc = rc ? rc
			: metric_add(m, M_DISK_IO_TIME, d->name, NULL, (double)d->io_ticks / 1e3);
	}
	return rc;
}

static int net_metrics(const struct iface_stats *is, struct metric_set *m)
{
	int rc = 0;

	for (size_t i = 0; is && i < is->n && !rc; i++) {
		const struct iface_stat *s = &is->i[i];
		const struct {
			enum metric_id id;
			uint64_t v;
		} f[] = { { M_NET_RX_BYTES, s->rx_bytes },     { M_NET_TX_BYTES, s->tx_bytes },
			  { M_NET_RX_PACKETS, s->rx_packets }, { M_NET_TX_PACKETS, s->tx_packets },
			  { M_NET_RX_ERRORS, s->rx_errs },     { M_NET_TX_ERRORS, s->tx_errs },
			  { M_NET_RX_DROPS, s->rx_drop },      { M_NET_TX_DROPS, s->tx_drop } };

		for (size_t k = 0; k < sizeof(f) / sizeof(f[0]) && !rc; k++)
			rc = metric_add(m, f[k].id, s->name, NULL, (double)f[k].v);
	}
	return rc;
}

int collect_host_metrics(const struct report_host_view *v, const struct host_facts *h,
			 struct metric_set *m)
{
	const struct cpu_stat *cs = v->cpu;
	double hz = h->hz > 0 ? (double)h->hz : 100;
	int rc = 0;

	for (int c = 0; cs && c < cs->ncpu && !rc; c++) {
		char name[16];

		if (!cs->online[c])
			continue;
		snprintf(name, sizeof(name), "%d", c);
		rc = cpu_metrics(&cs->cpu[c], name, hz, m);
	}
	rc = rc ? rc : load_metrics(v->load, cs, m);
	rc = rc ? rc : psi_metrics(v, m);
	rc = rc ? rc : mem_metrics(v->mem, m);
	rc = rc ? rc : disk_metrics(v->disks, m);
	return rc ? rc : net_metrics(v->ifaces, m);
}
