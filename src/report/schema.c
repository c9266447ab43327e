/* The report's JSON keys, once (see schema.h). */
#include "report/schema.h"

#include "report/kinds.h"
#include "report/report.h"
#include "util/json.h"
#include "util/inplace.h"

enum rj_type {
	RJT_STRING,
	RJT_STRING_OR_NULL,
	RJT_INTEGER,
	RJT_NUMBER,
	RJT_BOOLEAN,
	RJT_OBJECT,   /* of .child */
	RJT_OBJECTS,  /* an array of .child */
	RJT_INTEGERS, /* an array of integers */
	RJT_STRINGS,  /* an array of strings */
};

/* Values a string key may take, from the tables that define them. */
enum rj_values { RJV_ANY, RJV_KIND, RJV_SEVERITY, RJV_RESOURCE };

/* The name in place, not a pointer: no relocation to write at every start (issue 24). */
struct rj_row {
	enum rj_object in;
	char name[16];
	enum rj_type type;
	enum rj_object child;
	bool required;
	enum rj_values values;
};

#define KEY(k, obj, n, t, req) [k] = { obj, n, t, RJO_COUNT, req, RJV_ANY }
#define SUB(k, obj, n, t, ch, req) [k] = { obj, n, t, ch, req, RJV_ANY }
#define ENUM(k, obj, n, vals) [k] = { obj, n, RJT_STRING, RJO_COUNT, true, vals }

/* A name that would lose its NUL in its field is an error. */
STRINGS_IN_PLACE
static const struct rj_row rows[RJ_KEY_COUNT] = {
	SUB(RJ_HOST, RJO_REPORT, "host", RJT_OBJECT, RJO_HOST, true),
	SUB(RJ_KERNEL, RJO_REPORT, "kernel", RJT_OBJECT, RJO_KERNEL, true),
	SUB(RJ_WINDOW, RJO_REPORT, "window", RJT_OBJECT, RJO_WINDOW, true),
	KEY(RJ_HEADLINE, RJO_REPORT, "headline", RJT_STRING, true),
	SUB(RJ_FINDINGS, RJO_REPORT, "findings", RJT_OBJECTS, RJO_FINDING, true),
	SUB(RJ_CHECKED, RJO_REPORT, "checked", RJT_OBJECTS, RJO_CHECKED, true),
	SUB(RJ_SKIPPED, RJO_REPORT, "skipped", RJT_OBJECTS, RJO_SKIPPED, true),
	KEY(RJ_HOSTNAME, RJO_HOST, "hostname", RJT_STRING, true),
	KEY(RJ_CPUS, RJO_HOST, "cpus", RJT_INTEGER, true),
	KEY(RJ_RELEASE, RJO_KERNEL, "release", RJT_STRING, true),
	KEY(RJ_VERSION, RJO_KERNEL, "version", RJT_STRING, false),
	KEY(RJ_START, RJO_WINDOW, "start", RJT_STRING, true),
	KEY(RJ_END, RJO_WINDOW, "end", RJT_STRING, true),
	KEY(RJ_SECONDS, RJO_WINDOW, "seconds", RJT_NUMBER, true),
	ENUM(RJ_KIND, RJO_FINDING, "kind", RJV_KIND),
	ENUM(RJ_SEVERITY, RJO_FINDING, "severity", RJV_SEVERITY),
	SUB(RJ_SUBJECT, RJO_FINDING, "subject", RJT_OBJECT, RJO_SUBJECT, true),
	KEY(RJ_SUMMARY, RJO_FINDING, "summary", RJT_STRING, true),
	SUB(RJ_EVIDENCE, RJO_FINDING, "evidence", RJT_OBJECTS, RJO_EVIDENCE, true),
	KEY(RJ_NEXT, RJO_FINDING, "next", RJT_STRING_OR_NULL, true),
	KEY(RJ_DETAILS, RJO_FINDING, "details", RJT_STRINGS, false),
	KEY(RJ_PID, RJO_SUBJECT, "pid", RJT_INTEGER, false),
	KEY(RJ_EXITED, RJO_SUBJECT, "exited", RJT_BOOLEAN, false),
	KEY(RJ_TID, RJO_SUBJECT, "tid", RJT_INTEGER, false),
	KEY(RJ_COMM, RJO_SUBJECT, "comm", RJT_STRING, false),
	KEY(RJ_CGROUP, RJO_SUBJECT, "cgroup", RJT_STRING, false),
	KEY(RJ_MOUNT, RJO_SUBJECT, "mount", RJT_STRING, false),
	KEY(RJ_DEVICE, RJO_SUBJECT, "device", RJT_STRING, false),
	KEY(RJ_FSTYPE, RJO_SUBJECT, "fstype", RJT_STRING, false),
	KEY(RJ_INTERFACE, RJO_SUBJECT, "interface", RJT_STRING, false),
	KEY(RJ_CPU, RJO_SUBJECT, "cpu", RJT_INTEGER, false),
	KEY(RJ_PIDS, RJO_SUBJECT, "pids", RJT_INTEGERS, false),
	KEY(RJ_HOGS, RJO_SUBJECT, "hogs", RJT_INTEGERS, false),
	KEY(RJ_METRIC, RJO_EVIDENCE, "metric", RJT_STRING, true),
	KEY(RJ_VALUE, RJO_EVIDENCE, "value", RJT_NUMBER, true),
	KEY(RJ_UNIT, RJO_EVIDENCE, "unit", RJT_STRING, true),
	ENUM(RJ_RESOURCE, RJO_CHECKED, "resource", RJV_RESOURCE),
	KEY(RJ_CHECKED_SUMMARY, RJO_CHECKED, "summary", RJT_STRING, true),
	SUB(RJ_FIGURES, RJO_CHECKED, "figures", RJT_OBJECTS, RJO_EVIDENCE, true),
	KEY(RJ_WHAT, RJO_SKIPPED, "what", RJT_STRING, true),
	KEY(RJ_WHY, RJO_SKIPPED, "why", RJT_STRING, true),
};
STRINGS_IN_PLACE_END

