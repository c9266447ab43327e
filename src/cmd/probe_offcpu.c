/* triage probe offcpu: placeholder until it lands. */
#include "cmd.h"
#include "common.h"
#include "probe/probe_cmds.h"

int probe_offcpu_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_error("probe", "offcpu: not built yet");
	return EXIT_RUNTIME;
}
