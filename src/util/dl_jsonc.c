/*
 * json-c at first use (src/util/dlib.h): only `triage fleet` parses JSON
 * (Prometheus' and graphite-web's answers); the rest of triage only writes
 * it (src/util/json.c). The functions triage calls, one line each.
 */
#include <stddef.h>
#include <stdint.h>

#include <json-c/json_object.h>
#include <json-c/json_object_iterator.h>
#include <json-c/json_tokener.h>

#include "util/dlib.h"
#include "util/libversions.h"

#ifndef TRIAGE_JSONC_SONAME
#define TRIAGE_JSONC_SONAME "libjson-c.so.5"
#endif

static struct dlib jsonc_lib = {
	.soname = TRIAGE_JSONC_SONAME,
	.package = "libjson-c5",
	.what = "reading Prometheus or Graphite answers (triage fleet)",
};

const char *util_jsonc_soname(void)
{
	return jsonc_lib.soname;
}

DLIB_SHIM(jsonc_lib, struct json_tokener *, json_tokener_new_ex, (int depth), (depth))
DLIB_SHIM(jsonc_lib, void, json_tokener_free, (struct json_tokener * t), (t))
DLIB_SHIM(jsonc_lib, struct json_object *, json_tokener_parse_ex,
	  (struct json_tokener * t, const char *s, int len), (t, s, len))
DLIB_SHIM(jsonc_lib, enum json_tokener_error, json_tokener_get_error, (struct json_tokener * t),
	  (t))
DLIB_SHIM(jsonc_lib, const char *, json_tokener_error_desc, (enum json_tokener_error e), (e))
DLIB_SHIM(jsonc_lib, int, json_object_put, (struct json_object * o), (o))
DLIB_SHIM(jsonc_lib, enum json_type, json_object_get_type, (const struct json_object *o), (o))
DLIB_SHIM(jsonc_lib, json_bool, json_object_object_get_ex,
	  (const struct json_object *o, const char *key, struct json_object **value),
	  (o, key, value))
DLIB_SHIM(jsonc_lib, size_t, json_object_array_length, (const struct json_object *o), (o))
DLIB_SHIM(jsonc_lib, struct json_object *, json_object_array_get_idx,
	  (const struct json_object *o, size_t i), (o, i))
DLIB_SHIM(jsonc_lib, const char *, json_object_get_string, (struct json_object * o), (o))
DLIB_SHIM(jsonc_lib, int, json_object_get_string_len, (const struct json_object *o), (o))
DLIB_SHIM(jsonc_lib, double, json_object_get_double, (const struct json_object *o), (o))
DLIB_SHIM(jsonc_lib, struct json_object_iterator, json_object_iter_begin, (struct json_object * o),
	  (o))
DLIB_SHIM(jsonc_lib, struct json_object_iterator, json_object_iter_end,
	  (const struct json_object *o), (o))
DLIB_SHIM(jsonc_lib, void, json_object_iter_next, (struct json_object_iterator * it), (it))
DLIB_SHIM(jsonc_lib, const char *, json_object_iter_peek_name,
	  (const struct json_object_iterator *it), (it))
DLIB_SHIM(jsonc_lib, struct json_object *, json_object_iter_peek_value,
	  (const struct json_object_iterator *it), (it))
DLIB_SHIM(jsonc_lib, json_bool, json_object_iter_equal,
	  (const struct json_object_iterator *a, const struct json_object_iterator *b), (a, b))
