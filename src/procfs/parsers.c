#include "procfs/parsers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A bounded cursor over a buffer that need not be NUL-terminated. */
struct cur {
	const char *p, *end;
};

static void skip_blanks(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static int next_u64(struct cur *c, uint64_t *out)
{
	uint64_t v = 0;
	const char *start;

	skip_blanks(c);
	start = c->p;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
		v = v * 10 + (uint64_t)(*c->p++ - '0');
	if (c->p == start)
		return -EINVAL;
	*out = v;
	return 0;
}

static int next_i64(struct cur *c, int64_t *out)
{
	bool neg = false;
	uint64_t v;

	skip_blanks(c);
	if (c->p < c->end && *c->p == '-') {
		neg = true;
		c->p++;
	}
	if (next_u64(c, &v))
		return -EINVAL;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

static const char *find_last(const char *buf, size_t len, char ch)
{
	for (size_t i = len; i > 0; i--)
		if (buf[i - 1] == ch)
			return buf + i - 1;
	return NULL;
}

/*
 * Fields 3..44 after the comm; index i holds field i+3. Only the ones
 * triage needs are stored, the others are checked to exist.
 */
static int stat_fields(struct cur *c, struct pid_stat *o)
{
	int64_t v[42];
	int n = 0;

	skip_blanks(c);
	if (c->p >= c->end)
		return -EINVAL;
	o->state = *c->p++;
	for (n = 1; n < 42; n++) {
		if (next_i64(c, &v[n])) {
			/* field 3 + n is missing */
			break;
		}
	}
	o->nfields = n + 2;
	if (o->nfields < 42)
		return -EINVAL;
	o->ppid = (int)v[1];	    /* (4) */
	o->minflt = (uint64_t)v[7]; /* (10) */
	o->cminflt = (uint64_t)v[8];
	o->majflt = (uint64_t)v[9];
	o->cmajflt = (uint64_t)v[10];
	o->utime = (uint64_t)v[11]; /* (14) */
	o->stime = (uint64_t)v[12];
	o->cutime = v[13];
	o->cstime = v[14];
	o->priority = v[15]; /* (18) */
	o->nice = v[16];
	o->num_threads = v[17];		/* (20) */
	o->starttime = (uint64_t)v[19]; /* (22) */
	o->vsize = (uint64_t)v[20];
	o->rss = v[21];		   /* (24) */
	o->processor = (int)v[36]; /* (39) */
	o->rt_priority = (unsigned)v[37];
	o->policy = (unsigned)v[38];
	o->blkio_ticks = (uint64_t)v[39]; /* (42) */
	o->guest_time = n > 40 ? (uint64_t)v[40] : 0;
	o->cguest_time = n > 41 ? v[41] : 0;
	return 0;
}

int procfs_pid_stat_parse(const char *buf, size_t len, struct pid_stat *out)
{
	const char *open = memchr(buf, '(', len);
	const char *close = find_last(buf, len, ')');
	struct cur c = { buf, open };
	uint64_t pid;
	size_t clen;

	memset(out, 0, sizeof(*out));
	if (!open || !close || close < open)
		return -EINVAL;
	if (next_u64(&c, &pid) || pid > 0x7fffffff)
		return -EINVAL;
	out->pid = (int)pid;
	clen = (size_t)(close - open - 1);
	if (clen >= sizeof(out->comm))
		clen = sizeof(out->comm) - 1;
	memcpy(out->comm, open + 1, clen);
	out->comm[clen] = '\0';
	c.p = close + 1;
	c.end = buf + len;
	return stat_fields(&c, out);
}

/* Value of a "Key:\tvalue" line: the cursor placed after the colon. */
static bool line_key(const char *line, const char *end, const char *key, struct cur *val)
{
	size_t klen = strlen(key);

	if ((size_t)(end - line) <= klen || memcmp(line, key, klen) != 0 || line[klen] != ':')
		return false;
	val->p = line + klen + 1;
	val->end = end;
	return true;
}

/* Value of a "key value" line (space separated, as in /proc/stat). */
static bool line_key_space(const char *line, const char *end, const char *key, struct cur *val)
{
	size_t klen = strlen(key);

	if ((size_t)(end - line) <= klen || memcmp(line, key, klen) != 0 || line[klen] != ' ')
		return false;
	val->p = line + klen + 1;
	val->end = end;
	return true;
}

static void copy_text(char *dst, size_t dstlen, struct cur v)
{
	size_t n;

	skip_blanks(&v);
	n = (size_t)(v.end - v.p);
	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, v.p, n);
	dst[n] = '\0';
}

static void status_line(const char *line, const char *end, struct pid_status *o)
{
	struct cur v;
	uint64_t x;

	if (line_key(line, end, "Name", &v)) {
		copy_text(o->name, sizeof(o->name), v);
	} else if (line_key(line, end, "State", &v)) {
		skip_blanks(&v);
		o->state = v.p < v.end ? *v.p : '?';
	} else if (line_key(line, end, "Tgid", &v) && !next_u64(&v, &x)) {
		o->tgid = (int)x;
	} else if (line_key(line, end, "Pid", &v) && !next_u64(&v, &x)) {
		o->pid = (int)x;
	} else if (line_key(line, end, "PPid", &v) && !next_u64(&v, &x)) {
		o->ppid = (int)x;
	} else if (line_key(line, end, "Uid", &v) && !next_u64(&v, &x)) {
		o->uid_real = (unsigned)x;
		o->uid_eff = next_u64(&v, &x) ? o->uid_real : (unsigned)x;
		o->has_uid = true;
	} else if (line_key(line, end, "Threads", &v) && !next_u64(&v, &x)) {
		o->threads = (unsigned)x;
		o->has_threads = true;
	} else if (line_key(line, end, "voluntary_ctxt_switches", &v) && !next_u64(&v, &x)) {
		o->vol_ctxsw = x;
		o->has_ctxsw = true;
	} else if (line_key(line, end, "nonvoluntary_ctxt_switches", &v) && !next_u64(&v, &x)) {
		o->nonvol_ctxsw = x;
	} else if (line_key(line, end, "RssAnon", &v) && !next_u64(&v, &x)) {
		o->rss_anon_kb = x;
		o->has_rss_anon = true;
	}
}

int procfs_pid_status_parse(const char *buf, size_t len, struct pid_status *out)
{
	const char *p = buf, *end = buf + len;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end;

		status_line(p, lend, out);
		p = lend + 1;
	}
	return out->has_uid ? 0 : -EINVAL;
}

