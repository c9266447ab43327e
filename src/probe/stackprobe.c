/* The session shared by offcpu, runq and profile; see stackprobe.h. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h> /* for bpf/stackprobes.h, also without libbpf */

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#endif

#include "common.h"
#include "bpf/stackprobes.h"
#include "probe/stackprobe.h"
#include "util/parse.h"
#include "util/text.h"

static void sp_usage(FILE *out, const char *probe, unsigned features)
{
	bool stacks = features & SP_STACKS;

	fprintf(out, "Usage: triage probe %s -p PID [-d SECONDS]%s%s [--json]%s [-v]\n", probe,
		features & SP_FREQ ? " [-F HZ]" : "", stacks ? " [--top N] [--folded]" : "",
		features & SP_PER_THREAD ? " [--per-thread]" : "");
	if (stacks)
		fprintf(out, "       [--no-kernel-stacks] [--no-user-stacks]\n");
	fprintf(out,
		"Runs until Ctrl-C, SIGTERM, the -d limit, or the target's exit; then reports.\n"
		"See docs/probe-%s.md.\n",
		probe);
}

/* The feature an option needs (0: every probe has it). */
static unsigned option_feature(int c)
{
	switch (c) {
	case 'F':
		return SP_FREQ;
	case 't':
	case 'f':
	case 'K':
	case 'U':
		return SP_STACKS;
	case 'T':
		return SP_PER_THREAD;
	default:
		return 0;
	}
}

static int bad_arg(const char *probe, const char *what, const char *arg)
{
	char safe[128];

	text_sanitize(safe, sizeof(safe), arg ? arg : "");
	fprintf(stderr, "triage probe %s: invalid %s '%s'\n", probe, what, safe);
	return EXIT_USAGE;
}

static int sp_parse_one(const char *probe, int c, const char *arg, struct sp_opts *o)
{
	switch (c) {
	case 'p':
		return probe_parse_pid(arg, &o->base.target.pid) ? bad_arg(probe, "pid", arg) : 0;
	case 'd':
		return probe_parse_duration(arg, &o->base.duration_s)
			   ? bad_arg(probe, "duration", arg)
			   : 0;
	case 'F':
		return parse_uint(arg, 1, 10000, &o->freq)
			   ? bad_arg(probe, "frequency (1-10000)", arg)
			   : 0;
	case 't':
		return parse_uint(arg, 1, 100000, &o->top) ? bad_arg(probe, "--top", arg) : 0;
	case 'j':
		o->base.json = true;
		return 0;
	case 'f':
		o->folded = true;
		return 0;
	case 'K':
		o->kernel_stacks = false;
		return 0;
	case 'U':
		o->user_stacks = false;
		return 0;
	case 'T':
		o->per_thread = true;
		return 0;
	case 'v':
		o->base.verbose = true;
		return 0;
	default:
		return EXIT_USAGE;
	}
}

static void sp_opts_default(struct sp_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kernel_stacks = o->user_stacks = true;
	o->freq = 99;
	o->top = 10;
}

/* Usage errors found after the options were read. */
static int sp_check_args(const char *probe, unsigned features, const struct sp_opts *o)
{
	if (!o->base.target.pid) {
		fprintf(stderr, "triage probe %s: -p PID is required\n", probe);
		sp_usage(stderr, probe, features);
		return EXIT_USAGE;
	}
	if (o->folded && o->base.json) {
		fprintf(stderr, "triage probe %s: --folded and --json exclude each other\n", probe);
		return EXIT_USAGE;
	}
	return probe_check_process(stderr, probe, o->base.target.pid);
}

int sp_parse_args(const struct sp_probe *p, int argc, char **argv, struct sp_opts *o)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "duration", required_argument, NULL, 'd' },
		{ "frequency", required_argument, NULL, 'F' },
		{ "top", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "folded", no_argument, NULL, 'f' },
		{ "no-kernel-stacks", no_argument, NULL, 'K' },
		{ "no-user-stacks", no_argument, NULL, 'U' },
		{ "per-thread", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *probe = p->name;
	unsigned features = p->features;
	int c, rc;

	sp_opts_default(o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "p:d:F:t:vh", longopts, NULL)) != -1) {
		if (c == 'h') {
			sp_usage(stdout, probe, features);
			return -1; /* help given: exit 0 */
		}
		if (c == '?' || (option_feature(c) & ~features)) {
			fprintf(stderr, "triage probe %s: unknown or incomplete option '%s'\n",
				probe, argv[optind - 1]);
			sp_usage(stderr, probe, features);
			return EXIT_USAGE;
		}
		rc = sp_parse_one(probe, c, optarg, o);
		if (rc)
			return rc;
	}
	if (optind < argc)
		return bad_arg(probe, "argument", argv[optind]);
	return sp_check_args(probe, features, o);
}

