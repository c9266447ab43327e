/* triage probe profile -p PID [-F HZ] [-d S]: on-CPU sampling with stacks. */
#include "cmd.h"
#include "common.h"
#include "probe/offcpu.h"
#include "probe/probe_cmds.h"

int probe_profile_main(int argc, char **argv)
{
	struct sp_opts o;
	int rc = sp_parse_args("profile", argc, argv, SP_STACKS | SP_FREQ, &o);

	if (rc < 0)
		return cmd_finish_stdout(EXIT_OK);
	if (rc)
		return rc;
	return profile_probe_run(&o);
}
