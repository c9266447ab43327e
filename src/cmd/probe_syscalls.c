/* triage probe syscalls: placeholder until it lands. */
#include "cmd.h"
#include "common.h"
#include "probe/probe_cmds.h"

int probe_syscalls_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_error("probe", "syscalls: not built yet");
	return EXIT_RUNTIME;
}
