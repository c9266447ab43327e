/* triage doctor [--json]: what this machine offers for tracing, and what is missing. */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <stdio.h>

#include "cmd.h"
#include "common.h"
#include "help/doctor.h"
#include "probe/doctor.h"
#include "probe/doctor_tasks.h"
#include "util/json.h"

struct doctor_args {
	bool json, pretty;
	const char *dump; /* --dump-tasks DOORS */
};

/* One option; returns -1 to go on, -2 for getopt's error, else the exit status. */
static int parse_opt(int ch, void *ctx)
{
	struct doctor_args *a = ctx;

	switch (ch) {
	case 'j':
		a->json = true;
		return -1;
	case 'P':
		a->json = a->pretty = true;
		return -1;
	case 'D':
		a->dump = optarg;
		return -1;
	case 'h':
		fputs(triage_help_doctor, stdout);
		return EXIT_OK;
	default: /* getopt's '?' and ':' */
		return -2;
	}
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct doctor_args *a)
{
	const struct option longopts[] = {
		{ "dump-tasks", required_argument, NULL, 'D' }, /* for tests/procfs/doors.t */
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int status = cmd_getopt_loop("doctor", argc, argv, ":jh", longopts, parse_opt, a);

	return status >= 0 ? status : cmd_no_operands("doctor", argc, argv);
}

int cmd_doctor(int argc, char **argv)
{
	struct doc_report r;
	struct doctor_args a = { 0 };
	bool all_work = true;
	int rc = parse_args(argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (a.dump) {
		rc = doctor_dump_tasks(stdout, a.dump);
		if (rc == -EINVAL)
			return cmd_usage_error(
			    "doctor", "--dump-tasks wants proc or bpf, comma-separated: '%s'",
			    a.dump);
		if (rc)
			fprintf(stderr, "triage doctor: --dump-tasks: %s\n", strerror(-rc));
		return cmd_errno_status(CMD_ON_SYSTEM, rc);
	}
	doctor_run(&r);
	for (size_t i = 0; i < r.nprobes; i++)
		all_work &= r.probes[i].works;
	if (a.json) {
		struct json_writer w;

		json_init(&w, stdout, a.pretty);
		doctor_json(&w, &r);
		json_finish(&w);
	} else {
		doctor_print(stdout, &r);
	}
	return all_work ? EXIT_OK : EXIT_NOSUPPORT;
}