int procfs_pid_io_parse(const char *buf, size_t len, struct pid_io *out)
{
	static const char *const keys[] = { "rchar",
					    "wchar",
					    "syscr",
					    "syscw",
					    "read_bytes",
					    "write_bytes",
					    "cancelled_write_bytes" };
	uint64_t *dst[] = { &out->rchar,
			    &out->wchar,
			    &out->syscr,
			    &out->syscw,
			    &out->read_bytes,
			    &out->write_bytes,
			    &out->cancelled_write_bytes };
	const char *p = buf, *end = buf + len;
	unsigned found = 0;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end;
		struct cur v;

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (line_key(p, lend, keys[i], &v) && !next_u64(&v, dst[i]))
				found |= 1u << i;
		p = lend + 1;
	}
	return (found & 0x70) == 0x70 ? 0 : -EINVAL;
}

int procfs_pid_schedstat_parse(const char *buf, size_t len, struct pid_schedstat *out)
{
	struct cur c = { buf, buf + len };

	memset(out, 0, sizeof(*out));
	if (next_u64(&c, &out->run_ns) || next_u64(&c, &out->wait_ns))
		return -EINVAL;
	if (next_u64(&c, &out->slices))
		out->slices = 0;
	return 0;
}

int procfs_pid_statm_parse(const char *buf, size_t len, struct pid_statm *out)
{
	struct cur c = { buf, buf + len };
	uint64_t *rest[] = { &out->text, &out->lib, &out->data, &out->dt };

	memset(out, 0, sizeof(*out));
	if (next_u64(&c, &out->size) || next_u64(&c, &out->resident) || next_u64(&c, &out->shared))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]) && !next_u64(&c, rest[i]); i++)
		;
	return 0;
}

bool procfs_statm_anon_pages(const struct pid_statm *m, uint64_t *pages)
{
	/* shared above resident: not a kernel's line; no figure rather than a wrapped one */
	if (!m->size || m->shared > m->resident)
		return false;
	*pages = m->resident - m->shared;
	return true;
}

int procfs_uptime_parse(const char *buf, size_t len, uint64_t *uptime_cs)
{
	struct cur c = { buf, buf + len };
	uint64_t sec, frac = 0;

	if (next_u64(&c, &sec))
		return -EINVAL;
	if (c.p < c.end && *c.p == '.') {
		c.p++;
		if (next_u64(&c, &frac))
			return -EINVAL;
	}
	*uptime_cs = sec * 100 + frac;
	return 0;
}

static int cpu_line(struct cur *c, struct sys_stat *o)
{
	uint64_t *f[] = { &o->user, &o->nice,	 &o->system, &o->idle,	&o->iowait,
			  &o->irq,  &o->softirq, &o->steal,  &o->guest, &o->guest_nice };

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (next_u64(c, f[i]))
			return i >= 4 ? 0 : -EINVAL; /* older kernels have fewer */
	return 0;
}