static void read_comm(struct sp_session *s, int pid)
{
	char rel[32];
	ssize_t n;

	snprintf(rel, sizeof(rel), "%d/comm", pid);
	n = procfs_read(s->pf, rel, s->comm, sizeof(s->comm));
	if (n <= 0) {
		s->comm[0] = '\0';
		return;
	}
	if (s->comm[n - 1] == '\n') /* the file's own newline; a name may hold others */
		s->comm[n - 1] = '\0';
}

static void load_symbolizers(struct sp_session *s, int pid)
{
	s->ksyms_err = ksyms_load(s->pf, &s->ksyms);
	s->ps_err = proc_syms_open(s->pf, pid, "/usr/lib/debug", &s->ps);
	if (s->ksyms_err)
		fprintf(stderr,
			"triage probe %s: kernel frames stay addresses: /proc/kallsyms: %s "
			"(needs root or kernel.kptr_restrict=0)\n",
			s->probe->name, strerror(-s->ksyms_err));
	if (s->ps_err && s->ps_err != -ESRCH) /* -ESRCH: no maps, a kernel thread */
		fprintf(stderr, "triage probe %s: user frames stay addresses: /proc/%d/maps: %s\n",
			s->probe->name, pid, strerror(-s->ps_err));
}

/*
 * Checks privileges, starts the event loop (signals first) and loads the
 * symbolizers while the target still runs. Returns 0 or an exit status,
 * having reported the problem on stderr.
 */
static int sp_session_begin(struct sp_session *s, const struct sp_probe *p, const struct sp_opts *o)
{
	const char *probe = p->name;
	struct probe_opts lo = o->base;
	int err;

	memset(s, 0, sizeof(*s));
	s->probe = p;
	s->pf = NULL; /* so sp_session_end() closes nothing it did not open */
	symtab_init(&s->ksyms);
	err = probe_check_privileges();
	if (err)
		return probe_report_failure(stderr, probe, "checking privileges", err);
	err = procfs_open(&s->pf, NULL);
	if (err)
		return probe_report_failure(stderr, probe, "opening /proc", err);
	lo.interval_s = 1.0; /* ticks to refresh the maps; nothing is printed */
	lo.count = 0;
	err = probe_loop_init(&s->loop, &lo);
	if (err == -ESRCH) {
		fprintf(stderr, "triage probe %s: no such process: pid %d\n", probe, lo.target.pid);
		return EXIT_RUNTIME;
	}
	if (err)
		return probe_report_failure(stderr, probe, "setting up signals and timers", err);
	s->loop_ready = true;
	read_comm(s, lo.target.pid);
	if (p->symbolize)
		load_symbolizers(s, lo.target.pid);
	return 0;
}

/* Why a session ended, for the report; NULL for an error. */
static const char *end_reason(int ev)
{
	switch (ev) {
	case PROBE_EV_SIGNAL:
		return "interrupted";
	case PROBE_EV_TARGET_EXIT:
		return "target exited";
	case PROBE_EV_DEADLINE:
		return "duration elapsed";
	default:
		return NULL;
	}
}

/* Announces the probe on stderr and waits for its end, refreshing the maps each second. */
static int sp_session_wait(struct sp_session *s, const struct sp_opts *o)
{
	char safe[4 * PROBE_COMM_LEN];

	text_sanitize(safe, sizeof(safe), s->comm);
	fprintf(stderr, "Tracing %s of pid %d (%s)... Ctrl-C to stop.\n", s->probe->traced,
		o->base.target.pid, safe);
	s->start_ns = probe_loop_start(&s->loop);
	if (s->start_ns < 0)
		return probe_report_failure(stderr, s->probe->name, "starting the timers",
					    (int)s->start_ns);
	for (;;) {
		int ev = probe_loop_wait(&s->loop, -1);

		if (ev == PROBE_EV_TICK || ev == PROBE_EV_LAST_TICK) {
			/* Fails once the target is gone: the last maps stay. */
			if (s->ps)
				proc_syms_refresh(s->ps);
			continue;
		}
		s->end_ns = probe_now_ns();
		s->end_reason = end_reason(ev);
		if (s->end_reason)
			return 0;
		return probe_report_failure(stderr, s->probe->name, "waiting for events",
					    ev < 0 ? ev : -EIO);
	}
}

