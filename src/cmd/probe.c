/*
 * triage probe SUBCOMMAND: eBPF probes built on tracepoints, BTF and perf
 * events; no kernel debug symbols needed. One file per probe:
 * src/cmd/probe_<name>.c over src/probe/ (user side) and src/bpf/ (BPF side).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "common.h"
#include "help/probe.h"
#include "probe/session.h"
#include "probe_cmds.h"

static const struct cmd probes[] = {
	{ "syscalls", probe_syscalls_main,
	  "per-syscall counts, errors and latency of a process or of all" },
	{ "trace", probe_trace_main, "each syscall live, with decoded arguments" },
	{ "offcpu", probe_offcpu_main, "off-CPU time, voluntary and involuntary, by stack" },
	{ "runq", probe_runq_main, "run-queue latency per thread" },
	{ "profile", probe_profile_main, "on-CPU sampling with stacks" },
};

int cmd_probe(int argc, char **argv)
{
	if (argc < 2)
		return cmd_usage_error("probe", "which probe? (syscalls, trace, offcpu, runq, "
						"profile)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(triage_help_probe, stdout);
		return EXIT_OK;
	}
	for (size_t i = 0; i < ARRAY_SIZE(probes); i++)
		if (!strcmp(argv[1], probes[i].name))
			return probes[i].run(argc - 1, argv + 1);
	const char *names[ARRAY_SIZE(probes)];

	for (size_t i = 0; i < ARRAY_SIZE(probes); i++)
		names[i] = probes[i].name;
	return cmd_unknown_word("probe", "not a probe", argv[1], names, ARRAY_SIZE(names));
}

int probe_cmd_usage_error(const char *probe, const char *fmt, ...)
{
	char cmd[48], msg[512];
	va_list ap;

	snprintf(cmd, sizeof(cmd), "probe %s", probe);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return cmd_usage_error(cmd, "%s", msg);
}

int probe_cmd_option(const char *probe, int opt, const char *arg, struct probe_opts *o)
{
	switch (opt) {
	case 'p':
		if (probe_parse_pid(arg, &o->target.pid))
			goto bad;
		return 0;
	case 'C': {
		int err = probe_parse_comm(arg, o->target.comm);

		if (err == -ENAMETOOLONG)
			return probe_cmd_usage_error(
			    probe, "-C longer than the kernel's 15 bytes: '%s'", arg);
		if (err)
			goto bad;
		return 0;
	}
	case 'd':
		if (probe_parse_duration(arg, &o->duration_s) || o->duration_s > PROBE_MAX_SECONDS)
			goto bad;
		return 0;
	case 'j':
		o->json = true;
		return 0;
	case PROBE_OPT_PRETTY:
		o->json = o->pretty = true;
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	default:
		return 1;
	}
bad:
	return probe_cmd_usage_error(probe, "bad -%c value: '%s'", opt, arg);
}

struct probe_getopt {
	const struct probe_cmd_spec *spec;
	struct probe_opts *o;
	char **argv;
	const char *cmd; /* "probe NAME" */
};

/* One option; returns -1 to go on, -2 for getopt's error, else the exit status. */
static int probe_opt(int c, void *ctx)
{
	struct probe_getopt *g = ctx;
	char **argv = g->argv;
	int rc;

	if (c == 'h') {
		fputs(triage_help_probe, stdout);
		return EXIT_OK;
	}
	if (c == '?' || c == ':')
		return -2;
	rc = g->spec->own_option ? g->spec->own_option(c, g->spec->ctx) : 1;
	if (rc == 1)
		rc = probe_cmd_option(g->spec->name, c, optarg, g->o);
	if (rc == 1) /* an option another probe has (own_option said 1), as typed */
		return cmd_usage_error(g->cmd, "option not for this probe: '%s'",
				       optarg && optarg == argv[optind - 1] && optind > 1
					   ? argv[optind - 2]
					   : argv[optind - 1]);
	return rc ? rc : -1;
}

int probe_cmd_getopt(const struct probe_cmd_spec *spec, int argc, char **argv, struct probe_opts *o)
{
	char shortopts[64], cmd[48];
	struct probe_getopt g = { spec, o, argv, cmd };

	snprintf(shortopts, sizeof(shortopts), "%s:" PROBE_COMMON_SHORTOPTS "%s",
		 spec->in_order ? "+" : "", spec->shortopts ? spec->shortopts : "");
	snprintf(cmd, sizeof(cmd), "probe %s", spec->name);
	return cmd_getopt_loop(cmd, argc, argv, shortopts, spec->longopts, probe_opt, &g);
}

void probe_cmd_announce(const char *what, const struct probe_target *t)
{
	char who[96];

	probe_target_describe(t, who, sizeof(who));
	fprintf(stderr, "Tracing %s of %s... Ctrl-C to stop.\n", what, who);
}

/* -p takes a process: a thread id is a usage error naming its process. */
static int check_process(const char *probe, int pid)
{
	int tgid;

	if (pid <= 0 || probe_process_tgid(pid, &tgid) || tgid == pid)
		return 0; /* a missing pid is reported when the probe watches it */
	return probe_cmd_usage_error(probe, "-p names a thread of process %d (use -p %d): '%d'",
				     tgid, tgid, pid);
}

int probe_cmd_check_target(const char *probe, const struct probe_target *t, bool allow_all)
{
	if (probe_target_check(t))
		return probe_cmd_usage_error(probe, "give only one of -p PID or -C COMM");
	if (!allow_all && probe_target_all(t))
		return probe_cmd_usage_error(probe, "give -p PID or -C COMM");
	return check_process(probe, t->pid);
}

int probe_cmd_finish(const char *probe, int argc, char **argv, int first, struct probe_opts *o,
		     unsigned flags)
{
	int err = probe_cmd_check_target(probe, &o->target, flags & PROBE_CMD_ALL);

	if (err)
		return err;
	if (!(flags & PROBE_CMD_INTERVAL) && first < argc)
		return probe_cmd_usage_error(probe, "unexpected argument: '%s'", argv[first]);
	err = probe_parse_interval(argc, argv, first, &o->interval_s, &o->count);
	if (err == -E2BIG)
		return probe_cmd_usage_error(probe, "unexpected argument: '%s'", argv[first + 2]);
	if (err || o->interval_s > PROBE_MAX_SECONDS)
		return probe_cmd_usage_error(probe, "bad interval or count: '%s%s%s'", argv[first],
					     first + 1 < argc ? " " : "",
					     first + 1 < argc ? argv[first + 1] : "");
	return 0;
}

int probe_cmd_failed(const char *probe, const struct probe_target *t, const char *stage, int err)
{
	if (err == -ESRCH && stage && !strcmp(stage, "watching the target")) {
		if (t && t->pid > 0)
			cmd_error("probe", "%s: no such process: PID %d", probe, t->pid);
		else if (t && t->comm[0])
			cmd_error("probe", "%s: no such process: '%s'", probe, t->comm);
		else
			cmd_error("probe", "%s: no such process", probe);
		return EXIT_RUNTIME;
	}
	return probe_report_failure(stderr, probe, stage ? stage : "running", err);
}
