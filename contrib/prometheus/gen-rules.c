/*
 * gen-rules: writes triage collect's Prometheus rules (src/collect/alertrules.c)
 * to stdout. The build runs it bare for contrib/prometheus/triage.rules.yml;
 * tests and sites with their own job name or `for:` durations pass options:
 *   gen-rules [--job NAME] [--for critical|warning|info|silent=DURATION]...
 * Exit status: 0, 1 on a write error, 2 on a usage error.
 */
#include <stdio.h>
#include <string.h>

#include "collect/alertrules.h"

static int usage(const char *bad)
{
	fprintf(stderr, "gen-rules: bad argument '%s'\n", bad);
	fprintf(stderr, "usage: gen-rules [--job NAME] "
			"[--for critical|warning|info|silent=DURATION]...\n");
	return 2;
}

/* "warning=30s": sets that severity's (or the silent hosts') for: */
static int set_for(struct collect_alert_rules_opts *o, const char *arg)
{
	static const char *const names[] = { "critical", "warning", "info" };
	const char *eq = strchr(arg, '=');

	if (!eq || !collect_alert_rules_duration_ok(eq + 1))
		return -1;
	if ((size_t)(eq - arg) == strlen("silent") && !strncmp(arg, "silent", 6)) {
		o->for_silent = eq + 1;
		return 0;
	}
	for (int s = SEV_CRITICAL; s <= SEV_INFO; s++)
		if ((size_t)(eq - arg) == strlen(names[s]) && !strncmp(arg, names[s], eq - arg)) {
			o->for_sev[s] = eq + 1;
			return 0;
		}
	return -1;
}

int main(int argc, char **argv)
{
	struct collect_alert_rules_opts o;

	collect_alert_rules_defaults(&o);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--job") && i + 1 < argc &&
		    collect_alert_rules_job_ok(argv[i + 1]))
			o.job = argv[++i];
		else if (!strcmp(argv[i], "--for") && i + 1 < argc && !set_for(&o, argv[i + 1]))
			i++;
		else
			return usage(argv[i]);
	}
	if (collect_alert_rules_render(&o, stdout) || fflush(stdout))
		return 1;
	return 0;
}
