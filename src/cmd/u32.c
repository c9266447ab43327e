/* triage u32: placeholder until its issue lands; see the issue tracker. */
#include <stdio.h>

#include "cmd.h"
#include "common.h"

int cmd_u32(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_error("u32", "not built yet");
	return EXIT_RUNTIME;
}
