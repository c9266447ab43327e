/*
 * The libraries triage uses, for 'triage version'. Each lives in its own
 * file because libpcap's and the kernel's BPF headers cannot be included
 * together.
 */
#ifndef TRIAGE_LIBVERSIONS_H
#define TRIAGE_LIBVERSIONS_H

#include <stddef.h>

/*
 * The sonames loaded at first use (src/util/dl_*.c): `triage version`
 * names them without loading them (a version would cost the load).
 */
const char *util_pcap_soname(void);
const char *util_mhd_soname(void);
const char *util_curl_soname(void);
const char *util_jsonc_soname(void);
/* "major.minor" of libbpf, or "none" in a build without BPF. */
void util_libbpf_version(char *buf, size_t size);

#endif
