/* triage probe runq: see src/probe/runq.c and docs/probe-runq.md. */
#include "probe/probe_cmds.h"
#include "probe/stackprobe.h"

int probe_runq_main(int argc, char **argv)
{
	return probe_cmd_stack_main(&runq_probe, argc, argv);
}
