/* --from/--to times: ISO 8601, epoch seconds, or relative to now (a duration, util/parse.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/record.h"
#include "util/parse.h"

/* "+HH:MM", "+HHMM", "Z" or "" (local); the offset east of UTC in seconds. */
static int parse_zone(const char *s, bool *local, long *off)
{
	int h, m = 0, n = 0;

	*local = false;
	*off = 0;
	if (!*s) {
		*local = true;
		return 0;
	}
	if (!strcmp(s, "Z"))
		return 0;
	if ((s[0] != '+' && s[0] != '-') ||
	    (sscanf(s + 1, "%2d:%2d%n", &h, &m, &n) != 2 &&
	     sscanf(s + 1, "%2d%2d%n", &h, &m, &n) != 2 && sscanf(s + 1, "%2d%n", &h, &n) != 1) ||
	    s[1 + n] || h > 23 || m > 59)
		return -EINVAL;
	*off = (s[0] == '-' ? -1 : 1) * (h * 3600L + m * 60L);
	return 0;
}

/* A span before now: a duration, or zero ("0s ago" is now). */
static int parse_ago(const char *s, double *span)
{
	int err = parse_duration(s, span);

	if (err == -ERANGE)
		*span = 0;
	return err == -EINVAL ? -EINVAL : 0;
}

/* The clock part "HH:MM[:SS[.frac]]" then the zone; *end past it. */
static int parse_clock(const char *s, struct tm *tm, double *frac, const char **end)
{
	int n = 0;

	*frac = 0;
	tm->tm_sec = 0;
	if (sscanf(s, "%2d:%2d%n", &tm->tm_hour, &tm->tm_min, &n) != 2 || n != 5)
		return -EINVAL;
	s += n;
	if (*s == ':') {
		if (!isdigit((unsigned char)s[1]) || !isdigit((unsigned char)s[2]))
			return -EINVAL;
		tm->tm_sec = (s[1] - '0') * 10 + (s[2] - '0');
		s += 3;
		if (*s == '.' || *s == ',') {
			char *e;

			*frac = strtod(s[0] == ',' ? "0" : s, &e);
			if (e == s + 1)
				return -EINVAL;
			s = e;
		}
	}
	if (tm->tm_hour > 23 || tm->tm_min > 59 || tm->tm_sec > 60)
		return -EINVAL;
	*end = s;
	return 0;
}

static int parse_absolute(const char *s, double now, double *out)
{
	struct tm tm;
	time_t t = (time_t)now;
	double frac;
	const char *rest;
	bool local;
	long off;
	int n = 0, year, mon, mday;

	localtime_r(&t, &tm);
	/* into locals: a failed match ("09:26" read as year 9) must leave today's date */
	if (sscanf(s, "%4d-%2d-%2d%n", &year, &mon, &mday, &n) == 3 && n == 10) {
		if (mon < 1 || mon > 12 || mday < 1 || mday > 31)
			return -EINVAL;
		tm.tm_year = year - 1900;
		tm.tm_mon = mon - 1;
		tm.tm_mday = mday;
		s += 10;
		if (!*s) {
			tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
			rest = s;
			frac = 0;
		} else if ((*s != 'T' && *s != ' ') || parse_clock(s + 1, &tm, &frac, &rest)) {
			return -EINVAL;
		}
	} else if (parse_clock(s, &tm, &frac, &rest)) {
		return -EINVAL;
	}
	if (parse_zone(rest, &local, &off))
		return -EINVAL;
	tm.tm_isdst = -1;
	t = local ? mktime(&tm) : timegm(&tm) - off;
	if (t == (time_t)-1)
		return -EINVAL;
	*out = (double)t + frac;
	return 0;
}

int record_parse_time(const char *s, double now, double *out)
{
	double span;
	size_t len = strlen(s);
	char buf[64];

	if (!strcmp(s, "now")) {
		*out = now;
		return 0;
	}
	if (s[0] == '@') {
		char *end;

		if (!isdigit((unsigned char)s[1]))
			return -EINVAL;
		*out = strtod(s + 1, &end);
		return *end ? -EINVAL : 0;
	}
	if (s[0] == '-') {
		if (parse_ago(s + 1, &span))
			return -EINVAL;
		*out = now - span;
		return 0;
	}
	if (len > 4 && len < sizeof(buf) && !strcmp(s + len - 4, " ago")) {
		memcpy(buf, s, len - 4);
		buf[len - 4] = '\0';
		if (parse_ago(buf, &span))
			return -EINVAL;
		*out = now - span;
		return 0;
	}
	return parse_absolute(s, now, out);
}
