/*
 * libcurl at first use (src/util/dlib.h): only `triage fleet` speaks HTTP
 * as a client, and libcurl brings OpenSSL, nghttp2, libssh2, LDAP, Kerberos
 * and more with it. The functions triage calls, one line each.
 */
#define CURL_DISABLE_TYPECHECK /* we define curl_easy_setopt itself below */
#include <stdarg.h>

#include <curl/curl.h>

#include "util/dlib.h"
#include "util/libversions.h"

#ifndef TRIAGE_CURL_SONAME
#define TRIAGE_CURL_SONAME "libcurl.so.4"
#endif

static struct dlib curl_lib = {
	.soname = TRIAGE_CURL_SONAME,
	.package = "libcurl4",
	.what = "querying Prometheus or Graphite (triage fleet)",
};

const char *util_curl_soname(void)
{
	return curl_lib.soname;
}

DLIB_SHIM(curl_lib, CURL *, curl_easy_init, (void), ())
DLIB_SHIM(curl_lib, void, curl_easy_cleanup, (CURL * c), (c))
DLIB_SHIM(curl_lib, CURLcode, curl_easy_perform, (CURL * c), (c))
DLIB_SHIM(curl_lib, const char *, curl_easy_strerror, (CURLcode code), (code))
DLIB_SHIM(curl_lib, char *, curl_easy_escape, (CURL * c, const char *s, int len), (c, s, len))
DLIB_SHIM(curl_lib, void, curl_free, (void *p), (p))

/* The real function behind a variadic entry point, resolved once. */
#define CURL_FN(name)                                                        \
	static __typeof__(&name) cached_;                                    \
	__typeof__(&name) fn_ = __atomic_load_n(&cached_, __ATOMIC_ACQUIRE); \
	if (!fn_) {                                                          \
		fn_ = (__typeof__(&name))dlib_sym(&curl_lib, #name);         \
		__atomic_store_n(&cached_, fn_, __ATOMIC_RELEASE);           \
	}

/*
 * Variadic in the header: the option's number says the argument's type
 * (curl.h's CURLOPTTYPE_* ranges), so it is read as that and passed on.
 */
CURLcode curl_easy_setopt(CURL *c, CURLoption opt, ...)
{
	CURLcode rc;
	va_list ap;
	CURL_FN(curl_easy_setopt)

	va_start(ap, opt);
	if (opt < CURLOPTTYPE_OBJECTPOINT)
		rc = fn_(c, opt, va_arg(ap, long));
	else if (opt < CURLOPTTYPE_FUNCTIONPOINT)
		rc = fn_(c, opt, va_arg(ap, void *));
	else if (opt < CURLOPTTYPE_OFF_T)
		rc = fn_(c, opt, va_arg(ap, void (*)(void)));
	else if (opt < CURLOPTTYPE_BLOB)
		rc = fn_(c, opt, va_arg(ap, curl_off_t));
	else
		rc = fn_(c, opt, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

/* Every CURLINFO_* takes a pointer to where the answer goes. */
CURLcode curl_easy_getinfo(CURL *c, CURLINFO info, ...)
{
	CURLcode rc;
	va_list ap;
	CURL_FN(curl_easy_getinfo)

	va_start(ap, info);
	rc = fn_(c, info, va_arg(ap, void *));
	va_end(ap);
	return rc;
}
