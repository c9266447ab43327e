/*
 * triage doctor: what this machine offers for tracing. Each check tries the
 * real thing where that is cheap (loads and attaches a tiny BPF program of
 * each type, loads and attaches the real skeleton of every probe, opens perf events)
 * and says, for anything missing, what the user can do.
 */
#ifndef TRIAGE_PROBE_DOCTOR_H
#define TRIAGE_PROBE_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "probe/doctor_report.h"
#include "util/json.h"

/* Runs every check. Never fails as a whole: failures are findings. */
void doctor_run(struct doc_report *r);

void doctor_print(FILE *out, const struct doc_report *r);
void doctor_json(struct json_writer *w, const struct doc_report *r);

#endif
