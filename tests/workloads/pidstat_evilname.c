/*
 * pidstat_evilname: renames itself (comm) to a name with a terminal escape
 * and a newline, prints its PID, then sleeps, so tests can check that
 * pidstat escapes attacker-controlled names. Exits after 60 s.
 */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(void)
{
	/* 15 bytes: ESC [ 2 J, a newline, and a forged-looking tail */
	prctl(PR_SET_NAME, "x\033[2J\nAverage:", 0, 0, 0);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	sleep(60);
	return 0;
}
