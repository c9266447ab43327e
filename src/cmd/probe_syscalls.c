/* triage probe syscalls: per-syscall counts, errors and latency of a process. */
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#include "cmd.h"
#include "common.h"
#include "probe/session.h"
#include "probe_cmds.h"
#include "probe/syscalls.h"
#include "util/json.h"

#define NAME "syscalls"

struct sc_out {
	const struct probe_opts *opts;
	bool hist;
	struct json_writer json;
};

static void on_attached(void *ctx, const struct probe_target *t)
{
	probe_cmd_announce("syscalls", t);
}

static int on_report(void *ctx, const struct sc_report *r)
{
	struct sc_out *o = ctx;

	if (o->opts->json)
		sc_report_json(&o->json, r, o->hist);
	else {
		sc_report_print(stdout, r, o->hist);
		if (!r->final)
			fputc('\n', stdout);
	}
	fflush(stdout);
	return 0;
}

static void json_begin(struct sc_out *o)
{
	const struct probe_target *t = &o->opts->target;
	char comm[PROBE_COMM_LEN] = "";

	if (t->pid > 0) /* a name that cannot be read is null */
		(void)probe_read_comm(t->pid, comm, sizeof(comm));
	json_init(&o->json, stdout, o->opts->pretty);
	json_object_begin(&o->json);
	json_kv_string(&o->json, "probe", NAME);
	probe_target_json(&o->json, t, comm);
	json_key(&o->json, "reports");
	json_array_begin(&o->json);
}

static int own_option(int opt, void *ctx)
{
	unsigned *flags = ctx;

	if (opt != 'H' && opt != 'N')
		return 1;
	*flags |= opt == 'H' ? SC_HIST : SC_NO_LATENCY;
	return 0;
}

/* Returns -1 to go on, else the exit status (EXIT_OK after --help). */
static int parse_args(int argc, char **argv, struct probe_opts *opts, unsigned *flags)
{
	const struct option longopts[] = {
		PROBE_COMMON_LONGOPTS,
		{ "hist", no_argument, NULL, 'H' },
		{ "no-latency", no_argument, NULL, 'N' },
		{ 0 },
	};
	/* In order: the trailing "interval [count]" are operands. */
	const struct probe_cmd_spec spec = { NAME, longopts, NULL, true, own_option, flags };
	int rc = probe_cmd_getopt(&spec, argc, argv, opts);

	if (rc >= 0)
		return rc;
	rc = probe_cmd_finish(NAME, argc, argv, optind, opts, PROBE_CMD_INTERVAL | PROBE_CMD_ALL);
	return rc ? rc : -1;
}

int probe_syscalls_main(int argc, char **argv)
{
	struct probe_opts opts = { 0 };
	struct sc_out out = { .opts = &opts };
	struct sc_sink sink = { on_attached, on_report, &out };
	const char *stage = NULL;
	unsigned flags = 0;
	int rc, err;

	rc = parse_args(argc, argv, &opts, &flags);
	out.hist = (flags & SC_HIST) && !(flags & SC_NO_LATENCY);
	if (rc >= 0)
		return rc;
	if (opts.json)
		json_begin(&out);
	err = sc_run(&opts, flags, &sink, &stage);
	if (opts.json)
		json_finish(&out.json);
	if (err)
		return probe_cmd_failed(NAME, &opts.target, stage, err);
	return EXIT_OK;
}
