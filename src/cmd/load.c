/* triage load: placeholder until its issue lands; see the issue tracker. */
#include <stdio.h>

#include "cmd.h"
#include "common.h"

int cmd_load(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_error("load", "not built yet");
	return EXIT_RUNTIME;
}
