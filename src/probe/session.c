#include "probe/session.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#if TRIAGE_HAVE_BPF
#include <bpf/libbpf.h>
#endif

#include "common.h"
#include "procfs/parsers.h"
#include "procfs/procfs.h"
#include "runloop/clock.h"
#include "util/caps.h"
#include "util/json.h"
#include "util/parse.h"
#include "util/text.h"

int probe_parse_pid(const char *arg, int *pid)
{
	unsigned v;
	int err = parse_uint(arg, 1, 0x3fffffff, &v); /* PID_MAX_LIMIT is 2^22 */

	if (err)
		return err;
	*pid = (int)v;
	return 0;
}

int probe_parse_comm(const char *arg, char comm[PROBE_COMM_LEN])
{
	size_t n = arg ? strlen(arg) : 0;

	if (n == 0)
		return -EINVAL;
	if (n >= PROBE_COMM_LEN)
		return -ENAMETOOLONG;
	memcpy(comm, arg, n + 1);
	return 0;
}

int probe_parse_duration(const char *arg, double *seconds)
{
	int err = parse_duration(arg, seconds);

	return err == -ERANGE ? -EINVAL : err;
}

int probe_parse_interval(int argc, char **argv, int first, double *interval, unsigned *count)
{
	*interval = 0;
	*count = 0;
	if (first >= argc)
		return 0;
	if (parse_duration(argv[first], interval))
		return -EINVAL;
	if (first + 1 < argc && parse_uint(argv[first + 1], 1, UINT32_MAX, count))
		return -EINVAL;
	if (first + 2 < argc)
		return -E2BIG;
	return 0;
}

int probe_target_check(const struct probe_target *t)
{
	bool by_pid = t->pid > 0, by_comm = t->comm[0] != '\0';

	return by_pid && by_comm ? -EINVAL : 0;
}

int probe_process_tgid(int pid, int *tgid)
{
	struct procfs *pf;
	struct pid_status st;
	char rel[32], buf[4096];
	ssize_t n;
	int err;

	*tgid = pid;
	if (pid <= 0)
		return 0;
	err = procfs_open(&pf, NULL);
	if (err)
		return err;
	snprintf(rel, sizeof(rel), "%d/status", pid);
	n = procfs_read(pf, rel, buf, sizeof(buf));
	procfs_close(pf);
	if (n <= 0)
		return n < 0 ? (int)n : -ESRCH;
	err = procfs_pid_status_parse(buf, (size_t)n, &st);
	if (!err && st.tgid > 0)
		*tgid = st.tgid;
	return err;
}

int probe_read_comm(int pid, char *buf, size_t size)
{
	struct procfs *pf;
	char rel[32];
	ssize_t n;
	int err;

	if (size)
		buf[0] = '\0';
	err = procfs_open(&pf, NULL);
	if (err)
		return err;
	snprintf(rel, sizeof(rel), "%d/comm", pid);
	n = size > 1 ? procfs_read(pf, rel, buf, size) : -EINVAL;
	procfs_close(pf);
	if (n <= 0) {
		if (size)
			buf[0] = '\0';
		return n < 0 ? (int)n : -ESRCH;
	}
	if (buf[n - 1] == '\n') /* the file's own newline; a name may hold others */
		buf[n - 1] = '\0';
	return 0;
}

void probe_target_json(struct json_writer *w, const struct probe_target *t, const char *pid_comm)
{
	const char *comm = t->pid > 0 ? pid_comm : t->comm;

	json_key(w, "target");
	json_object_begin(w);
	json_key(w, "pid");
	if (t->pid > 0)
		json_int(w, t->pid);
	else
		json_null(w);
	json_key(w, "comm");
	if (comm && comm[0])
		json_string(w, comm);
	else
		json_null(w);
	json_kv_bool(w, "all", probe_target_all(t));
	json_end(w);
}

int probe_check_privileges(void)
{
	struct caps c;
	int err = caps_read(&c);

	if (err)
		return err;
	return caps_can_trace(&c) ? 0 : -EPERM;
}

int probe_check_btf(void)
{
	return access("/sys/kernel/btf/vmlinux", R_OK) ? -errno : 0;
}

int probe_err_status(int err)
{
	switch (err < 0 ? -err : err) {
	case EPERM:
	case EACCES:
	case ENOENT:
	case ENOSYS:
	case EOPNOTSUPP:
	case ESRCH:
	case ENOPKG:
		return EXIT_NOSUPPORT;
	default:
		return EXIT_RUNTIME;
	}
}

