/*
 * triage version [--json]: the version and the compiled-in features, so a
 * script (or CI) can assert what this build can do.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "common.h"
#include "help/version.h"
#include "util/json.h"
#include "util/libversions.h"

#ifndef TRIAGE_HAVE_BPF
#define TRIAGE_HAVE_BPF 0
#endif

static void print_version_json(void)
{
	struct json_writer w;
	char bpf[32];

	util_libbpf_version(bpf, sizeof(bpf));
	json_init(&w, stdout, false);
	json_object_begin(&w);
	json_kv_string(&w, "version", TRIAGE_VERSION);
	json_key(&w, "features");
	json_object_begin(&w);
	json_kv_bool(&w, "bpf", TRIAGE_HAVE_BPF);
	json_kv_string(&w, "libbpf", bpf);
	/* loaded at first use: named, not loaded, here */
	json_kv_string(&w, "libpcap", util_pcap_soname());
	json_kv_string(&w, "libmicrohttpd", util_mhd_soname());
	json_end(&w);
	json_finish(&w);
}

int cmd_version(int argc, char **argv)
{
	char bpf[32];

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(triage_help_version, stdout);
		return EXIT_OK;
	}
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--json")))
		return cmd_usage_error("version", "%s: '%s'",
				       argv[argc - 1][0] == '-' && argc == 2
					   ? "unknown option"
					   : "unexpected argument",
				       argv[argc == 2 ? 1 : 2]);
	if (argc == 2) {
		print_version_json();
		return EXIT_OK;
	}
	util_libbpf_version(bpf, sizeof(bpf));
	printf("triage %s (bpf: %s, libbpf %s; at first use: %s, %s)\n", TRIAGE_VERSION,
	       TRIAGE_HAVE_BPF ? "yes" : "no", bpf, util_pcap_soname(), util_mhd_soname());
	return EXIT_OK;
}
