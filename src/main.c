/*
 * triage: one binary, one command table. Invoked as "pidstat" it behaves
 * exactly as "triage pidstat".
 */
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common.h"
#include "util/text.h"

static const struct cmd commands[] = {
	{ "report", cmd_report,
	  "watch the machine a few seconds: what is wrong, the numbers, what to run next" },
	/* sysstat's pidstat does not report a failed stdout: neither do we */
	{ "pidstat", cmd_pidstat,
	  "per-task CPU, memory, I/O and context switches (sysstat-compatible)",
	  .own_stdout = true },
	{ "collect", cmd_collect,
	  "feed Graphite and Prometheus: per-process groups and host figures" },
	{ "fleet", cmd_fleet, "the findings of every host, from Prometheus or Graphite" },
	{ "record", cmd_record, "keep history in SQLite: host, tasks, load, PSI, disks, findings" },
	{ "replay", cmd_replay, "replay a recording through pidstat, load or report" },
	{ "load", cmd_load, "explain the load average: which tasks make it, and why" },
	{ "probe", cmd_probe, "eBPF probes: syscalls, trace, offcpu, runq, profile" },
	{ "doctor", cmd_doctor, "what this machine offers for tracing, and what is missing" },
	{ "u32", cmd_u32, "test, explain and lint iptables u32/string rules on captures" },
	{ "plot", cmd_plot, "draw a triage record as one self-contained HTML page" },
	{ "version", cmd_version, "print the version and compiled-in features" },
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: triage COMMAND [ARGS]\n       triage help [COMMAND]\n"
		     "       triage -h|--help|--version\n\nCommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nRun 'triage COMMAND --help' for a command's options.\n"
		     "Exit status: 0 ok, 1 runtime failure, 2 usage error,\n"
		     "3 missing privilege or kernel support (pidstat: sysstat's codes).\n");
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/*
 * "not a triage command", and as git does, the nearest commands: one edit
 * away, or two for a word of five letters or more ("triage reprot": did
 * you mean report?).
 */
static int unknown_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands)];

	fprintf(stderr, "triage: not a triage command: '");
	text_put_safe(stderr, name);
	fprintf(stderr, "'\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	text_did_you_mean(stderr, name, names, ARRAY_SIZE(names));
	fputs("see 'triage help'\n", stderr);
	return EXIT_USAGE;
}

/*
 * The one place stdout is checked: output lost to a full disk or EIO makes
 * the command fail, whatever it printed.
 */
static int run(const struct cmd *cmd, int argc, char **argv)
{
	int status = cmd->run(argc, argv);

	return cmd->own_stdout ? status : cmd_finish_stdout(status);
}

/* triage help [CMD]: the command's own --help. */
static int help(int argc, char **argv)
{
	char help_arg[] = "--help";
	const struct cmd *cmd;

	if (argc < 3) {
		usage(stdout);
		return cmd_finish_stdout(EXIT_OK);
	}
	if (argc > 3) {
		fprintf(stderr, "triage: help takes one command: '%s'\nsee 'triage help'\n",
			argv[3]);
		return EXIT_USAGE;
	}
	cmd = find_command(argv[2]);
	if (!cmd)
		return unknown_command(argv[2]);
	return run(cmd, 2, (char *[]){ argv[2], help_arg, NULL });
}

int main(int argc, char **argv)
{
	const struct cmd *cmd;
	const char *self = argc > 0 ? basename(argv[0]) : "triage";

	if (strcmp(self, "pidstat") == 0)
		return cmd_pidstat_link(argc, argv); /* sysstat checks no write either */
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc, argv);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return cmd_finish_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version"))
		return run(find_command("version"), argc - 1, argv + 1);
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	return run(cmd, argc - 1, argv + 1);
}
