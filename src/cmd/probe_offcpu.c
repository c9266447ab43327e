/* triage probe offcpu: see src/probe/offcpu.c and docs/probe-offcpu.md. */
#include "probe/probe_cmds.h"
#include "probe/stackprobe.h"

int probe_offcpu_main(int argc, char **argv)
{
	return probe_cmd_stack_main(&offcpu_probe, argc, argv);
}
