/*
 * libmicrohttpd at first use (src/util/dlib.h): only `triage collect
 * --listen` serves HTTP, and libmicrohttpd brings GnuTLS, nettle, gmp,
 * p11-kit, idn2 and tasn1 with it. The functions triage calls, one line
 * each; a new MHD call (e.g. MHD_create_response_from_buffer_with_free_callback,
 * MHD_get_connection_info for TLS) needs its line here.
 */
#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <microhttpd.h>

#include "util/dlib.h"
#include "util/libversions.h"

#ifndef TRIAGE_MHD_SONAME
#define TRIAGE_MHD_SONAME "libmicrohttpd.so.12"
#endif

static struct dlib mhd_lib = {
	.soname = TRIAGE_MHD_SONAME,
	.package = "libmicrohttpd12",
	.what = "serving HTTP (collect --listen)",
};

const char *util_mhd_soname(void)
{
	return mhd_lib.soname;
}

DLIB_SHIM(mhd_lib, struct MHD_Daemon *, MHD_start_daemon_va,
	  (unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
	   MHD_AccessHandlerCallback dh, void *dh_cls, va_list ap),
	  (flags, port, apc, apc_cls, dh, dh_cls, ap))
DLIB_SHIM(mhd_lib, void, MHD_stop_daemon, (struct MHD_Daemon * d), (d))
DLIB_SHIM(mhd_lib, const char *, MHD_lookup_connection_value,
	  (struct MHD_Connection * c, enum MHD_ValueKind kind, const char *key), (c, kind, key))
DLIB_SHIM(mhd_lib, enum MHD_Result, MHD_queue_response,
	  (struct MHD_Connection * c, unsigned int status, struct MHD_Response *r), (c, status, r))
DLIB_SHIM(mhd_lib, struct MHD_Response *, MHD_create_response_from_buffer,
	  (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
DLIB_SHIM(mhd_lib, void, MHD_destroy_response, (struct MHD_Response * r), (r))
DLIB_SHIM(mhd_lib, enum MHD_Result, MHD_add_response_header,
	  (struct MHD_Response * r, const char *header, const char *content), (r, header, content))

DLIB_SHIM(mhd_lib, void, MHD_free, (void *ptr), (ptr))
DLIB_SHIM(mhd_lib, char *, MHD_basic_auth_get_username_password,
	  (struct MHD_Connection * c, char **password), (c, password))
DLIB_SHIM(mhd_lib, enum MHD_Result, MHD_queue_basic_auth_fail_response,
	  (struct MHD_Connection * c, const char *realm, struct MHD_Response *r), (c, realm, r))
DLIB_SHIM(mhd_lib, enum MHD_Result, MHD_is_feature_supported, (enum MHD_FEATURE feature), (feature))

/*
 * Variadic in the header, but none of the info types triage asks for
 * (MHD_CONNECTION_INFO_SOCKET_CONTEXT, _CONNECTION_FD) takes an argument.
 */
const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *c,
							enum MHD_ConnectionInfoType type, ...)
{
	static __typeof__(&MHD_get_connection_info) cached;
	__typeof__(&MHD_get_connection_info) fn = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);

	if (!fn) {
		fn = (__typeof__(&MHD_get_connection_info))dlib_sym(&mhd_lib,
								    "MHD_get_connection_info");
		__atomic_store_n(&cached, fn, __ATOMIC_RELEASE);
	}
	return fn(c, type);
}

/* The variadic entry point: its options go on through the _va one. */
struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc,
				    void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
	struct MHD_Daemon *d;
	va_list ap;

	va_start(ap, dh_cls);
	d = MHD_start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
	va_end(ap);
	return d;
}
