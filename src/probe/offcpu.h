/* triage probe offcpu / runq / profile: the runners behind the command shells. */
#ifndef TRIAGE_PROBE_OFFCPU_H
#define TRIAGE_PROBE_OFFCPU_H

#include "probe/stackprobe.h"

/* Each returns the exit status, having written the report to stdout. */
int offcpu_probe_run(const struct sp_opts *o);
int runq_probe_run(const struct sp_opts *o);
int profile_probe_run(const struct sp_opts *o);

#endif
