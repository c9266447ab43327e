# libpcap is loaded at first use (src/util/dl_pcap.c), not linked: the
# commands that read no capture do not map it and its D-Bus and libsystemd.
PCAP_SONAME := $(shell objdump -p "$$($(CC) -print-file-name=libpcap.so)" 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }')
$(OUTPUT)/src/util/dl_pcap.o: CFLAGS += $(if $(PCAP_SONAME),-DTRIAGE_PCAP_SONAME='"$(PCAP_SONAME)"')
