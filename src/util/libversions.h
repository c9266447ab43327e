/*
 * Versions of the libraries linked in, for 'triage version'. Each lives in
 * its own file because libpcap's and the kernel's BPF headers cannot be
 * included together.
 */
#ifndef TRIAGE_LIBVERSIONS_H
#define TRIAGE_LIBVERSIONS_H

#include <stddef.h>

const char *util_libpcap_version(void);
/* "major.minor" of libbpf, or "none" in a build without BPF. */
void util_libbpf_version(char *buf, size_t size);

#endif
