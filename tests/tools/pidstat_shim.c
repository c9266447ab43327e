/*
 * LD_PRELOAD shim that runs the real sysstat pidstat over a fixture root
 * (docs/fixtures.md), so that golden tests get their expected output from
 * the reference tool instead of from a file someone wrote.
 *
 *   PIDSTAT_SHIM_ROOT=/abs/fixture LD_PRELOAD=pidstat_shim.so pidstat ...
 *
 * Path rewriting: /proc/... -> ROOT/stepK/proc/..., /sys/... -> ROOT/sys/...
 * Host facts: uname, sysconf(_SC_CLK_TCK/_SC_PAGESIZE) from ROOT/meta.
 * Clock: time() is meta "epoch" until the first pause(), then stepK/time.
 * Timing: alarm() is a no-op; pause() moves to the next step, or raises
 * SIGINT when no step is left (pidstat then prints its Average as after
 * Ctrl-C).
 *
 * The entry points are the ones Debian's pidstat 12.6.1 imports (nm -D):
 * open, fopen, opendir, stat, time, uname, sysconf, alarm, pause. The
 * 64-bit and *at variants are covered too so a rebuilt pidstat still works.
 * Test code: no -Werror requirements of the product apply here.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static char shim_root[PATH_MAX];
static int shim_step = 1;
static int shim_advanced; /* 0 until the first pause() */
static long meta_hz = 100, meta_pagesize = 4096;
static long long meta_epoch;
static char meta_sysname[65] = "Linux", meta_release[65] = "0.0.0-fixture";
static char meta_nodename[65] = "fixture", meta_machine[65] = "x86_64";

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

static void copy_text(char *dst, size_t n, const char *v)
{
	snprintf(dst, n, "%s", v);
}

static void load_meta(void)
{
	char path[PATH_MAX + 16], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/meta", shim_root);
	f = REAL(fopen)(path, "r");
	if (!f) {
		fprintf(stderr, "pidstat_shim: cannot open %s\n", path);
		_exit(99);
	}
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '='), *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (line[0] == '#' || !eq)
			continue;
		*eq++ = '\0';
		if (!strcmp(line, "hz"))
			meta_hz = atol(eq);
		else if (!strcmp(line, "pagesize"))
			meta_pagesize = atol(eq);
		else if (!strcmp(line, "epoch"))
			meta_epoch = atoll(eq);
		else if (!strcmp(line, "sysname"))
			copy_text(meta_sysname, sizeof(meta_sysname), eq);
		else if (!strcmp(line, "release"))
			copy_text(meta_release, sizeof(meta_release), eq);
		else if (!strcmp(line, "nodename"))
			copy_text(meta_nodename, sizeof(meta_nodename), eq);
		else if (!strcmp(line, "machine"))
			copy_text(meta_machine, sizeof(meta_machine), eq);
	}
	fclose(f);
}

__attribute__((constructor)) static void shim_init(void)
{
	const char *r = getenv("PIDSTAT_SHIM_ROOT");

	if (!r || !*r) {
		fprintf(stderr, "pidstat_shim: PIDSTAT_SHIM_ROOT is not set\n");
		_exit(99);
	}
	copy_text(shim_root, sizeof(shim_root), r);
	load_meta();
}

static int has_prefix(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(p, dir, n) && (p[n] == '/' || p[n] == '\0');
}

/* Returns the rewritten path in buf, or p itself when it is not redirected. */
static const char *map_path(const char *p, char *buf, size_t n)
{
	if (!p)
		return p;
	if (has_prefix(p, "/proc")) {
		snprintf(buf, n, "%s/step%d%s", shim_root, shim_step, p);
		return buf;
	}
	if (has_prefix(p, "/sys")) {
		snprintf(buf, n, "%s%s", shim_root, p);
		return buf;
	}
	return p;
}

#define MAPPED(p) map_path((p), alloca(PATH_MAX * 2), PATH_MAX * 2)

int open(const char *p, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	return REAL(open)(MAPPED(p), flags, mode);
}

int open64(const char *p, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	return REAL(open64)(MAPPED(p), flags, mode);
}

int openat(int dfd, const char *p, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	return REAL(openat)(dfd, MAPPED(p), flags, mode);
}

FILE *fopen(const char *p, const char *m)
{
	return REAL(fopen)(MAPPED(p), m);
}

FILE *fopen64(const char *p, const char *m)
{
	return REAL(fopen64)(MAPPED(p), m);
}

DIR *opendir(const char *p)
{
	return REAL(opendir)(MAPPED(p));
}

int stat(const char *p, struct stat *st)
{
	return REAL(stat)(MAPPED(p), st);
}

int lstat(const char *p, struct stat *st)
{
	return REAL(lstat)(MAPPED(p), st);
}

int stat64(const char *p, struct stat64 *st)
{
	return REAL(stat64)(MAPPED(p), st);
}

int fstatat(int dfd, const char *p, struct stat *st, int fl)
{
	return REAL(fstatat)(dfd, MAPPED(p), st, fl);
}

int access(const char *p, int m)
{
	return REAL(access)(MAPPED(p), m);
}

/* The wall clock of the current step: meta epoch before the first pause. */
static time_t step_time(void)
{
	char path[PATH_MAX + 32];
	long long t = meta_epoch;
	FILE *f;

	if (!shim_advanced)
		return (time_t)t;
	snprintf(path, sizeof(path), "%s/step%d/time", shim_root, shim_step);
	f = REAL(fopen)(path, "r");
	if (!f || fscanf(f, "%lld", &t) != 1) {
		fprintf(stderr, "pidstat_shim: cannot read %s\n", path);
		_exit(99);
	}
	fclose(f);
	return (time_t)t;
}

time_t time(time_t *t)
{
	time_t now = step_time();

	if (t)
		*t = now;
	return now;
}

int gettimeofday(struct timeval *tv, void *tz)
{
	(void)tz;
	tv->tv_sec = step_time();
	tv->tv_usec = 0;
	return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (id != CLOCK_REALTIME)
		return REAL(clock_gettime)(id, ts);
	ts->tv_sec = step_time();
	ts->tv_nsec = 0;
	return 0;
}

int uname(struct utsname *u)
{
	memset(u, 0, sizeof(*u));
	copy_text(u->sysname, sizeof(u->sysname), meta_sysname);
	copy_text(u->release, sizeof(u->release), meta_release);
	copy_text(u->nodename, sizeof(u->nodename), meta_nodename);
	copy_text(u->machine, sizeof(u->machine), meta_machine);
	copy_text(u->version, sizeof(u->version), "#1");
	return 0;
}

long sysconf(int name)
{
	if (name == _SC_CLK_TCK)
		return meta_hz;
	if (name == _SC_PAGESIZE)
		return meta_pagesize;
	return REAL(sysconf)(name);
}

int getpagesize(void)
{
	return (int)meta_pagesize;
}

unsigned int alarm(unsigned int s)
{
	(void)s;
	return 0;
}

static int step_exists(int k)
{
	char path[PATH_MAX + 32];
	struct stat st;

	snprintf(path, sizeof(path), "%s/step%d/proc", shim_root, k);
	return REAL(stat)(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Like a real pause() woken by SIGALRM, or by Ctrl-C when the steps run out. */
int pause(void)
{
	if (step_exists(shim_step + 1)) {
		shim_step++;
		shim_advanced = 1;
	} else {
		raise(SIGINT);
	}
	errno = EINTR;
	return -1;
}
