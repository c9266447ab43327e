#include "util/parse.h"

#include <errno.h>
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
