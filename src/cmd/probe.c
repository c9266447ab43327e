/*
 * triage probe SUBCOMMAND: eBPF probes built on tracepoints, BTF and perf
 * events; no kernel debug symbols needed. One file per probe:
 * src/cmd/probe_<name>.c over src/probe/ (user side) and src/bpf/ (BPF side).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "common.h"
#include "probe/session.h"
#include "probe/probe_cmds.h"

static const struct cmd probes[] = {
	{ "syscalls", probe_syscalls_main,
	  "per-syscall counts, errors and latency of a process or of all" },
	{ "trace", probe_trace_main, "each syscall live, with decoded arguments" },
	{ "offcpu", probe_offcpu_main, "off-CPU time, voluntary and involuntary, by stack" },
	{ "runq", probe_runq_main, "run-queue latency per thread" },
	{ "profile", probe_profile_main, "on-CPU sampling with stacks" },
};

static void probe_usage(FILE *out)
{
	fprintf(out, "Usage: triage probe PROBE [OPTIONS]\n\nProbes:\n");
	for (size_t i = 0; i < ARRAY_SIZE(probes); i++)
		fprintf(out, "  %-9s %s\n", probes[i].name, probes[i].summary);
	fprintf(out, "\nRun 'triage probe PROBE --help' for its options; "
		     "'triage doctor' tells what this machine supports.\n");
}

int cmd_probe(int argc, char **argv)
{
	if (argc < 2) {
		probe_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		probe_usage(stdout);
		return EXIT_OK;
	}
	for (size_t i = 0; i < ARRAY_SIZE(probes); i++)
		if (!strcmp(argv[1], probes[i].name))
			return probes[i].run(argc - 1, argv + 1);
	cmd_error("probe", "'%s' is not a probe; see 'triage probe --help'", argv[1]);
	return EXIT_USAGE;
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

		if (err == -ENAMETOOLONG) {
			cmd_error("probe", "%s: comm '%s' is longer than the kernel's 15 bytes",
				  probe, arg);
			return EXIT_USAGE;
		}
		if (err)
			goto bad;
		return 0;
	}
	case 'd':
		if (probe_parse_duration(arg, &o->duration_s))
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
	cmd_error("probe", "%s: bad value '%s' for -%c", probe, arg, opt);
	return EXIT_USAGE;
}

int probe_cmd_getopt(const struct probe_cmd_spec *spec, int argc, char **argv, struct probe_opts *o)
{
	char shortopts[64];
	int c, rc;

	snprintf(shortopts, sizeof(shortopts), "%s" PROBE_COMMON_SHORTOPTS "%s",
		 spec->in_order ? "+" : "", spec->shortopts ? spec->shortopts : "");
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, spec->longopts, NULL)) != -1) {
		if (c == 'h') {
			spec->usage(stdout, spec->ctx);
			return -1;
		}
		rc = spec->own_option ? spec->own_option(c, spec->ctx) : 1;
		if (rc == 1)
			rc = probe_cmd_option(spec->name, c, optarg, o);
		if (rc == 1) {
			spec->usage(stderr, spec->ctx);
			return EXIT_USAGE;
		}
		if (rc)
			return rc;
	}
	return 0;
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
	cmd_error("probe", "%s: %d is a thread of process %d; use -p %d", probe, pid, tgid, tgid);
	return EXIT_USAGE;
}

int probe_cmd_check_target(const char *probe, const struct probe_target *t, bool allow_all)
{
	if (probe_target_check(t)) {
		cmd_error("probe", "%s: give only one of -p PID or -C COMM", probe);
		return EXIT_USAGE;
	}
	if (!allow_all && probe_target_all(t)) {
		cmd_error("probe", "%s: give -p PID or -C COMM", probe);
		return EXIT_USAGE;
	}
	return check_process(probe, t->pid);
}

int probe_cmd_finish(const char *probe, int argc, char **argv, int first, struct probe_opts *o,
		     unsigned flags)
{
	int err = probe_cmd_check_target(probe, &o->target, flags & PROBE_CMD_ALL);

	if (err)
		return err;
	if (!(flags & PROBE_CMD_INTERVAL) && first < argc) {
		cmd_error("probe", "%s: unexpected argument '%s'", probe, argv[first]);
		return EXIT_USAGE;
	}
	err = probe_parse_interval(argc, argv, first, &o->interval_s, &o->count);
	if (err == -E2BIG) {
		cmd_error("probe", "%s: unexpected argument '%s'", probe, argv[first + 2]);
		return EXIT_USAGE;
	}
	if (err) {
		cmd_error("probe", "%s: bad interval or count in '%s%s%s'", probe, argv[first],
			  first + 1 < argc ? " " : "", first + 1 < argc ? argv[first + 1] : "");
		return EXIT_USAGE;
	}
	return 0;
}

int probe_cmd_failed(const char *probe, const char *stage, int err)
{
	if (err == -ESRCH && stage && !strcmp(stage, "watching the target")) {
		cmd_error("probe", "%s: no such process", probe);
		return EXIT_RUNTIME;
	}
	return probe_report_failure(stderr, probe, stage ? stage : "running", err);
}
