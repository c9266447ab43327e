# libmicrohttpd is loaded at first use (src/util/dl_mhd.c), not linked:
# the commands that serve no HTTP do not map it and its TLS stack.
LDLIBS += -lpthread
MHD_SONAME := $(shell objdump -p "$$($(CC) -print-file-name=libmicrohttpd.so)" 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }')
$(OUTPUT)/src/util/dl_mhd.o: CFLAGS += $(if $(MHD_SONAME),-DTRIAGE_MHD_SONAME='"$(MHD_SONAME)"')
# --web.config.file's libyaml, GnuTLS and libcrypt are loaded at first use too
# (src/util/dl_webconfig.c): a collector without one never maps them.
# The guard's unit test makes its own bcrypt hashes (crypt_gensalt_rn).
$(OUTPUT)/unit/test_httpguard: LDLIBS += -lcrypt
