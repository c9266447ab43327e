/* triage doctor [--json]: what this machine offers for tracing, and what is missing. */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "common.h"
#include "help/doctor.h"
#include "probe/doctor.h"
#include "util/json.h"

/* Returns 0, -1 when --help was printed (exit 0), or EXIT_USAGE. */
static int parse_args(int argc, char **argv, bool *json, bool *pretty)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c, before;

	optind = 1;
	opterr = 0;
	while (before = optind, (c = getopt_long(argc, argv, ":jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			*json = true;
			break;
		case 'P':
			*json = *pretty = true;
			break;
		case 'h':
			fputs(triage_help_doctor, stdout);
			return -1;
		default:
			return cmd_getopt_error("doctor", c, argv, before);
		}
	}
	if (optind < argc)
		return cmd_usage_error("doctor", "unexpected argument: '%s'", argv[optind]);
	return 0;
}

int cmd_doctor(int argc, char **argv)
{
	struct doc_report r;
	bool json = false, pretty = false, all_work = true;
	int rc = parse_args(argc, argv, &json, &pretty);

	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	doctor_run(&r);
	for (size_t i = 0; i < r.nprobes; i++)
		all_work &= r.probes[i].works;
	if (json) {
		struct json_writer w;

		json_init(&w, stdout, pretty);
		doctor_json(&w, &r);
		json_finish(&w);
	} else {
		doctor_print(stdout, &r);
	}
	return all_work ? EXIT_OK : EXIT_NOSUPPORT;
}
