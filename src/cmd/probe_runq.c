/* triage probe runq: placeholder until it lands. */
#include "cmd.h"
#include "common.h"
#include "probe/probe_cmds.h"

int probe_runq_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_error("probe", "runq: not built yet");
	return EXIT_RUNTIME;
}
