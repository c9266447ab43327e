#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (d > 9)
			return -EINVAL;
		if (v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;
	int err = parse_u64(s, max, &v);

	if (err)
		return err;
	if (v < min)
		return -ERANGE;
	*out = (unsigned)v;
	return 0;
}

int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno || !isfinite(v))
		return -EINVAL;
	if (v <= 0)
		return -ERANGE;
	*out = v;
	return 0;
}

/* "12", "0.5", ".5": digits with at most one point, no sign or exponent; *end past them. */
static int scan_decimal(const char *s, double *v, const char **end)
{
	const char *p = s;
	char buf[40];
	size_t n;

	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.')
		p++;
	while (isdigit((unsigned char)*p))
		p++;
	n = (size_t)(p - s);
	if (n == 0 || (n == 1 && *s == '.') || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtod(buf, NULL);
	*end = p;
	return 0;
}

/* The seconds in one of the duration units at s ("ms" before "m"), 0 if none; *len its length. */
static double duration_unit(const char *s, size_t *len)
{
	static const struct {
		const char *name;
		double seconds;
	} units[] = { { "ms", 0.001 }, { "s", 1 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 } };

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		*len = strlen(units[i].name);
		if (!strncmp(s, units[i].name, *len))
			return units[i].seconds;
	}
	return 0;
}

int parse_duration_in(const char *s, double bare_unit, double *out)
{
	double total = 0, v, unit;
	const char *end, *start = s;
	size_t len;

	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		if (scan_decimal(s, &v, &end))
			return -EINVAL;
		unit = duration_unit(end, &len);
		if (!unit) {
			/* a bare number is the whole value, in the option's own unit */
			if (*end || s != start)
				return -EINVAL;
			unit = bare_unit;
			len = 0;
		}
		total += v * unit;
		s = end + len;
	}
	if (!isfinite(total))
		return -EINVAL;
	if (total <= 0)
		return -ERANGE;
	*out = total;
	return 0;
}

int parse_duration(const char *s, double *out)
{
	return parse_duration_in(s, 1, out);
}

int parse_pid_list(const char *s, pid_t *pids, size_t max, size_t *n)
{
	size_t before = *n;

	while (*s) {
		size_t len = strcspn(s, ",");
		char tok[16];
		unsigned v;

		if (!len || len >= sizeof(tok) || *n >= max)
			return -EINVAL;
		memcpy(tok, s, len);
		tok[len] = '\0';
		if (parse_uint(tok, 1, 1u << 30, &v))
			return -EINVAL;
		pids[(*n)++] = (pid_t)v;
		s += len;
		if (*s == ',')
			s++;
	}
	return *n > before ? 0 : -EINVAL;
}

int parse_keyword(const char *s, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, words[i]))
			return (int)i;
	return -EINVAL;
}
