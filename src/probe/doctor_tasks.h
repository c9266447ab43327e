/*
 * triage doctor and the task source (src/procfs/tasksrc.h): which door the
 * live machine gets and why, and a dump of every thread through given
 * doors, for the test that holds them to the same numbers.
 */
#ifndef TRIAGE_PROBE_DOCTOR_TASKS_H
#define TRIAGE_PROBE_DOCTOR_TASKS_H

#include <stdio.h>

#include "probe/doctor_report.h"

/* Adds the "task_source" check: the door an automatic choice takes here. */
void doctor_task_source_check(struct doc_report *r);
/* Which door the automatic choice takes for the common commands, at this thread count. */
void doctor_task_door_check(struct doc_report *r);

/*
 * Writes every thread through each door of doors (a comma-separated list
 * of "proc" and "bpf", e.g. "bpf,proc,bpf"), one scan after the other as
 * fast as they go: "# door NAME" then one line per thread. Returns 0,
 * -EINVAL for a bad list, or the error of a door that cannot be opened.
 */
int doctor_dump_tasks(FILE *out, const char *doors);

#endif
