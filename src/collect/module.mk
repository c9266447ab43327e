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
# The Prometheus rules file comes from the report's kinds table: the build
# makes $(OUTPUT)/triage.rules.yml with the generator below, make rules
# copies it over the shipped contrib/prometheus/triage.rules.yml, and
# tests/collect/rules_file.t fails while the two differ.
$(OUTPUT)/gen-rules: contrib/prometheus/gen-rules.c $(OUTPUT)/libtriage.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(OUTPUT)/libtriage.a $(LDLIBS)
$(OUTPUT)/triage.rules.yml: $(OUTPUT)/gen-rules
	$(call msg,GEN,$@)
	$(Q)$(OUTPUT)/gen-rules >$@
EXTRA_TARGETS += $(OUTPUT)/triage.rules.yml
.PHONY: rules
rules: $(OUTPUT)/triage.rules.yml
	$(Q)cp $< contrib/prometheus/triage.rules.yml
