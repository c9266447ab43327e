/* pidstat command line: sysstat 12.6.1's hand-written grammar (spec 1). */
#include "pidstat/opts.h"
#include "util/grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool all_digits(const char *s)
{
	return strspn(s, "0123456789") == strlen(s);
}

/* Value of a digits-only string, saturating instead of overflowing. */
static long digits_value(const char *s)
{
	long v = 0;

	for (; *s; s++) {
		if (v > (__LONG_MAX__ - 9) / 10)
			return __LONG_MAX__;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* A usage error at word bad, for triage's line after sysstat's usage. */
static int usage_at(struct pidstat_opts *o, const char *why, const char *bad)
{
	o->why = why;
	o->bad = bad;
	return PIDSTAT_PARSE_USAGE;
}

int pidstat_opts_add_pid(struct pidstat_opts *o, pid_t pid)
{
	if (util_grow(&o->pids, &o->pids_cap, o->npids + 1, sizeof(*o->pids)))
		return -ENOMEM;
	o->pids[o->npids++] = pid;
	return 0;
}

/* -p LIST: items split on ',' with empty items skipped, as strtok does. */
static int parse_pid_list(struct pidstat_opts *o, const char *list, pid_t self_pid)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		char item[32];

		if (n == 0) {
			p++;
			continue;
		}
		if (n >= sizeof(item))
			return usage_at(o, "bad -p value", list);
		memcpy(item, p, n);
		item[n] = '\0';
		p += n;
		o->pid_nr++;
		if (!strcmp(item, "ALL")) {
			o->all_pids = true;
			o->pid_nr++;
		} else if (!strcmp(item, "SELF")) {
			if (pidstat_opts_add_pid(o, self_pid))
				return -ENOMEM;
		} else {
			long v;

			if (!all_digits(item))
				return usage_at(o, "bad -p value", list);
			/* sysstat stores atoi() in an unsigned int and rejects < 1 */
			v = digits_value(item);
			if ((unsigned)(int)v < 1 || v > 0x7fffffff)
				return usage_at(o, "bad -p value", list);
			if (pidstat_opts_add_pid(o, (pid_t)v))
				return -ENOMEM;
		}
	}
	return 0;
}

/* One cluster of single-letter flags such as "-urd". */
static int parse_cluster(struct pidstat_opts *o, const char *arg)
{
	for (const char *c = arg + 1; *c; c++) {
		switch (*c) {
		case 'd':
			o->act |= ACT_IO;
			o->dis_hdr++;
			break;
		case 'H':
			o->epoch = true;
			break;
		case 'h':
			o->oneline = true;
			break;
		case 'I':
			o->irix_off = true;
			break;
		case 'l':
			o->cmdline = true;
			break;
		case 'R':
			o->act |= ACT_RT;
			o->dis_hdr++;
			break;
		case 'r':
			o->act |= ACT_MEM;
			o->dis_hdr++;
			break;
		case 's':
			o->act |= ACT_STACK;
			o->dis_hdr++;
			break;
		case 't':
			o->threads = true;
			break;
		case 'U':
			o->username = true;
			break;
		case 'u':
			o->act |= ACT_CPU;
			o->dis_hdr++;
			break;
		case 'V':
			return PIDSTAT_PARSE_VERSION;
		case 'v':
			o->act |= ACT_KTAB;
			o->dis_hdr++;
			break;
		case 'w':
			o->act |= ACT_CTXSW;
			o->dis_hdr++;
			break;
		default:
			if (arg[1] == '-')
				return usage_at(o, "unknown option", arg);
			o->bad_opt[0] = '-';
			o->bad_opt[1] = *c;
			return usage_at(o, "unknown option", o->bad_opt);
		}
	}
	return 0;
}

static int parse_task_mode(struct pidstat_opts *o, const char *kw)
{
	if (o->tsk)
		o->dis_hdr++;
	if (!strcmp(kw, "TASK")) {
		o->tsk |= TSK_TASK;
	} else if (!strcmp(kw, "CHILD")) {
		o->tsk |= TSK_CHILD;
	} else if (!strcmp(kw, "ALL")) {
		o->tsk |= TSK_TASK | TSK_CHILD;
		o->dis_hdr++;
	} else {
		return usage_at(o, "bad -T value (TASK, CHILD or ALL)", kw);
	}
	return 0;
}

/* interval, then count: digits only; count needs a non-zero interval. */
static int parse_number(struct pidstat_opts *o, const char *arg, bool *have_interval)
{
	if (!*have_interval) {
		if (!all_digits(arg))
			return usage_at(o, "bad interval (whole seconds)", arg);
		o->interval = digits_value(arg);
		if (o->interval > PIDSTAT_MAX_INTERVAL)
			return usage_at(o, "interval longer than a year", arg);
		o->count = -1;
		*have_interval = true;
		return 0;
	}
	if (o->count <= 0) {
		if (!o->interval)
			return usage_at(o, "a count needs an interval above 0", arg);
		if (!all_digits(arg))
			return usage_at(o, "bad count", arg);
		o->count = digits_value(arg);
		return o->count < 1 ? usage_at(o, "bad count", arg) : 0;
	}
	return usage_at(o, "unexpected argument", arg);
}

