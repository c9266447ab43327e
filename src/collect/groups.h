/*
 * Process groups: per-process counters folded into groups (by comm, by
 * cgroup or one per PID) whose counters never go down. A group's counter
 * is what its processes used while we watched plus, for each process, its
 * total at the moment we first saw it; a process that exits keeps its
 * share. Pure: processes in, metrics out.
 */
#ifndef TRIAGE_COLLECT_GROUPS_H
#define TRIAGE_COLLECT_GROUPS_H

#include "collect/model.h"
#include "collect/sources.h"
#include "procfs/procfs.h"

enum group_by { GROUP_COMM, GROUP_CGROUP, GROUP_PID };

/* The most groups kept; past it, groups with no process left are forgotten. */
#define GROUPS_KEEP 4096

struct group_table;

int group_table_new(struct group_table **out, enum group_by by, const struct procfs *pf, double hz);
void group_table_free(struct group_table *gt);
/* Before a sample's rows: resets the gauges. */
void group_table_begin(struct group_table *gt);
/* One process of the sample (rows in ascending pid order); a proc_row_fn. */
int group_table_add(void *gt, const struct proc_row *r);
/* After the rows: the top groups by CPU seconds into m. */
int group_table_metrics(struct group_table *gt, unsigned top, struct metric_set *m);

#endif