static void sp_session_end(struct sp_session *s)
{
	if (s->loop_ready)
		probe_loop_release(&s->loop);
	s->loop_ready = false;
	proc_syms_close(s->ps);
	s->ps = NULL;
	symtab_release(&s->ksyms);
	procfs_close(s->pf);
}

double sp_session_seconds(const struct sp_session *s)
{
	return (double)(s->end_ns - s->start_ns) / 1e9;
}

#if TRIAGE_HAVE_BPF /* only the BPF readers call these */
int sp_read_stack(int map_fd, int id, uint64_t *ips)
{
	__u32 key = (__u32)id;

	memset(ips, 0, SP_MAX_FRAMES * sizeof(*ips));
	return bpf_map_lookup_elem(map_fd, &key, ips) ? -errno : 0;
}

int sp_fill_entry(const struct sp_session *s, int map_fd, int kid, int uid, struct stack_entry *e)
{
	uint64_t ips[SP_MAX_FRAMES];
	int err;

	e->kstack_err = kid < 0 ? kid : sp_read_stack(map_fd, kid, ips);
	err = stack_resolve_kernel(e, ips, e->kstack_err ? 0 : SP_MAX_FRAMES,
				   s->ksyms_err ? NULL : &s->ksyms);
	if (err)
		return err;
	e->ustack_err = uid < 0 ? uid : sp_read_stack(map_fd, uid, ips);
	return stack_resolve_user(e, ips, e->ustack_err ? 0 : SP_MAX_FRAMES, s->ps);
}
#endif

void sp_json_begin(struct json_writer *w, const struct sp_session *s, const struct sp_opts *o)
{
	json_init(w, stdout, false);
	json_object_begin(w);
	json_kv_string(w, "probe", s->probe->name);
	json_kv_int(w, "pid", o->base.target.pid);
	json_kv_string(w, "comm", s->comm);
	json_kv_double(w, "duration_s", sp_session_seconds(s), 3);
	json_kv_string(w, "end", s->end_reason ? s->end_reason : "");
}

void sp_json_stack(struct json_writer *w, const struct stack_entry *e, const char *value_key,
		   const char *count_key)
{
	json_object_begin(w);
	json_kv_uint(w, "tid", e->tid);
	json_kv_string(w, "comm", e->comm);
	if (e->kind)
		json_kv_string(w, "kind", e->kind);
	json_kv_uint(w, value_key, e->value);
	if (count_key)
		json_kv_uint(w, count_key, e->count);
	stack_json_frames(w, e);
	json_end(w);
}

size_t sp_top(size_t top, size_t n)
{
	return top < n ? top : n;
}

static int sp_report(const struct sp_probe *p, const struct sp_session *s, const struct sp_opts *o,
		     void *skel)
{
	int err = p->report(s, o, skel);

	if (err)
		return probe_report_failure(stderr, p->name, "reading the results", err);
	return EXIT_OK; /* main checks stdout */
}

int sp_probe_run(const struct sp_probe *p, const struct sp_opts *o)
{
	struct sp_session s;
	void *skel = NULL;
	const char *stage;
	int rc, err;

	if (!p->ops)
		return probe_report_failure(stderr, p->name, "starting", -ENOPKG);
	rc = sp_session_begin(&s, p, o);
	if (rc)
		goto out;
	probe_libbpf_quiet(o->base.verbose);
	err = probe_start(p->ops, p->needs, o, &skel, &stage);
	if (err) {
		rc = probe_report_failure(stderr, p->name, stage, err);
		if (p->explain_failure)
			p->explain_failure(o, stage, err);
		goto out;
	}
	rc = sp_session_wait(&s, o);
	probe_skel_detach(p->ops, skel);
	if (!rc)
		rc = sp_report(p, &s, o, skel);
out:
	probe_skel_stop(p->ops, &skel);
	sp_session_end(&s);
	return rc;
}

int sp_probe_selftest(const struct sp_probe *p, const char **stage)
{
	struct sp_opts o;
	void *skel = NULL;
	int err;

	if (!p->ops) {
		*stage = "starting";
		return -ENOPKG;
	}
	sp_opts_default(&o);
	o.base.target.pid = getpid();
	err = probe_start(p->ops, p->needs, &o, &skel, stage);
	probe_skel_stop(p->ops, &skel);
	return err;
}
