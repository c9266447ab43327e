#include <pcap/pcap.h>

#include "util/libversions.h"

const char *util_libpcap_version(void)
{
	return pcap_lib_version();
}
