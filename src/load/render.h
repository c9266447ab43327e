/*
 * Renderers of triage load's records: one plain and one JSON renderer per
 * record, fed the same structs, so exporters can reuse the numbers.
 */
#ifndef TRIAGE_LOAD_RENDER_H
#define TRIAGE_LOAD_RENDER_H

#include <stdio.h>

#include "load/snapshot.h"
#include "load/verdict.h"
#include "load/watch.h"
#include "util/json.h"

void load_render_snapshot_plain(FILE *out, const struct load_snapshot *s,
				const struct load_verdict *v);
void load_render_snapshot_json(struct json_writer *w, const struct load_snapshot *s,
			       const struct load_verdict *v);

/* One --watch interval: the report is built by watch_report(). */
void load_render_watch_plain(FILE *out, const struct watch_report *r, const struct load_verdict *v);
void load_render_watch_json(struct json_writer *w, const struct watch_report *r,
			    const struct load_verdict *v);

#endif
