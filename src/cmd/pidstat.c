/*
 * triage pidstat (also reached as "pidstat"): sysstat 12.6.1's pidstat,
 * byte for byte, plus -o JSON, --whole and --root. This shell does what
 * needs the process: locale, signals, fork/exec for -e, the terminal, the
 * fd limit and stdout's buffer. The work, sysstat's texts included, is in
 * src/pidstat.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd.h"
#include "common.h"
#include "help/pidstat.h"
#include "pidstat/pidstat.h"
#include "runloop/clock.h"
#include "runloop/fdlimit.h"
#include "util/json.h"

static int print_version(void)
{
	pidstat_write_version(stdout);
	return cmd_finish_stdout(0);
}

/*
 * With stdout closed, our own fds would land on 1. Put a read-only
 * /dev/null there: writes then fail with EBADF exactly as on a closed fd.
 */
static void guard_closed_stdout(void)
{
	if (fcntl(STDOUT_FILENO, F_GETFD) >= 0 || errno != EBADF)
		return;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && fd != STDOUT_FILENO) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
}

static void init_locale(void)
{
	setlocale(LC_MESSAGES, "");
	setlocale(LC_CTYPE, "");
	setlocale(LC_TIME, "");
	setlocale(LC_NUMERIC, "");
	pidstat_bind_messages();
}

/*
 * -e: sysstat forks while parsing; a failed exec is reported by the child.
 * SIGCHLD is blocked from here on: the child's end stops the loop.
 */
static pid_t start_program(char **argv, struct runloop_stop *stop)
{
	sigset_t block;
	pid_t child;

	fflush(NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	child = fork();
	if (child < 0) {
		perror("fork");
		exit(4);
	}
	if (child == 0) {
		sigprocmask(SIG_UNBLOCK, &block, NULL);
		execvp(argv[0], argv);
		perror("exec");
		_exit(4);
	}
	runloop_stop_add(stop, SIGCHLD);
	return child;
}

static int terminal_rows(void)
{
	struct winsize w;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) != -1 && w.ws_row > 2)
		return w.ws_row - 2;
	return 3600 * 24;
}

struct session {
	struct pidstat_opts opts;
	struct procfs *pf;
	struct host_facts host;
	struct pidstat_run run;
	struct json_writer jw;
	struct runloop_stop stop; /* SIGINT (as sysstat), SIGTERM (as 12.7.8), SIGCHLD for -e */
	struct runloop_clock clk;
	char *outbuf;
	pid_t missing; /* a -p PID with no process at the start (said at the end) */
};