int procfs_sys_stat_parse(const char *buf, size_t len, struct sys_stat *out)
{
	const char *p = buf, *end = buf + len;
	bool have_cpu = false;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end;
		struct cur v = { p, lend };
		size_t n = (size_t)(lend - p);

		if (n > 4 && !memcmp(p, "cpu ", 4)) {
			v.p += 4;
			if (cpu_line(&v, out))
				return -EINVAL;
			have_cpu = true;
		} else if (n > 3 && !memcmp(p, "cpu", 3) && p[3] >= '0' && p[3] <= '9') {
			out->ncpu_lines++;
		}
		if (line_key_space(p, lend, "procs_running", &v))
			next_u64(&v, &out->procs_running);
		else if (line_key_space(p, lend, "procs_blocked", &v))
			next_u64(&v, &out->procs_blocked);
		p = lend + 1;
	}
	return have_cpu ? 0 : -EINVAL;
}

uint64_t procfs_sys_stat_total(const struct sys_stat *s)
{
	return s->user + s->nice + s->system + s->idle + s->iowait + s->irq + s->softirq + s->steal;
}

int procfs_meminfo_total_parse(const char *buf, size_t len, uint64_t *memtotal_kb)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end;
		struct cur v;

		if (line_key(p, lend, "MemTotal", &v))
			return next_u64(&v, memtotal_kb);
		p = lend + 1;
	}
	return -EINVAL;
}

/* A non-negative decimal such as "0.52", parsed without the locale (the kernel writes '.'). */
static int next_double(struct cur *c, double *out)
{
	uint64_t ip = 0, fp = 0, scale = 1;
	const char *start;

	skip_blanks(c);
	start = c->p;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
		ip = ip * 10 + (uint64_t)(*c->p++ - '0');
	if (c->p == start)
		return -EINVAL;
	if (c->p < c->end && *c->p == '.')
		for (c->p++; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++) {
			if (scale < 1000000000000ULL) {
				fp = fp * 10 + (uint64_t)(*c->p - '0');
				scale *= 10;
			}
		}
	*out = (double)ip + (double)fp / (double)scale;
	return 0;
}

int procfs_loadavg_parse(const char *buf, size_t len, struct loadavg *out)
{
	struct cur c = { buf, buf + len };
	uint64_t run, total, last;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 3; i++)
		if (next_double(&c, &out->load[i]))
			return -EINVAL;
	if (next_u64(&c, &run) || c.p >= c.end || *c.p++ != '/' || next_u64(&c, &total) ||
	    next_u64(&c, &last))
		return -EINVAL;
	out->runnable = (unsigned)run;
	out->total = (unsigned)total;
	out->last_pid = (int)last;
	return 0;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=0" */
static int psi_fields(struct cur *c, struct psi_line *l)
{
	static const char *const keys[] = { "avg10=", "avg60=", "avg300=", "total=" };

	for (int i = 0; i < 4; i++) {
		size_t k = strlen(keys[i]);

		skip_blanks(c);
		if ((size_t)(c->end - c->p) < k || memcmp(c->p, keys[i], k))
			return -EINVAL;
		c->p += k;
		if (i == 3 ? next_u64(c, &l->total_us)
			   : next_double(c, i == 0   ? &l->avg10
					    : i == 1 ? &l->avg60
						     : &l->avg300))
			return -EINVAL;
	}
	l->present = true;
	return 0;
}

int procfs_psi_parse(const char *buf, size_t len, struct psi *out)
{
	const char *p = buf, *end = buf + len;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end;
		struct cur c = { p, lend };

		if (lend - p > 5 && !memcmp(p, "some ", 5)) {
			c.p += 5;
			if (psi_fields(&c, &out->some))
				return -EINVAL;
		} else if (lend - p > 5 && !memcmp(p, "full ", 5)) {
			c.p += 5;
			if (psi_fields(&c, &out->full))
				return -EINVAL;
		}
		p = lend + 1;
	}
	return out->some.present ? 0 : -EINVAL;
}

bool procfs_smaps_stack_line(struct smaps_stack *st, const char *line)
{
	if (st->state == 0 && strstr(line, "[stack]")) {
		st->state = 1;
	} else if (st->state == 1 && strstr(line, "Size:")) {
		st->size_kb = strtoull(strstr(line, "Size:") + 5, NULL, 10);
		st->state = 2;
	} else if (st->state == 2 && strstr(line, "Referenced:")) {
		st->ref_kb = strtoull(strstr(line, "Referenced:") + 11, NULL, 10);
		st->state = 3;
	}
	return st->state == 3;
}

void procfs_cmdline_join(char *buf, size_t len)
{
	bool found = false;

	for (size_t i = len > 1 ? len - 1 : 0; i-- > 0;) {
		if (buf[i])
			found = true;
		else if (found)
			buf[i] = ' ';
	}
}
