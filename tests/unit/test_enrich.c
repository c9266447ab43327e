/* test: exclusive -- BPF probes of the whole machine, a profile, schedstat */
/*
 * probe/enrich.h against the project's workloads, in one window:
 *   - two spinners (probe_funcs burn) pinned to one CPU wait for it in turn:
 *     their run-queue latency must match the kernel's own account of it,
 *     the run_delay of /proc/PID/schedstat over the same window;
 *   - the top function of a spinner is the one it spins in
 *     (burn_cycles_in_known_function);
 *   - probe_getppid_loop N makes exactly N getppid calls: its top syscall;
 *   - load_dstate vfork 1 S holds a parent in D (vfork) for S seconds;
 *   - with the syscalls part on demand, only the watched of two loops counts.
 * Needs root and BPF: skipped (77) otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/enrich.h"
#include "unit.h"

#define GETPPID_CALLS 20000
#define VFORK_SECONDS 0.5

struct child {
	pid_t pid;
	FILE *out; /* its stdout */
};

static char workloads[PATH_MAX];

/* Starts workload argv[0] (pinned to cpu unless < 0) with its stdout on a pipe. */
static int spawn(struct child *c, int cpu, const char *const argv[])
{
	int fds[2];
	char path[PATH_MAX + 64];

	if (pipe(fds))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		cpu_set_t set;

		if (cpu >= 0) {
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		dup2(fds[1], 1);
		close(fds[0]);
		snprintf(path, sizeof(path), "%s/%s", workloads, argv[0]);
		execv(path, (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	c->out = fdopen(fds[0], "r");
	return c->out ? 0 : -errno;
}

/* Reads c's stdout up to a line starting with prefix; returns that line's rest or NULL. */
static char *read_until(struct child *c, const char *prefix, char *line, size_t len)
{
	while (fgets(line, (int)len, c->out))
		if (!strncmp(line, prefix, strlen(prefix)))
			return line + strlen(prefix);
	return NULL;
}

static long long run_delay_ns(pid_t pid)
{
	char path[64];
	long long run, delay = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld %lld", &run, &delay) != 2)
		delay = -1;
	fclose(f);
	return delay;
}

/* The state letter of /proc/PID/stat ('S' asleep, 'R' runnable...), or 0. */
static char task_state(pid_t pid)
{
	char path[64], buf[512], *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' ? paren[2] : 0;
}

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts))
		;
}

static void reap(struct child *c)
{
	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
	}
	if (c->out)
		fclose(c->out);
}

/* Starts probe_getppid_loop GETPPID_CALLS and waits until it waits for SIGUSR1 to make them. */
static int start_calls(struct child *c, const char *tag)
{
	char readyfile[96], n[16];
	const char *argv[] = { "probe_getppid_loop", n, readyfile, NULL };
	int err;

	snprintf(n, sizeof(n), "%d", GETPPID_CALLS);
	snprintf(readyfile, sizeof(readyfile), "/tmp/test_enrich.%d.%s", (int)getpid(), tag);
	unlink(readyfile);
	err = spawn(c, -1, argv);
	for (int i = 0; !err && i < 500 && access(readyfile, R_OK); i++)
		nap(0.01);
	/* written once the loop waits for SIGUSR1 */
	err = err ? err : access(readyfile, R_OK) ? -ECHILD : 0;
	unlink(readyfile);
	return err;
}

struct scene {
	struct child spin[2], calls, dstate;
	pid_t vfork_parent;
	long long delay0[2], delay1[2];
	struct probe_enrich *e;
};

static int scene_start(struct scene *s)
{
	const char *spin[] = { "probe_funcs", "burn", "60", NULL }; /* killed at the end */
	const char *dstate[] = { "load_dstate", "vfork", "1", "0.5", NULL };
	char line[256], *rest;
	struct probe_enrich_opts o = { .parts = PROBE_ENRICH_ALL, .freq_hz = 99 };
	int err;

	for (int i = 0; i < 2; i++) {
		if (spawn(&s->spin[i], 0, spin) || !read_until(&s->spin[i], "ready", line, 256))
			return -ECHILD;
	}
	if (start_calls(&s->calls, "all"))
		return -ECHILD;
	err = probe_enrich_start(&o, &s->e);
	if (err)
		return err;
	/*
	 * Asleep in sigwait, so no wait for the CPU is in flight across the
	 * attach (the probe would miss it, schedstat would not).
	 */
	for (int i = 0; i < 2; i++) {
		while (task_state(s->spin[i].pid) != 'S')
			nap(0.01);
		s->delay0[i] = run_delay_ns(s->spin[i].pid);
	}
	/* Everything happens inside the window from here. */
	if (spawn(&s->dstate, -1, dstate))
		return -ECHILD;
	rest = read_until(&s->dstate, "vfork ", line, sizeof(line));
	s->vfork_parent = rest ? atoi(rest) : 0;
	kill(s->spin[0].pid, SIGUSR1);
	kill(s->spin[1].pid, SIGUSR1);
	kill(s->calls.pid, SIGUSR1);
	nap(1.0);
	if (!read_until(&s->calls, "calls=", line, sizeof(line))) /* all its calls made */
		return -ECHILD;
	for (int i = 0; i < 2; i++)
		s->delay1[i] = run_delay_ns(s->spin[i].pid);
	return probe_enrich_stop(s->e);
}