static int open_root(struct session *s)
{
	int rc = procfs_open(&s->pf, s->opts.root);

	if (rc) {
		cmd_error("pidstat", "cannot open root '%s': %s", s->opts.root, strerror(-rc));
		return EXIT_USAGE;
	}
	if (procfs_host_facts_load(&s->host, s->pf)) {
		cmd_error("pidstat", "bad fixture meta in '%s'", s->opts.root);
		return EXIT_USAGE;
	}
	if (s->host.fixture && procfs_step(s->pf, 1)) {
		cmd_error("pidstat", "fixture '%s' has no step1/proc", s->opts.root);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * The grid starts at start-up, not after the first snapshot (sysstat arms
 * its alarm there): a slow first snapshot does not delay sample 1. Plain
 * mode takes the stop signals once the first snapshot is in, as sysstat.
 */
static void setup_clock(struct session *s)
{
	if (s->host.fixture)
		runloop_clock_fixture(&s->clk, &s->stop, s->pf, RUNLOOP_STEP_PROC, 1,
				      s->host.start_time);
	else
		runloop_clock_real(&s->clk, &s->stop,
				   &(struct timespec){ .tv_sec = s->opts.interval });
}

static bool getenv_is(const char *name, const char *value)
{
	const char *v = getenv(name);

	return v && !strcmp(v, value);
}

/*
 * A few listed processes keep at most 4 files each open: the soft limit
 * already allows that, so the limit is raised only for more.
 */
static long fd_budget(const struct pidstat_opts *o)
{
	bool few = o->pid_given && !o->all_pids && !o->threads && o->npids <= 16;

	return few ? cmd_fd_budget_for(4 * (long)o->npids + 1) : cmd_fd_budget();
}

static int prepare_run(struct session *s)
{
	struct pidstat_env env = {
		.out = stdout,
		.out_tty = isatty(STDOUT_FILENO),
		.s_time_format = getenv("S_TIME_FORMAT"),
		.s_colors = getenv("S_COLORS"),
		.s_colors_sgr = getenv("S_COLORS_SGR"),
		.fd_budget = s->host.fixture ? 0 : fd_budget(&s->opts),
		.taskstats = !getenv_is("TRIAGE_PIDSTAT_TASKSTATS", "0"),
		.json = &s->jw,
		.scans = pidstat_opts_scans(&s->opts),
	};

	int err;

	if (cmd_task_door("pidstat", &env.door))
		return EXIT_NOSUPPORT;
	err = pidstat_run_init(&s->run, &s->opts, s->pf, &s->host, &env);
	if (err == -ENOMEM)
		return pidstat_write_failure(stderr, PIDSTAT_E_NOMEM, ENOMEM);
	if (err) { /* only when TRIAGE_TASK_SOURCE=bpf cannot be had */
		cmd_error("pidstat", "task source bpf: %s", strerror(-err));
		return EXIT_NOSUPPORT;
	}
	if (getenv_is("TRIAGE_VERBOSE", "1") && s->run.tasks)
		cmd_say_door("pidstat", s->run.tasks);
	return 0;
}

static void release_session(struct session *s)
{
	pidstat_run_release(&s->run);
	procfs_close(s->pf);
	pidstat_opts_release(&s->opts);
}

/* Returns true when the run ends here, with *status to exit with. */
static bool parse_args(struct session *s, int argc, char **argv, int *status)
{
	int rc = pidstat_opts_parse(&s->opts, argc, argv, getpid());

	*status = 0;
	if (rc == PIDSTAT_PARSE_VERSION) {
		pidstat_opts_release(&s->opts);
		*status = print_version();
		return true;
	}
	if (rc) {
		/* sysstat's bytes and status, then what triage found wrong */
		pidstat_write_usage(stderr, argv[0]);
		if (s->opts.why)
			cmd_error("pidstat", "%s: '%s'", s->opts.why, s->opts.bad);
		cmd_see_help("pidstat");
		pidstat_opts_release(&s->opts);
		*status = 1;
		return true;
	}
	if (s->opts.exec_argv) {
		pid_t child = start_program(s->opts.exec_argv, &s->stop);

		if (pidstat_opts_add_pid(&s->opts, child)) {
			pidstat_opts_release(&s->opts);
			*status = pidstat_write_failure(stderr, PIDSTAT_E_NOMEM, ENOMEM);
			return true;
		}
	}
	if (pidstat_opts_finish(&s->opts)) {
		pidstat_write_no_activity(stderr);
		pidstat_opts_release(&s->opts);
		*status = 1;
		return true;
	}
	return false;
}

/*
 * One write per sample: room for every process's (or thread's) rows, or
 * for a few listed tasks a buffer malloc takes from the heap rather than
 * mapping (and unmapping) a region of its own.
 */
static size_t stdout_buffer_size(const struct pidstat_opts *o)
{
	bool few = o->pid_given && !o->all_pids && !o->threads && o->npids <= 16;

	return few ? 1 << 14 : 1 << 18;
}

static int run_session(struct session *s)
{
	struct pidstat_run *r = &s->run;
	time_t start;
	int rc;

	setup_clock(s);
	if (s->opts.json) /* the document must be closed whatever stops us */
		runloop_stop_arm(&s->stop);
	r->rows = s->opts.dis_hdr ? 23 : terminal_rows();
	start = runloop_clock_now(&s->clk);
	localtime_r(&start, &r->tstamp[0]);
	s->outbuf = malloc(stdout_buffer_size(&s->opts));
	if (s->outbuf)
		setvbuf(stdout, s->outbuf, _IOFBF, stdout_buffer_size(&s->opts));
	pidstat_write_banner(r, pidstat_cpu_count(s->pf, &s->host));
	rc = pidstat_loop(r, &s->clk);
	if (r->json)
		json_finish(r->json);
	fflush(stdout);
	return pidstat_write_failure(stderr, rc, r->err_errno);
}

/* The first -p PID without a process now, or 0 (-p ALL and SELF always have one). */
static pid_t first_missing(const struct session *s)
{
	for (size_t i = 0; i < s->opts.npids; i++) {
		char path[24];
		int fd;

		snprintf(path, sizeof(path), "%d", (int)s->opts.pids[i]);
		fd = procfs_openat(s->pf, path, O_RDONLY | O_DIRECTORY);
		if (fd == -ENOENT)
			return s->opts.pids[i];
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

/* --help: triage's own page (sysstat's pidstat has none). Not before -e's program. */
static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "-e"); i++)
		if (!strcmp(argv[i], "--help"))
			return true;
	return false;
}

static int run_pidstat(int argc, char **argv);

int cmd_pidstat(int argc, char **argv)
{
	if (wants_help(argc, argv)) {
		fputs(triage_help_pidstat, stdout);
		return cmd_finish_stdout(EXIT_OK);
	}
	return run_pidstat(argc, argv);
}

/* Reached as "pidstat": sysstat's pidstat, whose --help is a usage error. */
int cmd_pidstat_link(int argc, char **argv)
{
	return run_pidstat(argc, argv);
}

static int run_pidstat(int argc, char **argv)
{
	struct session s;
	int rc;

	memset(&s, 0, sizeof(s));
	s.run.ts.fd = -1;
	runloop_stop_init(&s.stop);
	guard_closed_stdout();
	init_locale();
	if (parse_args(&s, argc, argv, &rc))
		return rc;
	if ((rc = open_root(&s)) || (rc = prepare_run(&s))) {
		release_session(&s);
		return rc;
	}
	s.missing = s.opts.exec_argv ? 0 : first_missing(&s);
	rc = run_session(&s);
	if (s.missing) /* sysstat prints an empty table and says nothing */
		fprintf(stderr, "triage pidstat: no such process: '%d'\n", (int)s.missing);
	release_session(&s);
	fflush(stdout);
	setvbuf(stdout, NULL, _IONBF, 0);
	free(s.outbuf);
	return rc;
}
