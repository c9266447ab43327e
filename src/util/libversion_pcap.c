#include <pcap/pcap.h>

#include "util/libversions.h"

const char *linked_libpcap_version(void)
{
	return pcap_lib_version();
}