static void scene_end(struct scene *s)
{
	probe_enrich_free(s->e);
	reap(&s->spin[0]);
	reap(&s->spin[1]);
	reap(&s->calls);
	if (s->dstate.pid > 0)
		waitpid(s->dstate.pid, NULL, 0); /* its vfork parent is done in 0.5 s */
	if (s->dstate.out)
		fclose(s->dstate.out);
}

static struct scene scene;

TEST(runq_matches_schedstat)
{
	struct probe_enrich_runq all, one;

	ASSERT_EQ(probe_enrich_runq(scene.e, 0, &all), 0);
	ASSERT_TRUE(all.count > 0);
	ASSERT_TRUE(all.p50_ns <= all.p99_ns && all.p99_ns <= all.max_ns);
	for (int i = 0; i < 2; i++) {
		double kernel = (double)(scene.delay1[i] - scene.delay0[i]);

		ASSERT_EQ(probe_enrich_runq(scene.e, scene.spin[i].pid, &one), 0);
		printf("spinner %d: run-queue %.1f ms in %llu waits (schedstat %.1f ms)\n", i,
		       one.total_ns / 1e6, (unsigned long long)one.count, kernel / 1e6);
		/* Two spinners share one CPU for 1 s: each waits a good part of it. */
		ASSERT_TRUE(kernel > 100e6);
		/*
		 * Both count at switch-in; the probe also sees the switches between
		 * reading schedstat and stopping (one time slice, a few ms).
		 */
		ASSERT_TRUE(one.total_ns >= 0.95 * kernel);
		ASSERT_TRUE(one.total_ns <= kernel + 0.05 * kernel + 30e6);
		ASSERT_TRUE(one.count <= all.count && one.max_ns <= all.max_ns);
	}
}

TEST(top_function_is_the_spin)
{
	struct probe_enrich_func f[5];
	struct probe_enrich_profile sum;
	size_t n;

	ASSERT_EQ(probe_enrich_top_functions(scene.e, scene.spin[0].pid, f, 5, &n, &sum), 0);
	ASSERT_TRUE(n > 0);
	printf("top function %s [%s]: %llu of %llu samples\n", f[0].name, f[0].module,
	       (unsigned long long)f[0].samples, (unsigned long long)sum.samples);
	ASSERT_STREQ(f[0].name, "burn_cycles_in_known_function");
	ASSERT_STREQ(f[0].module, "probe_funcs");
	ASSERT_TRUE(!f[0].kernel);
	ASSERT_TRUE(sum.samples <= sum.all_samples);
	ASSERT_TRUE(f[0].samples * 2 >= sum.samples);
}

TEST(top_syscall_is_getppid)
{
	struct probe_enrich_syscall sc[3];
	size_t n;

	ASSERT_EQ(probe_enrich_top_syscalls(scene.e, scene.calls.pid, sc, 3, &n), 0);
	ASSERT_TRUE(n > 0);
	ASSERT_STREQ(sc[0].name, "getppid");
	ASSERT_UEQ(sc[0].count, GETPPID_CALLS);
	ASSERT_UEQ(sc[0].errors, 0);
}

TEST(vfork_parent_in_d)
{
	struct probe_enrich_dwait d[8];
	bool clone_frame = false;
	size_t n;

	ASSERT_TRUE(scene.vfork_parent > 0);
	ASSERT_EQ(probe_enrich_dstate(scene.e, scene.vfork_parent, d, 8, &n), 0);
	ASSERT_EQ(n, 1);
	ASSERT_EQ(d[0].tid, scene.vfork_parent);
	ASSERT_STREQ(d[0].comm, "load_vfork");
	printf("vfork parent: %.1f ms in D, %zu frames:", d[0].total_ns / 1e6, d[0].nframes);
	for (size_t i = 0; i < d[0].nframes; i++)
		printf(" %s", d[0].frames[i]);
	printf("\n");
	/* Its vfork child naps VFORK_SECONDS: the parent waits at least that long. */
	ASSERT_TRUE(d[0].total_ns >= VFORK_SECONDS * 1e9);
	ASSERT_TRUE(d[0].total_ns <= probe_enrich_seconds(scene.e) * 1e9);
	for (size_t i = 0; i < d[0].nframes; i++)
		if (strstr(d[0].frames[i], "kernel_clone") || strstr(d[0].frames[i], "vfork"))
			clone_frame = true;
	ASSERT_TRUE(clone_frame);
}

