/* triage doctor, the BPF part: program types, maps, skeletons, perf events. */
#ifndef TRIAGE_PROBE_DOCTOR_BPF_H
#define TRIAGE_PROBE_DOCTOR_BPF_H

#include "probe/doctor_report.h"

/* Append their checks to r; without BPF support they say so. */
void doctor_bpf_checks(struct doc_report *r);
void doctor_bpf_probes(struct doc_report *r);

#endif
