/* triage probe offcpu -p PID [-d S]: off-CPU time by kind and stack. */
#include "cmd.h"
#include "common.h"
#include "probe/offcpu.h"
#include "probe/probe_cmds.h"

int probe_offcpu_main(int argc, char **argv)
{
	struct sp_opts o;
	int rc = sp_parse_args("offcpu", argc, argv, SP_STACKS, &o);

	if (rc < 0)
		return cmd_finish_stdout(EXIT_OK);
	if (rc)
		return rc;
	return offcpu_probe_run(&o);
}
