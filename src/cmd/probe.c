/* triage probe: placeholder until its issue lands; see the issue tracker. */
#include <stdio.h>

#include "cmd.h"
#include "common.h"

int cmd_probe(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_error("probe", "not built yet");
	return EXIT_RUNTIME;
}
