/*
 * triage probe SUBCOMMAND: eBPF probes built on tracepoints, BTF and perf
 * events; no kernel debug symbols needed. One file per probe:
 * src/cmd/probe_<name>.c over src/probe/ (user side) and src/bpf/ (BPF side).
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "common.h"
#include "probe/probe_cmds.h"

static const struct cmd probes[] = {
	{ "syscalls", probe_syscalls_main, "per-syscall counts, errors and latency of a process" },
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
		return cmd_finish_stdout(EXIT_OK);
	}
	for (size_t i = 0; i < ARRAY_SIZE(probes); i++)
		if (!strcmp(argv[1], probes[i].name))
			return probes[i].run(argc - 1, argv + 1);
	cmd_error("probe", "'%s' is not a probe; see 'triage probe --help'", argv[1]);
	return EXIT_USAGE;
}
