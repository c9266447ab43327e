/* triage version [--json]: the version and the compiled-in features. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "common.h"
#include "util/json.h"

#ifndef TRIAGE_HAVE_BPF
#define TRIAGE_HAVE_BPF 0
#endif

int cmd_version(int argc, char **argv)
{
	bool json = argc > 1 && !strcmp(argv[1], "--json");
	struct json_writer w;

	if (argc > 2 || (argc == 2 && !json)) {
		fprintf(stderr, "Usage: triage version [--json]\n");
		return EXIT_USAGE;
	}
	if (!json) {
		printf("triage %s (bpf: %s)\n", TRIAGE_VERSION, TRIAGE_HAVE_BPF ? "yes" : "no");
		return cmd_finish_stdout(EXIT_OK);
	}
	json_init(&w, stdout, false);
	json_object_begin(&w);
	json_kv_string(&w, "version", TRIAGE_VERSION);
	json_key(&w, "features");
	json_object_begin(&w);
	json_kv_bool(&w, "bpf", TRIAGE_HAVE_BPF);
	json_end(&w);
	json_finish(&w);
	return cmd_finish_stdout(EXIT_OK);
}
