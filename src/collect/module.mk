# libmicrohttpd is loaded at first use (src/util/dl_mhd.c), not linked:
# the commands that serve no HTTP do not map it and its TLS stack.
LDLIBS += -lpthread
MHD_SONAME := $(shell objdump -p "$$($(CC) -print-file-name=libmicrohttpd.so)" 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }')
$(OUTPUT)/src/util/dl_mhd.o: CFLAGS += $(if $(MHD_SONAME),-DTRIAGE_MHD_SONAME='"$(MHD_SONAME)"')
# --web.config.file: libyaml reads it, libcrypt checks bcrypt, GnuTLS checks
# the certificate and hashes the cache.
LDLIBS += -lyaml -lcrypt -lgnutls
