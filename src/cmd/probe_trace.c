/* triage probe trace: each call of some syscalls, live, with decoded arguments. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "common.h"
#include "probe/session.h"
#include "probe_cmds.h"
#include "probe/trace.h"
#include "runloop/clock.h"
#include "util/json.h"

#define NAME "trace"
#define MAX_SYSCALLS 64

struct tr_out {
	const struct probe_opts *opts;
	struct json_writer json;
	int64_t start_ns;
	bool attached;
};

static void on_attached(void *ctx, const struct probe_target *t)
{
	struct tr_out *o = ctx;

	o->start_ns = runloop_mono_ns();
	o->attached = true;
	probe_cmd_announce("syscalls", t);
}

static int on_event(void *ctx, const struct tr_event *e)
{
	struct tr_out *o = ctx;

	if (o->opts->json)
		tr_event_json(&o->json, e, o->start_ns);
	else
		tr_event_print(stdout, e, o->start_ns);
	if (ferror(stdout))
		return -EIO;
	return 0;
}

/* Returns -1 to go on, else the exit status (EXIT_OK after --help). */
static int parse_args(int argc, char **argv, struct probe_opts *opts, int *nrs, int *n)
{
	const struct option longopts[] = { PROBE_COMMON_LONGOPTS, { 0 } };
	/* Not in order: "trace openat -p PID" and "trace -p PID openat" both work. */
	const struct probe_cmd_spec spec = { NAME, longopts, NULL, false, NULL, NULL };
	char bad[64];
	int rc = probe_cmd_getopt(&spec, argc, argv, opts);

	if (rc >= 0)
		return rc;
	if (optind >= argc)
		return probe_cmd_usage_error(NAME, "name the syscalls to trace, e.g. "
						   "'openat,execve'");
	*n = tr_parse_syscalls(argv[optind], nrs, MAX_SYSCALLS, bad, sizeof(bad));
	if (*n == -E2BIG)
		return probe_cmd_usage_error(NAME, "more than %d syscalls: '%s'", MAX_SYSCALLS,
					     argv[optind]);
	if (*n < 0)
		return probe_cmd_usage_error(NAME, "unknown syscall: '%s'", bad);
	rc = probe_cmd_finish(NAME, argc, argv, optind + 1, opts, 0);
	return rc ? rc : -1;
}

static void json_begin(struct tr_out *o)
{
	const struct probe_target *t = &o->opts->target;
	char comm[PROBE_COMM_LEN] = "";

	json_init(&o->json, stdout, o->opts->pretty);
	json_object_begin(&o->json);
	json_kv_string(&o->json, "probe", NAME);
	if (t->pid > 0) /* a name that cannot be read is null */
		(void)probe_read_comm(t->pid, comm, sizeof(comm));
	probe_target_json(&o->json, t, comm);
	json_key(&o->json, "events");
	json_array_begin(&o->json);
}

static void print_summary(struct tr_out *o, const struct tr_summary *sum)
{
	if (o->opts->json) {
		json_end(&o->json);
		json_kv_uint(&o->json, "lost", sum->lost);
		json_kv_bool(&o->json, "target_exited", sum->target_exited);
		json_kv_double(&o->json, "elapsed_s", sum->elapsed_s, 3);
		json_finish(&o->json);
		return;
	}
	if (o->attached)
		fprintf(stderr, "%llu event%s, %llu lost, %.3f s%s\n",
			(unsigned long long)sum->events, sum->events == 1 ? "" : "s",
			(unsigned long long)sum->lost, sum->elapsed_s,
			sum->target_exited ? " (target exited)" : "");
}

int probe_trace_main(int argc, char **argv)
{
	struct probe_opts opts = { 0 };
	struct tr_out out = { .opts = &opts };
	struct tr_sink sink = { on_attached, on_event, &out };
	struct tr_summary sum = { 0 };
	const char *stage = NULL;
	int nrs[MAX_SYSCALLS], n = 0, rc, err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	rc = parse_args(argc, argv, &opts, nrs, &n);
	if (rc >= 0)
		return rc;
	if (opts.json)
		json_begin(&out);
	err = tr_run(&opts, nrs, n, &sink, &sum, &stage);
	print_summary(&out, &sum);
	if (err)
		return probe_cmd_failed(NAME, &opts.target, stage, err);
	return EXIT_OK;
}