/* Options that take the next token; *i is advanced past what they use. */
static int parse_with_arg(struct pidstat_opts *o, int argc, char **argv, int *i, pid_t self)
{
	const char *opt = argv[*i];
	const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;

	if (!val)
		return usage_at(o, "option needs a value", opt);
	*i += 2;
	if (!strcmp(opt, "-p")) {
		o->pid_given = true;
		return parse_pid_list(o, val, self);
	}
	if (!strcmp(opt, "-C") || !strcmp(opt, "-G")) {
		if (!*val)
			return usage_at(o, opt[1] == 'C' ? "empty -C value" : "empty -G value",
					val);
		*(opt[1] == 'C' ? &o->comm_re : &o->proc_re) = val;
		return 0;
	}
	if (!strcmp(opt, "-T"))
		return parse_task_mode(o, val);
	if (!strcmp(opt, "-o")) {
		if (strcmp(val, "JSON"))
			return usage_at(o, "bad -o value (only JSON)", val);
		o->json = true;
		return 0;
	}
	/* --root DIR */
	o->root = val;
	return 0;
}

static bool takes_arg(const char *a)
{
	return !strcmp(a, "-p") || !strcmp(a, "-C") || !strcmp(a, "-G") || !strcmp(a, "-T") ||
	       !strcmp(a, "-o") || !strcmp(a, "--root");
}

/* The tokens that are not single-letter clusters. Returns -1 if a is none of them. */
static int parse_long(struct pidstat_opts *o, const char *a)
{
	if (!strcmp(a, "--human")) {
		o->human = true;
		return 0;
	}
	if (!strncmp(a, "--dec=", 6) && strlen(a) == 7) {
		/* 12.6.1 uses atoi(): a non-digit reads as 0 */
		int d = (a[6] >= '0' && a[6] <= '9') ? a[6] - '0' : 0;

		if (d > 2)
			return usage_at(o, "bad --dec value (0, 1 or 2)", a);
		o->dec = d;
		return 0;
	}
	if (!strcmp(a, "--whole")) {
		o->whole = true;
		return 0;
	}
	if (!strncmp(a, "--root=", 7)) {
		o->root = a + 7;
		return 0;
	}
	return -1;
}

static int parse_token(struct pidstat_opts *o, int argc, char **argv, int *i, pid_t self,
		       bool *have_interval)
{
	const char *a = argv[*i];
	int rc;

	if (takes_arg(a))
		return parse_with_arg(o, argc, argv, i, self);
	if (!strcmp(a, "-U")) {
		o->username = true;
		(*i)++;
		/* a following non-option that is not all digits is a user name */
		if (*i < argc && argv[*i][0] != '-' && !all_digits(argv[*i]))
			o->user = argv[(*i)++];
		return 0;
	}
	rc = parse_long(o, a);
	if (rc >= 0) {
		(*i)++;
		return rc;
	}
	(*i)++;
	if (a[0] == '-')
		return parse_cluster(o, a);
	return parse_number(o, a, have_interval);
}

int pidstat_opts_parse(struct pidstat_opts *o, int argc, char **argv, pid_t self_pid)
{
	bool have_interval = false;
	int i = 1, rc;

	memset(o, 0, sizeof(*o));
	o->dec = -1;
	o->dis_hdr = -1;
	while (i < argc) {
		if (!strcmp(argv[i], "-e")) {
			if (i + 1 >= argc)
				return usage_at(o, "option needs a value", argv[i]);
			o->pid_given = true;
			o->exec_argv = argv + i + 1;
			o->exec_argc = argc - i - 1;
			break;
		}
		rc = parse_token(o, argc, argv, &i, self_pid, &have_interval);
		if (rc)
			return rc;
	}
	if (!have_interval)
		o->interval = 0;
	return 0;
}

int pidstat_opts_finish(struct pidstat_opts *o)
{
	unsigned avail = 0;

	if (!o->pid_given)
		o->dis_hdr = 1;
	if (!o->act)
		o->act = ACT_CPU;
	if (!o->pid_given) {
		o->active_only = true;
		o->all_pids = true;
	}
	if (!o->tsk)
		o->tsk = TSK_TASK;
	if (o->tsk & TSK_TASK)
		avail |= ACT_CPU | ACT_MEM | ACT_IO | ACT_CTXSW | ACT_STACK | ACT_KTAB | ACT_RT;
	if (o->tsk & TSK_CHILD)
		avail |= ACT_CPU | ACT_MEM;
	o->act &= avail;
	if (!o->act)
		return -EINVAL;
	if (o->dis_hdr < 0)
		o->dis_hdr = 0;
	if (!o->dis_hdr && o->pid_nr > 1)
		o->dis_hdr = 1;
	return 0;
}

void pidstat_opts_release(struct pidstat_opts *o)
{
	free(o->pids);
	o->pids = NULL;
	o->npids = o->pids_cap = 0;
}

unsigned pidstat_opts_scans(const struct pidstat_opts *o)
{
	if (o->interval == 0)
		return 1;
	return o->count > 0 && o->count < 100000 ? (unsigned)o->count + 1 : 0;
}