const char *probe_err_hint(int err)
{
	switch (err < 0 ? -err : err) {
	case EPERM:
	case EACCES:
		return "loading BPF programs needs root, or CAP_BPF and CAP_PERFMON "
		       "(see 'triage doctor')";
	case ENOENT:
	case ESRCH:
		return "the kernel lacks a tracepoint, BTF type or feature this probe uses "
		       "(needs CONFIG_DEBUG_INFO_BTF and BPF tracing; see 'triage doctor')";
	case ENOSYS:
	case EOPNOTSUPP:
		return "this kernel does not support BPF (CONFIG_BPF_SYSCALL) or this program "
		       "type; see 'triage doctor'";
	case ENOPKG:
		return "this triage was built without BPF support (clang, llvm, bpftool or "
		       "libbpf-dev were missing at build time); install them and rebuild";
	default:
		return NULL;
	}
}

int probe_report_failure(FILE *stream, const char *probe, const char *what, int err)
{
	const char *hint = probe_err_hint(err);

	if (err == -ENOPKG) {
		fprintf(stream, "triage probe %s: unavailable: %s\n", probe, hint);
		return probe_err_status(err);
	}
	fprintf(stream, "triage probe %s: %s: %s\n", probe, what, strerror(err < 0 ? -err : err));
	if (hint)
		fprintf(stream, "triage probe %s: %s\n", probe, hint);
	return probe_err_status(err);
}

