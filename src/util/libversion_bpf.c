#include <stdio.h>

#include "util/libversions.h"

#ifndef TRIAGE_HAVE_BPF
#define TRIAGE_HAVE_BPF 0
#endif
#if TRIAGE_HAVE_BPF
#include <bpf/libbpf.h>
#endif

void util_libbpf_version(char *buf, size_t size)
{
#if TRIAGE_HAVE_BPF
	snprintf(buf, size, "%u.%u", libbpf_major_version(), libbpf_minor_version());
#else
	snprintf(buf, size, "none");
#endif
}
