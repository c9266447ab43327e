/*
 * The report's JSON, key by key: the one list the renderer writes from,
 * `triage report --json-schema` prints (a JSON Schema) and docs/report.md
 * and the tests check. Keys come in the order they are written.
 */
#ifndef TRIAGE_REPORT_SCHEMA_H
#define TRIAGE_REPORT_SCHEMA_H

#include <stdbool.h>

struct json_writer;

/* The objects of the document. */
enum rj_object {
	RJO_REPORT,
	RJO_HOST,
	RJO_KERNEL,
	RJO_WINDOW,
	RJO_FINDING,
	RJO_SUBJECT,
	RJO_EVIDENCE,
	RJO_CHECKED,
	RJO_SKIPPED,
	RJO_COUNT
};

enum rj_key {
	RJ_HOST,
	RJ_KERNEL,
	RJ_WINDOW,
	RJ_HEADLINE,
	RJ_FINDINGS,
	RJ_CHECKED,
	RJ_SKIPPED,
	RJ_HOSTNAME,
	RJ_CPUS,
	RJ_RELEASE,
	RJ_VERSION,
	RJ_START,
	RJ_END,
	RJ_SECONDS,
	RJ_KIND,
	RJ_SEVERITY,
	RJ_SUBJECT,
	RJ_SUMMARY,
	RJ_EVIDENCE,
	RJ_NEXT,
	RJ_DETAILS,
	RJ_PID,
	RJ_EXITED,
	RJ_TID,
	RJ_COMM,
	RJ_CGROUP,
	RJ_MOUNT,
	RJ_DEVICE,
	RJ_FSTYPE,
	RJ_INTERFACE,
	RJ_CPU,
	RJ_PIDS,
	RJ_HOGS,
	RJ_METRIC,
	RJ_VALUE,
	RJ_UNIT,
	RJ_RESOURCE,
	RJ_CHECKED_SUMMARY,
	RJ_FIGURES,
	RJ_WHAT,
	RJ_WHY,
	RJ_KEY_COUNT
};

/* The key's name as written. */
const char *report_json_key(enum rj_key k);

#endif
