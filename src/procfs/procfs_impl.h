/*
 * What is behind the opaque struct procfs. Private to the files of src/procfs/
 * (scripts/check-layers.sh fails the build if anything else includes it).
 */
#ifndef TRIAGE_PROCFS_IMPL_H
#define TRIAGE_PROCFS_IMPL_H

#include "procfs/procfs.h"

struct procfs {
	int top_fd;  /* the chosen root directory */
	int root_fd; /* top_fd, or a fixture's top/stepN after procfs_step_root() */
	int proc_fd; /* <root>/proc or a fixture's top/stepN/proc; -1 if none */
};

#endif
