/* Pure parsers of host-level counters (see hoststats.h). */
#include "procfs/hoststats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A line of a buffer that need not be NUL-terminated. */
struct line {
	const char *p, *end;
};

/* Moves *pos to the next line; returns false at the end of the buffer. */
static bool next_line(const char *buf, size_t len, size_t *pos, struct line *l)
{
	const char *nl;

	if (*pos >= len)
		return false;
	l->p = buf + *pos;
	nl = memchr(l->p, '\n', len - *pos);
	l->end = nl ? nl : buf + len;
	*pos = (size_t)(l->end - buf) + 1;
	return true;
}

static void skip_ws(struct line *l)
{
	while (l->p < l->end && (*l->p == ' ' || *l->p == '\t'))
		l->p++;
}

static int take_u64(struct line *l, uint64_t *out)
{
	uint64_t v = 0;
	const char *start;

	skip_ws(l);
	start = l->p;
	while (l->p < l->end && *l->p >= '0' && *l->p <= '9')
		v = v * 10 + (uint64_t)(*l->p++ - '0');
	if (l->p == start)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The next blank-separated word into buf (cut to size - 1); false if none. */
static bool take_word(struct line *l, char *buf, size_t size)
{
	size_t n = 0;

	skip_ws(l);
	if (l->p >= l->end)
		return false;
	while (l->p < l->end && *l->p != ' ' && *l->p != '\t') {
		if (n + 1 < size)
			buf[n++] = *l->p;
		l->p++;
	}
	buf[n] = '\0';
	return true;
}

static bool starts_with(const struct line *l, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(l->end - l->p) >= n && !memcmp(l->p, s, n);
}

uint64_t procfs_cpu_times_total(const struct cpu_times *t)
{
	return t->user + t->nice + t->system + t->idle + t->iowait + t->irq + t->softirq + t->steal;
}

uint64_t procfs_cpu_times_busy(const struct cpu_times *t)
{
	return t->user + t->nice + t->system + t->irq + t->softirq + t->steal;
}

static int cpu_times_take(struct line *l, struct cpu_times *t)
{
	uint64_t *f[] = { &t->user,   &t->nice, &t->system,  &t->idle,
			  &t->iowait, &t->irq,	&t->softirq, &t->steal };

	memset(t, 0, sizeof(*t));
	/* old kernels lack the later columns: four are the minimum */
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (take_u64(l, f[i]))
			return i >= 4 ? 0 : -EINVAL;
	return 0;
}

/* A "cpuN" line; lines for CPUs beyond the table are counted in the total only. */
static int cpu_line(struct line *l, struct cpu_stat *out)
{
	uint64_t n;
	struct cpu_times t;

	l->p += 3;
	if (take_u64(l, &n) || cpu_times_take(l, &t))
		return -EINVAL;
	if (n >= HOST_MAX_CPUS)
		return 0;
	out->cpu[n] = t;
	out->online[n] = true;
	if ((int)n + 1 > out->ncpu)
		out->ncpu = (int)n + 1;
	return 0;
}

int procfs_cpu_stat_parse(const char *buf, size_t len, struct cpu_stat *out)
{
	struct line l;
	size_t pos = 0;
	bool total = false;

	memset(out, 0, sizeof(*out));
	while (next_line(buf, len, &pos, &l)) {
		if (starts_with(&l, "cpu ")) {
			l.p += 3;
			if (cpu_times_take(&l, &out->all))
				return -EINVAL;
			total = true;
		} else if (starts_with(&l, "cpu") && l.p + 3 < l.end && l.p[3] >= '0' &&
			   l.p[3] <= '9') {
			if (cpu_line(&l, out))
				return -EINVAL;
		} else if (starts_with(&l, "ctxt ")) {
			l.p += 5;
			take_u64(&l, &out->ctxt);
		} else if (starts_with(&l, "processes ")) {
			l.p += 10;
			take_u64(&l, &out->forks);
		} else if (starts_with(&l, "procs_running ")) {
			l.p += 14;
			take_u64(&l, &out->procs_running);
		} else if (starts_with(&l, "procs_blocked ")) {
			l.p += 14;
			take_u64(&l, &out->procs_blocked);
		}
	}
	return total ? 0 : -EINVAL;
}

int procfs_keyed_u64(const char *buf, size_t len, const char *key, uint64_t *out)
{
	struct line l;
	size_t pos = 0, klen = strlen(key);

	while (next_line(buf, len, &pos, &l)) {
		if ((size_t)(l.end - l.p) <= klen || memcmp(l.p, key, klen))
			continue;
		l.p += klen;
		if (*l.p == ':')
			l.p++;
		else if (*l.p != ' ' && *l.p != '\t')
			continue; /* a longer key with this prefix */
		return take_u64(&l, out);
	}
	return -ENOENT;
}

int procfs_meminfo_parse(const char *buf, size_t len, struct meminfo *out)
{
	memset(out, 0, sizeof(*out));
	if (procfs_keyed_u64(buf, len, "MemTotal", &out->total))
		return -EINVAL;
	out->has_available = !procfs_keyed_u64(buf, len, "MemAvailable", &out->available);
	(void)procfs_keyed_u64(buf, len, "SwapTotal", &out->swap_total);
	(void)procfs_keyed_u64(buf, len, "SwapFree", &out->swap_free);
	return 0;
}

int procfs_vmstat_parse(const char *buf, size_t len, struct vmstat *out)
{
	memset(out, 0, sizeof(*out));
	if (procfs_keyed_u64(buf, len, "pgmajfault", &out->pgmajfault))
		return -EINVAL;
	(void)procfs_keyed_u64(buf, len, "pswpin", &out->pswpin);
	(void)procfs_keyed_u64(buf, len, "pswpout", &out->pswpout);
	out->has_oom_kill = !procfs_keyed_u64(buf, len, "oom_kill", &out->oom_kill);
	return 0;
}

static int disk_line(struct line *l, struct disk_stat *d)
{
	uint64_t maj, min;
	uint64_t *f[] = { &d->rd_ios,	 &d->rd_merges, &d->rd_sectors,	  &d->rd_ticks,
			  &d->wr_ios,	 &d->wr_merges, &d->wr_sectors,	  &d->wr_ticks,
			  &d->in_flight, &d->io_ticks,	&d->time_in_queue };

	memset(d, 0, sizeof(*d));
	if (take_u64(l, &maj) || take_u64(l, &min) || !take_word(l, d->name, sizeof(d->name)))
		return -EINVAL;
	d->major = (unsigned)maj;
	d->minor = (unsigned)min;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (take_u64(l, f[i]))
			return -EINVAL;
	return 0;
}

int procfs_diskstats_parse(const char *buf, size_t len, struct disk_stats *out)
{
	struct line l;
	size_t pos = 0;

	out->n = 0;
	while (next_line(buf, len, &pos, &l)) {
		skip_ws(&l);
		if (l.p >= l.end)
			continue;
		if (out->n >= HOST_MAX_DISKS)
			return -E2BIG;
		if (disk_line(&l, &out->d[out->n]))
			return -EINVAL;
		out->n++;
	}
	return 0;
}

static int iface_line(struct line *l, struct iface_stat *s)
{
	const char *colon = memchr(l->p, ':', (size_t)(l->end - l->p));
	uint64_t skip;
	size_t n;

	memset(s, 0, sizeof(*s));
	if (!colon)
		return 1; /* a header line */
	skip_ws(l);
	n = (size_t)(colon - l->p);
	if (!n || n >= sizeof(s->name))
		return -EINVAL;
	memcpy(s->name, l->p, n);
	l->p = colon + 1;
	/* rx: bytes packets errs drop fifo frame compressed multicast; tx: same start */
	if (take_u64(l, &s->rx_bytes) || take_u64(l, &s->rx_packets) || take_u64(l, &s->rx_errs) ||
	    take_u64(l, &s->rx_drop))
		return -EINVAL;
	for (int i = 0; i < 4; i++)
		if (take_u64(l, &skip))
			return -EINVAL;
	if (take_u64(l, &s->tx_bytes) || take_u64(l, &s->tx_packets) || take_u64(l, &s->tx_errs) ||
	    take_u64(l, &s->tx_drop))
		return -EINVAL;
	return 0;
}

int procfs_netdev_parse(const char *buf, size_t len, struct iface_stats *out)
{
	struct line l;
	size_t pos = 0;
	int rc;

	out->n = 0;
	while (next_line(buf, len, &pos, &l)) {
		if (out->n >= HOST_MAX_IFACES)
			return -E2BIG;
		rc = iface_line(&l, &out->i[out->n]);
		if (rc < 0)
			return rc;
		if (rc == 0)
			out->n++;
	}
	return 0;
}

/* Index of name among the header line's words after "proto:", or -1. */
static int header_index(struct line l, const char *name)
{
	char word[64];
	int i = 0;

	while (take_word(&l, word, sizeof(word))) {
		if (!strcmp(word, name))
			return i;
		i++;
	}
	return -1;
}

int procfs_snmp_counter(const char *buf, size_t len, const char *proto, const char *name,
			uint64_t *out)
{
	struct line hdr, val;
	size_t pos = 0, plen = strlen(proto);

	while (next_line(buf, len, &pos, &hdr)) {
		int idx;
		uint64_t v = 0;

		if ((size_t)(hdr.end - hdr.p) <= plen || memcmp(hdr.p, proto, plen) ||
		    hdr.p[plen] != ':')
			continue;
		if (!next_line(buf, len, &pos, &val))
			return -EINVAL;
		hdr.p += plen + 1;
		if ((idx = header_index(hdr, name)) < 0)
			continue; /* another block of the same protocol may follow */
		if ((size_t)(val.end - val.p) <= plen || memcmp(val.p, proto, plen))
			return -EINVAL;
		val.p += plen + 1;
		for (int i = 0; i <= idx; i++) {
			skip_ws(&val);
			if (val.p < val.end && *val.p == '-')
				val.p++; /* Tcp: MaxConn is -1; only the position matters */
			if (take_u64(&val, &v))
				return -EINVAL;
		}
		*out = v;
		return 0;
	}
	return -ENOENT;
}

int procfs_tcp_snmp_parse(const char *buf, size_t len, struct tcp_counters *out)
{
	if (procfs_snmp_counter(buf, len, "Tcp", "OutSegs", &out->out_segs) ||
	    procfs_snmp_counter(buf, len, "Tcp", "RetransSegs", &out->retrans_segs))
		return -EINVAL;
	(void)procfs_snmp_counter(buf, len, "Tcp", "InErrs", &out->in_errs);
	out->has_snmp = true;
	return 0;
}

int procfs_tcp_netstat_parse(const char *buf, size_t len, struct tcp_counters *out)
{
	if (procfs_snmp_counter(buf, len, "TcpExt", "ListenOverflows", &out->listen_overflows) ||
	    procfs_snmp_counter(buf, len, "TcpExt", "ListenDrops", &out->listen_drops))
		return -EINVAL;
	(void)procfs_snmp_counter(buf, len, "TcpExt", "TCPSynRetrans", &out->syn_retrans);
	out->has_ext = true;
	return 0;
}

int procfs_cg_cpu_stat_parse(const char *buf, size_t len, struct cg_cpu_stat *out)
{
	uint64_t ns;

	memset(out, 0, sizeof(*out));
	if (procfs_keyed_u64(buf, len, "nr_periods", &out->nr_periods) ||
	    procfs_keyed_u64(buf, len, "nr_throttled", &out->nr_throttled))
		return -EINVAL;
	if (!procfs_keyed_u64(buf, len, "throttled_usec", &out->throttled_us))
		return 0;
	if (!procfs_keyed_u64(buf, len, "throttled_time", &ns)) {
		out->throttled_us = ns / 1000;
		return 0;
	}
	return -EINVAL;
}

int procfs_cg_cpu_max_parse(const char *buf, size_t len, int64_t *quota_us, uint64_t *period_us)
{
	struct line l = { buf, buf + len };
	char word[32];
	uint64_t q;

	if (!take_word(&l, word, sizeof(word)))
		return -EINVAL;
	if (!strcmp(word, "max")) {
		*quota_us = -1;
	} else {
		struct line w = { word, word + strlen(word) };

		if (take_u64(&w, &q) || w.p != w.end || q > INT64_MAX)
			return -EINVAL;
		*quota_us = (int64_t)q;
	}
	return take_u64(&l, period_us);
}

int procfs_cg_mem_events_parse(const char *buf, size_t len, struct cg_mem_events *out)
{
	memset(out, 0, sizeof(*out));
	(void)procfs_keyed_u64(buf, len, "low", &out->low);
	(void)procfs_keyed_u64(buf, len, "high", &out->high);
	(void)procfs_keyed_u64(buf, len, "max", &out->max);
	(void)procfs_keyed_u64(buf, len, "oom", &out->oom);
	return procfs_keyed_u64(buf, len, "oom_kill", &out->oom_kill) ? -EINVAL : 0;
}

/* Copies the line at *pos (without its newline) into out; false at the end. */
static bool copy_line(const char *buf, size_t len, size_t *pos, char *out, size_t size)
{
	const char *p = buf + *pos, *nl;
	size_t n;

	if (*pos >= len)
		return false;
	nl = memchr(p, '\n', len - *pos);
	n = nl ? (size_t)(nl - p) : len - *pos;
	*pos += n + 1;
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

/* "key=N" in a v2 line: N, or 0 for "max" or when the key is absent. */
static uint64_t eq_value(const char *line, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = strstr(line, key); p; p = strstr(p + 1, key))
		if ((p == line || p[-1] == ' ') && p[k] == '=')
			return strtoull(p + k + 1, NULL, 10); /* "max" reads as 0 */
	return 0;
}

int procfs_cg_io_max_parse(const char *buf, size_t len, struct cg_io_limit *out)
{
	char line[256];
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	while (copy_line(buf, len, &pos, line, sizeof(line))) {
		if (sscanf(line, "%u:%u", &out->major, &out->minor) != 2)
			continue;
		out->rbps = eq_value(line, "rbps");
		out->wbps = eq_value(line, "wbps");
		out->riops = eq_value(line, "riops");
		out->wiops = eq_value(line, "wiops");
		if (out->rbps || out->wbps || out->riops || out->wiops)
			return 0;
	}
	memset(out, 0, sizeof(*out));
	return -ENOENT;
}

int procfs_cg_blkio_limit_parse(const char *buf, size_t len, unsigned *major, unsigned *minor,
				uint64_t *value)
{
	char line[128];
	size_t pos = 0;
	unsigned ma, mi;
	unsigned long long v;

	*value = 0;
	while (copy_line(buf, len, &pos, line, sizeof(line))) {
		if (sscanf(line, "%u:%u %llu", &ma, &mi, &v) != 3 || !v)
			continue;
		if (*major != CG_ANY_DEVICE && (ma != *major || mi != *minor))
			continue;
		*major = ma;
		*minor = mi;
		*value = v;
		return 0;
	}
	return -ENOENT;
}

static bool device_wanted(unsigned major, unsigned minor, unsigned ma, unsigned mi)
{
	return major == CG_ANY_DEVICE || (ma == major && mi == minor);
}

int procfs_cg_io_stat_parse(const char *buf, size_t len, unsigned major, unsigned minor,
			    struct cg_io_stat *out)
{
	char line[512];
	size_t pos = 0;
	unsigned ma, mi;
	bool any = false;

	memset(out, 0, sizeof(*out));
	while (copy_line(buf, len, &pos, line, sizeof(line))) {
		if (sscanf(line, "%u:%u", &ma, &mi) != 2)
			continue;
		any = true;
		if (!device_wanted(major, minor, ma, mi))
			continue;
		out->rbytes += eq_value(line, "rbytes");
		out->wbytes += eq_value(line, "wbytes");
		out->rios += eq_value(line, "rios");
		out->wios += eq_value(line, "wios");
	}
	return any || !len ? 0 : -EINVAL;
}

int procfs_cg_blkio_stat_parse(const char *buf, size_t len, unsigned major, unsigned minor,
			       uint64_t *reads, uint64_t *writes)
{
	char line[128], op[16];
	size_t pos = 0;
	unsigned ma, mi;
	unsigned long long v;

	*reads = *writes = 0;
	while (copy_line(buf, len, &pos, line, sizeof(line))) {
		if (sscanf(line, "%u:%u %15s %llu", &ma, &mi, op, &v) != 4 ||
		    !device_wanted(major, minor, ma, mi))
			continue;
		if (!strcmp(op, "Read"))
			*reads += v;
		else if (!strcmp(op, "Write"))
			*writes += v;
	}
	return 0;
}

int procfs_kmsg_record_parse(const char *line, size_t len, struct kmsg_record *out)
{
	struct line l = { line, line + len };
	const char *semi = memchr(line, ';', len);
	uint64_t prio;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!semi || take_u64(&l, &prio) || l.p >= semi || *l.p++ != ',' ||
	    take_u64(&l, &out->seq) || l.p >= semi || *l.p++ != ',' || take_u64(&l, &out->ts_us))
		return -EINVAL;
	out->level = (unsigned)(prio & 7);
	out->facility = (unsigned)(prio >> 3);
	l.p = semi + 1;
	n = (size_t)(l.end - l.p);
	while (n && (l.p[n - 1] == '\n' || l.p[n - 1] == '\r'))
		n--;
	if (n >= sizeof(out->text))
		n = sizeof(out->text) - 1;
	memcpy(out->text, l.p, n);
	out->text[n] = '\0';
	return 0;
}
