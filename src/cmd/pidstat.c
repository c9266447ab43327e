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
#include "pidstat/pidstat.h"
#include "util/json.h"

static volatile int stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

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

/* The stop signals: SIGINT (as sysstat), SIGTERM (as 12.7.8), SIGCHLD for -e. */
static void install_stop_handlers(sigset_t *sleep_mask)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, sleep_mask);
	sigdelset(sleep_mask, SIGINT);
	sigdelset(sleep_mask, SIGTERM);
	sigdelset(sleep_mask, SIGCHLD);
}

/* -e: sysstat forks while parsing; a failed exec is reported by the child. */
static pid_t start_program(char **argv)
{
	struct sigaction sa;
	sigset_t block;
	pid_t child;

	fflush(NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
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
	sigaction(SIGCHLD, &sa, NULL);
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
	struct procfs pf;
	struct host_facts host;
	struct pidstat_run run;
	struct json_writer jw;
	struct pidstat_clock clk;
	struct pidstat_realclock real;
	struct pidstat_fixclock fix;
	char *outbuf;
	bool handlers;
	struct timespec start_mono; /* start-up, on the sampling clock */
};

static void ensure_handlers(struct session *s)
{
	if (!s->handlers) {
		install_stop_handlers(&s->real.sleep_mask);
		s->handlers = true;
	}
}

static int open_root(struct session *s)
{
	int rc = procfs_open(&s->pf, s->opts.root);

	if (rc) {
		cmd_error("pidstat", "cannot open root '%s': %s", s->opts.root, strerror(-rc));
		return EXIT_USAGE;
	}
	if (host_facts_load(&s->host, &s->pf)) {
		cmd_error("pidstat", "bad fixture meta in '%s'", s->opts.root);
		return EXIT_USAGE;
	}
	if (s->host.fixture && pidstat_fixture_step(&s->pf, 1)) {
		cmd_error("pidstat", "fixture '%s' has no step1/proc", s->opts.root);
		return EXIT_USAGE;
	}
	return 0;
}

static void setup_clock(struct session *s)
{
	if (s->host.fixture) {
		s->fix.pf = &s->pf;
		s->fix.epoch = s->host.start_time;
		s->fix.step = 1;
		s->fix.stop = &stop_requested;
		pidstat_fixclock_init(&s->clk, &s->fix);
	} else {
		s->real.interval = s->opts.interval;
		s->real.stop = &stop_requested;
		pidstat_realclock_init(&s->clk, &s->real);
	}
}

/* Plain mode takes the stop signals once the first snapshot is in, as sysstat does. */
static void arm_real(struct pidstat_clock *c)
{
	struct session *s = (struct session *)((char *)c - offsetof(struct session, clk));

	ensure_handlers(s);
	/*
	 * The grid starts at start-up, not after the first snapshot (sysstat
	 * arms its alarm there): a slow first snapshot does not delay sample 1.
	 */
	s->real.deadline = s->start_mono;
	s->real.deadline.tv_sec += s->real.interval;
}

static void arm_fixture(struct pidstat_clock *c)
{
	ensure_handlers((struct session *)((char *)c - offsetof(struct session, clk)));
}

static bool getenv_is(const char *name, const char *value)
{
	const char *v = getenv(name);

	return v && !strcmp(v, value);
}

static int prepare_run(struct session *s)
{
	struct pidstat_env env = {
		.out = stdout,
		.out_tty = isatty(STDOUT_FILENO),
		.s_time_format = getenv("S_TIME_FORMAT"),
		.s_colors = getenv("S_COLORS"),
		.s_colors_sgr = getenv("S_COLORS_SGR"),
		.fd_budget = s->host.fixture ? 0 : cmd_fd_budget(),
		.taskstats = !getenv_is("TRIAGE_PIDSTAT_TASKSTATS", "0"),
		.json = &s->jw,
		.stop_flag = &stop_requested,
	};

	if (pidstat_run_init(&s->run, &s->opts, &s->pf, &s->host, &env))
		return pidstat_write_failure(stderr, PIDSTAT_E_NOMEM, ENOMEM);
	return 0;
}

static void release_session(struct session *s)
{
	pidstat_run_release(&s->run);
	procfs_close(&s->pf);
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
		pidstat_write_usage(stderr, argv[0]);
		pidstat_opts_release(&s->opts);
		*status = 1;
		return true;
	}
	if (s->opts.exec_argv) {
		pid_t child = start_program(s->opts.exec_argv);

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

static int run_session(struct session *s)
{
	struct pidstat_run *r = &s->run;
	time_t start;
	int rc;

	setup_clock(s);
	s->clk.arm = s->host.fixture ? arm_fixture : arm_real;
	if (s->opts.json) /* the document must be closed whatever stops us */
		ensure_handlers(s);
	r->rows = s->opts.dis_hdr ? 23 : terminal_rows();
	start = s->clk.now(&s->clk);
	clock_gettime(CLOCK_MONOTONIC, &s->start_mono);
	localtime_r(&start, &r->tstamp[0]);
	s->outbuf = malloc(1 << 18);
	if (s->outbuf)
		setvbuf(stdout, s->outbuf, _IOFBF, 1 << 18);
	pidstat_write_banner(r, pidstat_cpu_count(&s->pf, &s->host));
	rc = pidstat_loop(r, &s->clk);
	if (r->json)
		json_finish(r->json);
	fflush(stdout);
	return pidstat_write_failure(stderr, rc, r->err_errno);
}

int cmd_pidstat(int argc, char **argv)
{
	struct session s;
	int rc;

	memset(&s, 0, sizeof(s));
	s.pf.root_fd = s.pf.proc_fd = -1;
	s.run.ts.fd = -1;
	guard_closed_stdout();
	init_locale();
	if (parse_args(&s, argc, argv, &rc))
		return rc;
	if ((rc = open_root(&s)) || (rc = prepare_run(&s))) {
		release_session(&s);
		return rc;
	}
	rc = run_session(&s);
	release_session(&s);
	fflush(stdout);
	setvbuf(stdout, NULL, _IONBF, 0);
	free(s.outbuf);
	return rc;
}
