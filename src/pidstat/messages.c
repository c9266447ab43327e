/*
 * sysstat's own texts: usage, version and the failure messages with their
 * exit statuses (spec 6). They go through sysstat's message catalogue, so
 * a translated run prints what a translated sysstat prints.
 */
#include <errno.h>
#include <libintl.h>
#include <string.h>

#include "pidstat/messages.h"

#define _(s) dgettext("sysstat", s)

void pidstat_bind_messages(void)
{
	bindtextdomain("sysstat", "/usr/share/locale");
}

void pidstat_write_usage(FILE *f, const char *progname)
{
	fprintf(f, _("Usage: %s [ options ] [ <interval> [ <count> ] ] [ -e <program> <args> ]\n"),
		progname);
	fprintf(f, _("Options are:\n"
		     "[ -d ] [ -H ] [ -h ] [ -I ] [ -l ] [ -R ] [ -r ] [ -s ] [ -t ] [ -U [ "
		     "<username> ] ]\n"
		     "[ -u ] [ -V ] [ -v ] [ -w ] [ -C <command> ] [ -G <process_name> ]\n"
		     "[ -p { <pid> [,...] | SELF | ALL } ] [ -T { TASK | CHILD | ALL } ]\n"
		     "[ --dec={ 0 | 1 | 2 } ] [ --human ]\n"));
}

void pidstat_write_version(FILE *f)
{
	fprintf(f, _("sysstat version %s\n"), "12.6.1");
	fprintf(f, "(C) Sebastien Godard (sysstat <at> orange.fr)\n");
}

void pidstat_write_no_activity(FILE *f)
{
	fprintf(f, _("Requested activities not available\n"));
}

const char *pidstat_average_label(void)
{
	return _("Average:");
}

int pidstat_write_failure(FILE *f, int rc, int err)
{
	switch (rc) {
	case 0:
		return 0;
	case PIDSTAT_E_UPTIME:
		fprintf(f, _("Cannot read %s\n"), "/proc/uptime");
		return 2;
	case PIDSTAT_E_STAT:
		fprintf(f, _("Cannot open %s: %s\n"), "/proc/stat", strerror(err));
		return 2;
	case PIDSTAT_E_OPENDIR:
		fprintf(f, "opendir: %s\n", strerror(err));
		return 4;
	case PIDSTAT_E_STDOUT:
		fprintf(f, "stdout: %s\n", strerror(err));
		return 6;
	default: /* PIDSTAT_E_NOMEM, and anything unforeseen */
		fprintf(f, "malloc: %s\n", strerror(ENOMEM));
		return 4;
	}
}
