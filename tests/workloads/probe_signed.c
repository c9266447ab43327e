/*
 * Syscalls whose arguments are negative, for tests/probe/trace_signed.t.
 * Usage: probe_signed READYFILE FILE
 * Writes its pid to READYFILE, waits for SIGUSR1 (so strace and the probe
 * can attach first), then, as its own process group:
 *   wait4(-1, NULL, WNOHANG, NULL)  no children: ECHILD
 *   kill(-PID, 0)                   its own group: 0
 *   lseek(fd, -3, SEEK_END)         FILE's size less 3
 *   lseek(fd, -1, SEEK_SET)         EINVAL
 * and exits. Raw syscall() so libc cannot rewrite or skip a call.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	sigset_t set;
	int sig, fd;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: %s READYFILE FILE\n", argv[0]);
		return 2;
	}
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || setpgid(0, 0))
		return 1;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "%d\n", getpid());
	fclose(f);
	sigwait(&set, &sig);

	syscall(SYS_wait4, -1, NULL, WNOHANG, NULL);
	syscall(SYS_kill, -getpid(), 0);
	syscall(SYS_lseek, fd, -3L, SEEK_END);
	syscall(SYS_lseek, fd, -1L, SEEK_SET);
	syscall(SYS_exit_group, 0);
	return 0;
}
