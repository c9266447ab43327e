/*
 * triage doctor's findings as data: the report every check appends to.
 * A leaf unit, so the host checks (doctor.c) and the BPF checks
 * (doctor_bpf.c) both build on it without depending on each other.
 */
#ifndef TRIAGE_PROBE_DOCTOR_REPORT_H
#define TRIAGE_PROBE_DOCTOR_REPORT_H

#include <stdbool.h>
#include <stddef.h>

enum doc_status {
	DOC_OK,	     /* present and working */
	DOC_MISSING, /* absent or refused */
	DOC_WARN,    /* present, with a limitation worth knowing */
};

struct doc_check {
	const char *name; /* stable key, e.g. "btf", "tp_btf", "kprobe" */
	enum doc_status status;
	char detail[256];
	const char *fix; /* what the user can do; NULL when nothing is needed */
};

struct doc_probe {
	const char *name; /* "syscalls", "trace", "offcpu", "runq", "profile" */
	bool works;
	char detail[256]; /* what was tried, or what is missing */
};

#define DOC_MAX_CHECKS 32
#define DOC_MAX_PROBES 5

struct doc_report {
	char kernel[200]; /* 3 utsname fields of up to 64 bytes */
	bool bpf_built;	  /* triage was built with BPF support */
	struct doc_check checks[DOC_MAX_CHECKS];
	size_t nchecks;
	struct doc_probe probes[DOC_MAX_PROBES];
	size_t nprobes;
};

/* Appends a check (ignored when full); returns it for the detail text. */
struct doc_check *doctor_check_add(struct doc_report *r, const char *name, enum doc_status st,
				   const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
const struct doc_check *doctor_check_find(const struct doc_report *r, const char *name);

#endif