/*
 * The syscalls part on demand (what the report asks for): of two loops
 * making GETPPID_CALLS getppid calls each, the one watched is counted
 * exactly, the other not at all.
 */
static void on_demand_checks(struct unit_state *unit_s_, struct child *watched, struct child *other,
			     struct probe_enrich **e)
{
	struct probe_enrich_opts o = { .parts = PROBE_ENRICH_SYSCALLS, .syscalls_on_demand = true };
	struct probe_enrich_syscall sc[3];
	char line[256];
	size_t n;
	int pid;

	ASSERT_EQ(start_calls(watched, "watched"), 0);
	ASSERT_EQ(start_calls(other, "other"), 0);
	ASSERT_EQ(probe_enrich_start(&o, e), 0);
	if (!probe_enrich_syscalls_on_demand(*e)) {
		printf("the libbpf fallback counts every process: nothing to watch\n");
		return;
	}
	ASSERT_TRUE(probe_enrich_syscalls_since(*e, watched->pid) < 0);
	ASSERT_EQ(probe_enrich_syscalls_watch(*e, watched->pid), 0);
	ASSERT_EQ(probe_enrich_syscalls_watch(*e, watched->pid), 0); /* once is enough */
	ASSERT_TRUE(probe_enrich_syscalls_since(*e, watched->pid) >= 0);
	ASSERT_EQ(probe_enrich_syscalls_watched(*e, &pid, NULL, 1), 1);
	ASSERT_EQ(pid, watched->pid);
	kill(watched->pid, SIGUSR1);
	kill(other->pid, SIGUSR1);
	ASSERT_TRUE(read_until(watched, "calls=", line, sizeof(line)) != NULL);
	ASSERT_TRUE(read_until(other, "calls=", line, sizeof(line)) != NULL);
	ASSERT_EQ(probe_enrich_stop(*e), 0);
	ASSERT_EQ(probe_enrich_syscalls_watch(*e, other->pid), -EBUSY);
	ASSERT_EQ(probe_enrich_top_syscalls(*e, watched->pid, sc, 3, &n), 0);
	ASSERT_TRUE(n > 0);
	ASSERT_STREQ(sc[0].name, "getppid");
	ASSERT_UEQ(sc[0].count, GETPPID_CALLS);
	ASSERT_EQ(probe_enrich_top_syscalls(*e, other->pid, sc, 3, &n), 0);
	ASSERT_EQ(n, 0);
}

/*
 * The syscalls part on demand (what the report asks for): of two loops
 * making GETPPID_CALLS getppid calls each, the one watched is counted
 * exactly, the other not at all.
 */
TEST(syscalls_on_demand_count_the_watched_alone)
{
	struct child watched = { 0 }, other = { 0 };
	struct probe_enrich *e = NULL;

	on_demand_checks(unit_s_, &watched, &other, &e);
	probe_enrich_free(e);
	reap(&watched);
	reap(&other);
}

int main(int argc, char **argv)
{
	struct unit_state st = { 0 };
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int err;

	if (len <= 0)
		return 1;
	self[len] = '\0';
	snprintf(workloads, sizeof(workloads), "%s/../workloads", dirname(self));
	err = scene_start(&scene);
	if (err == -EPERM || err == -EACCES || err == -EOPNOTSUPP || err == -ENOPKG ||
	    err == -ENOENT) {
		scene_end(&scene);
		printf("skip: no BPF here: %s\n", strerror(-err));
		return 77;
	}
	if (err) {
		scene_end(&scene);
		fprintf(stderr, "setting up the scene: %s\n", strerror(-err));
		return 1;
	}
	RUN(&st, runq_matches_schedstat);
	RUN(&st, top_function_is_the_spin);
	RUN(&st, top_syscall_is_getppid);
	RUN(&st, vfork_parent_in_d);
	scene_end(&scene);
	RUN(&st, syscalls_on_demand_count_the_watched_alone);
	return st.failed ? 1 : 0;
}
