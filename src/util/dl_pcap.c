/*
 * libpcap at first use (src/util/dlib.h): only `triage u32` reads
 * captures, and libpcap brings D-Bus, libsystemd, gcrypt, lz4 and zstd
 * with it. The functions triage calls, one line each; add a line for a new one.
 */
#include <pcap/pcap.h>

#include "util/dlib.h"
#include "util/libversions.h"

#ifndef TRIAGE_PCAP_SONAME
#define TRIAGE_PCAP_SONAME "libpcap.so.0.8"
#endif

static struct dlib pcap_lib = {
	.soname = TRIAGE_PCAP_SONAME,
	.package = "libpcap0.8",
	.what = "reading pcap captures",
};

const char *util_pcap_soname(void)
{
	return pcap_lib.soname;
}

DLIB_SHIM(pcap_lib, pcap_t *, pcap_fopen_offline, (FILE * f, char *errbuf), (f, errbuf))
DLIB_SHIM(pcap_lib, void, pcap_close, (pcap_t * p), (p))
DLIB_SHIM(pcap_lib, int, pcap_loop, (pcap_t * p, int cnt, pcap_handler cb, u_char *user),
	  (p, cnt, cb, user))
DLIB_SHIM(pcap_lib, int, pcap_next_ex, (pcap_t * p, struct pcap_pkthdr **h, const u_char **data),
	  (p, h, data))
DLIB_SHIM(pcap_lib, void, pcap_breakloop, (pcap_t * p), (p))
DLIB_SHIM(pcap_lib, char *, pcap_geterr, (pcap_t * p), (p))
DLIB_SHIM(pcap_lib, int, pcap_datalink, (pcap_t * p), (p))
DLIB_SHIM(pcap_lib, const char *, pcap_lib_version, (void), ())

/* Live captures (triage u32 test -i IFACE). */
DLIB_SHIM(pcap_lib, pcap_t *, pcap_create, (const char *source, char *errbuf), (source, errbuf))
DLIB_SHIM(pcap_lib, int, pcap_activate, (pcap_t * p), (p))
DLIB_SHIM(pcap_lib, int, pcap_set_snaplen, (pcap_t * p, int snaplen), (p, snaplen))
DLIB_SHIM(pcap_lib, int, pcap_set_promisc, (pcap_t * p, int promisc), (p, promisc))
DLIB_SHIM(pcap_lib, int, pcap_set_immediate_mode, (pcap_t * p, int on), (p, on))
DLIB_SHIM(pcap_lib, int, pcap_set_timeout, (pcap_t * p, int ms), (p, ms))
DLIB_SHIM(pcap_lib, int, pcap_setdirection, (pcap_t * p, pcap_direction_t d), (p, d))
DLIB_SHIM(pcap_lib, int, pcap_setnonblock, (pcap_t * p, int nonblock, char *errbuf),
	  (p, nonblock, errbuf))
DLIB_SHIM(pcap_lib, int, pcap_get_selectable_fd, (pcap_t * p), (p))
DLIB_SHIM(pcap_lib, int, pcap_dispatch, (pcap_t * p, int cnt, pcap_handler cb, u_char *user),
	  (p, cnt, cb, user))