#if TRIAGE_HAVE_BPF
int probe_check_kernel(unsigned needs, const char **missing)
{
	static const struct {
		unsigned need;
		enum bpf_map_type map; /* 0: the program type below */
		enum bpf_prog_type prog;
		const char *what;
	} features[] = {
		{ PROBE_NEED_TASK_STORAGE, BPF_MAP_TYPE_TASK_STORAGE, 0,
		  "BPF task storage maps (Linux 5.11 or later)" },
		{ PROBE_NEED_RINGBUF, BPF_MAP_TYPE_RINGBUF, 0,
		  "BPF ring buffers (Linux 5.8 or later)" },
		{ PROBE_NEED_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_ARRAY, 0, "BPF per-CPU arrays" },
		{ PROBE_NEED_STACK_TRACE, BPF_MAP_TYPE_STACK_TRACE, 0, "BPF stack-trace maps" },
		{ PROBE_NEED_PERF_EVENT, 0, BPF_PROG_TYPE_PERF_EVENT, "BPF perf_event programs" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(features); i++) {
		int ok;

		if (!(needs & features[i].need))
			continue;
		ok = features[i].map ? libbpf_probe_bpf_map_type(features[i].map, NULL)
				     : libbpf_probe_bpf_prog_type(features[i].prog, NULL);
		if (ok == 1)
			continue;
		*missing = features[i].what;
		return ok < 0 ? ok : -EOPNOTSUPP;
	}
	return 0;
}

static int libbpf_print_warnings(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int libbpf_print_nothing(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

void probe_libbpf_quiet(bool verbose)
{
	libbpf_set_print(verbose ? libbpf_print_warnings : libbpf_print_nothing);
}
#else
void probe_libbpf_quiet(bool verbose)
{
}

int probe_check_kernel(unsigned needs, const char **missing)
{
	*missing = "BPF support in this triage build";
	return -ENOPKG;
}
#endif

int probe_skel_start(const struct probe_skel_ops *ops, const void *cfg, void **skel,
		     const char **stage)
{
	int err;

	*skel = NULL;
	*stage = "opening the BPF object";
	errno = 0;
	*skel = ops->open();
	if (!*skel) {
		err = errno ? -errno : -EINVAL;
		goto fail;
	}
	*stage = "configuring the BPF object";
	err = ops->configure ? ops->configure(*skel, cfg) : 0;
	if (err)
		goto fail;
	*stage = "loading the BPF programs";
	err = ops->load(*skel);
	if (err)
		goto fail;
	*stage = "attaching the BPF programs";
	err = ops->attach(*skel);
	if (err)
		goto fail;
	return 0;
fail:
	probe_skel_stop(ops, skel);
	return err < 0 ? err : -err;
}

int probe_start(const struct probe_skel_ops *ops, unsigned needs, const void *cfg, void **skel,
		const char **stage)
{
	int err;

	*skel = NULL;
	*stage = "checking privileges";
	err = probe_check_privileges();
	if (err)
		return err;
	*stage = "looking for kernel BTF";
	err = probe_check_btf();
	if (err)
		return err;
	err = probe_check_kernel(needs, stage);
	if (err)
		return err;
	return probe_skel_start(ops, cfg, skel, stage);
}

void probe_skel_detach(const struct probe_skel_ops *ops, void *skel)
{
	if (skel && ops->detach)
		ops->detach(skel);
}

void probe_skel_stop(const struct probe_skel_ops *ops, void **skel)
{
	if (*skel)
		ops->destroy(*skel);
	*skel = NULL;
}

static int open_pidfd(int pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -errno : fd;
}

static int arm_interval(int fd, int64_t ns)
{
	struct itimerspec its = { 0 };

	if (ns < 1000000)
		ns = 1000000;
	its.it_value.tv_sec = ns / 1000000000;
	its.it_value.tv_nsec = ns % 1000000000;
	its.it_interval = its.it_value;
	return timerfd_settime(fd, 0, &its, NULL) ? -errno : 0;
}

/* Blocked from here on, so a Ctrl-C during load still reaches the cleanup path. */
static int block_stop_signals(struct probe_loop *l)
{
	int fd;

	runloop_stop_init(&l->stop);
	fd = runloop_stop_fd(&l->stop);
	if (fd < 0) {
		runloop_stop_disarm(&l->stop);
		return fd;
	}
	l->sigfd = fd;
	return 0;
}

int probe_loop_init(struct probe_loop *l, const struct probe_opts *opts)
{
	int err;

	*l = (struct probe_loop){ .sigfd = -1, .pidfd = -1, .timerfd = -1 };
	l->duration_ns = (int64_t)(opts->duration_s * 1e9);
	l->interval_ns = (int64_t)(opts->interval_s * 1e9);
	l->max_ticks = opts->count;
	err = block_stop_signals(l);
	if (err)
		return err;
	if (opts->target.pid > 0) {
		l->pidfd = open_pidfd(opts->target.pid);
		err = l->pidfd < 0 ? l->pidfd : 0;
	}
	if (!err && l->interval_ns > 0) {
		l->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
		err = l->timerfd < 0 ? -errno : 0;
	}
	if (err) {
		l->pidfd = l->pidfd < 0 ? -1 : l->pidfd;
		l->timerfd = l->timerfd < 0 ? -1 : l->timerfd;
		probe_loop_release(l);
	}
	return err;
}

int64_t probe_loop_start(struct probe_loop *l)
{
	int64_t now = runloop_mono_ns();

	if (l->timerfd >= 0) {
		int err = arm_interval(l->timerfd, l->interval_ns);

		if (err)
			return err;
	}
	if (l->duration_ns > 0)
		l->deadline_ns = now + l->duration_ns;
	return now;
}

static int poll_timeout_ms(const struct probe_loop *l)
{
	int64_t left;

	if (!l->deadline_ns)
		return -1;
	left = l->deadline_ns - runloop_mono_ns();
	if (left <= 0)
		return 0;
	return (int)((left + 999999) / 1000000);
}

static int take_signal(struct probe_loop *l)
{
	return runloop_stop_drain(&l->stop) ? PROBE_EV_SIGNAL : 0;
}

static int take_tick(struct probe_loop *l)
{
	uint64_t n;

	if (read(l->timerfd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		return 0;
	l->ticks++;
	return l->max_ticks && l->ticks >= l->max_ticks ? PROBE_EV_LAST_TICK : PROBE_EV_TICK;
}

/* Order matters: a stop request wins over data, data over ticks. */
static int first_event(struct probe_loop *l, const struct pollfd *p)
{
	int ev;

	if ((p[0].revents & POLLIN) && (ev = take_signal(l)))
		return ev;
	if (p[1].revents & (POLLIN | POLLHUP)) {
		close(l->pidfd);
		l->pidfd = -1;
		return PROBE_EV_TARGET_EXIT;
	}
	if (p[3].revents & (POLLIN | POLLERR))
		return PROBE_EV_INPUT;
	if ((p[2].revents & POLLIN) && (ev = take_tick(l)))
		return ev;
	return 0;
}

int probe_loop_wait(struct probe_loop *l, int input_fd)
{
	for (;;) {
		struct pollfd p[4] = {
			{ .fd = l->sigfd, .events = POLLIN },
			{ .fd = l->pidfd, .events = POLLIN },
			{ .fd = l->timerfd, .events = POLLIN },
			{ .fd = input_fd, .events = POLLIN },
		};
		int timeout = poll_timeout_ms(l), n, ev;

		if (timeout == 0)
			return PROBE_EV_DEADLINE;
		n = poll(p, ARRAY_SIZE(p), timeout);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			continue;
		ev = first_event(l, p);
		if (ev)
			return ev;
	}
}

void probe_loop_release(struct probe_loop *l)
{
	if (l->sigfd >= 0) {
		/* A second Ctrl-C while we were cleaning up must not kill us at unblock. */
		runloop_stop_drain(&l->stop);
		runloop_stop_disarm(&l->stop);
	}
	if (l->pidfd >= 0)
		close(l->pidfd);
	if (l->timerfd >= 0)
		close(l->timerfd);
	l->sigfd = l->pidfd = l->timerfd = -1;
}

void probe_target_describe(const struct probe_target *t, char *buf, size_t len)
{
	char safe[4 * PROBE_COMM_LEN + 8];

	if (t->pid > 0) {
		snprintf(buf, len, "pid %d", t->pid);
		return;
	}
	if (probe_target_all(t)) {
		snprintf(buf, len, "all processes");
		return;
	}
	text_sanitize(safe, sizeof(safe), t->comm);
	snprintf(buf, len, "comm '%s'", safe);
}
