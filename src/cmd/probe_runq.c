/* triage probe runq -p PID [-d S]: run-queue latency per thread. */
#include "cmd.h"
#include "common.h"
#include "probe/offcpu.h"
#include "probe/probe_cmds.h"

int probe_runq_main(int argc, char **argv)
{
	struct sp_opts o;
	int rc = sp_parse_args("runq", argc, argv, SP_PER_THREAD, &o);

	if (rc < 0)
		return cmd_finish_stdout(EXIT_OK);
	if (rc)
		return rc;
	return runq_probe_run(&o);
}
