/*
 * A workload with known syscall counts for the probe tests.
 * Usage: probe_calls READYFILE GETPPID OPENAT_OK OPENAT_ENOENT PATH
 * Writes its pid to READYFILE, waits for SIGUSR1 (so a probe can attach
 * first), then makes exactly GETPPID getppid() calls, OPENAT_OK openat()
 * of PATH (each closed again) and OPENAT_ENOENT openat() of PATH".missing",
 * and exits. Raw syscall() so libc caching cannot hide calls.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	sigset_t set;
	int sig;
	char missing[4096];

	if (argc != 6) {
		fprintf(stderr, "usage: %s READYFILE GETPPID OPENAT_OK OPENAT_ENOENT PATH\n",
			argv[0]);
		return 2;
	}
	long n_ppid = atol(argv[2]), n_ok = atol(argv[3]), n_missing = atol(argv[4]);
	snprintf(missing, sizeof(missing), "%s.missing", argv[5]);

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	FILE *f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "%d\n", getpid());
	fclose(f);
	sigwait(&set, &sig);

	for (long i = 0; i < n_ppid; i++)
		syscall(SYS_getppid);
	for (long i = 0; i < n_ok; i++) {
		int fd = syscall(SYS_openat, AT_FDCWD, argv[5], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return 1;
		syscall(SYS_close, fd);
	}
	for (long i = 0; i < n_missing; i++)
		syscall(SYS_openat, AT_FDCWD, missing, O_RDONLY);
	syscall(SYS_exit_group, 0);
	return 0;
}