const char *report_json_key(enum rj_key k)
{
	return (unsigned)k < RJ_KEY_COUNT ? rows[k].name : "?";
}

static void schema_values(struct json_writer *w, enum rj_values v)
{
	json_key(w, "enum");
	json_array_begin(w);
	if (v == RJV_KIND)
		for (int k = 0; k < RK_COUNT; k++)
			json_string(w, report_kind_name((enum report_kind)k));
	if (v == RJV_SEVERITY)
		for (int s = SEV_CRITICAL; s <= SEV_INFO; s++)
			json_string(w, report_sev_name((enum report_sev)s));
	if (v == RJV_RESOURCE)
		for (int r = 0; r < RES_COUNT; r++)
			json_string(w, report_resource_name((enum report_resource)r));
	json_end(w);
}

static void schema_object(struct json_writer *w, enum rj_object o);

static void schema_type(struct json_writer *w, const char *type)
{
	json_kv_string(w, "type", type);
}

static void schema_key(struct json_writer *w, const struct rj_row *r)
{
	static const char simple[][8] = {
		[RJT_STRING] = "string",
		[RJT_INTEGER] = "integer",
		[RJT_NUMBER] = "number",
		[RJT_BOOLEAN] = "boolean",
	};

	json_key(w, r->name);
	if (r->type == RJT_OBJECT) {
		schema_object(w, r->child);
		return;
	}
	json_object_begin(w);
	switch (r->type) {
	case RJT_STRING_OR_NULL:
		json_key(w, "type");
		json_array_begin(w);
		json_string(w, "string");
		json_string(w, "null");
		json_end(w);
		break;
	case RJT_OBJECTS:
		schema_type(w, "array");
		json_key(w, "items");
		schema_object(w, r->child);
		break;
	case RJT_INTEGERS:
	case RJT_STRINGS:
		schema_type(w, "array");
		json_key(w, "items");
		json_object_begin(w);
		schema_type(w, r->type == RJT_INTEGERS ? "integer" : "string");
		json_end(w);
		break;
	default:
		schema_type(w, simple[r->type]);
		if (r->values != RJV_ANY)
			schema_values(w, r->values);
	}
	json_end(w);
}

static void schema_object(struct json_writer *w, enum rj_object o)
{
	json_object_begin(w);
	schema_type(w, "object");
	json_key(w, "required");
	json_array_begin(w);
	for (int k = 0; k < RJ_KEY_COUNT; k++)
		if (rows[k].in == o && rows[k].required)
			json_string(w, rows[k].name);
	json_end(w);
	json_key(w, "properties");
	json_object_begin(w);
	for (int k = 0; k < RJ_KEY_COUNT; k++)
		if (rows[k].in == o)
			schema_key(w, &rows[k]);
	json_end(w);
	json_kv_bool(w, "additionalProperties", false);
	json_end(w);
}

void report_json_schema(struct json_writer *w)
{
	schema_object(w, RJO_REPORT);
}
