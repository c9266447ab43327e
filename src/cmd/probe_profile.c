/* triage probe profile: see src/probe/profile.c and docs/probe-profile.md. */
#include "probe/probe_cmds.h"
#include "probe/stackprobe.h"

int probe_profile_main(int argc, char **argv)
{
	return probe_cmd_stack_main(&profile_probe, argc, argv);
}
