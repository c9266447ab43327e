# triage fleet: libcurl and json-c are loaded at first use
# (src/util/dl_curl.c, dl_jsonc.c), not linked: no other command maps them.
CURL_SONAME := $(shell objdump -p "$$($(CC) -print-file-name=libcurl.so)" 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }')
JSONC_SONAME := $(shell objdump -p "$$($(CC) -print-file-name=libjson-c.so)" 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }')
$(OUTPUT)/src/util/dl_curl.o: CFLAGS += $(if $(CURL_SONAME),-DTRIAGE_CURL_SONAME='"$(CURL_SONAME)"')
$(OUTPUT)/src/util/dl_jsonc.o: CFLAGS += $(if $(JSONC_SONAME),-DTRIAGE_JSONC_SONAME='"$(JSONC_SONAME)"')
