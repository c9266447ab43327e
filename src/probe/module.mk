# Probe user side.
# libm: the unit tests check the histogram math against log2().
LDLIBS += -lm

# The symbolizer (src/probe/syms.c) reads ELF files with libelf.
LDLIBS += -lelf

# Syscall names come from the installed UAPI header of the build
# architecture; without one the table is empty and numbers are shown.
SYSCALL_UAPI ?= /usr/include/$(shell $(CC) -print-multiarch 2>/dev/null)/asm/unistd_64.h

# One string of NUL-separated names and each number's offset in it (0, the
# leading NUL, for none): no pointers, so no relocations for the loader to
# write at every start (issue 24).
$(OUTPUT)/gen/syscall_table.h: $(wildcard $(SYSCALL_UAPI)) src/probe/module.mk
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)if [ -r "$(SYSCALL_UAPI)" ]; then \
		awk 'BEGIN { off = 1 } \
			$$1 == "#define" && $$2 ~ /^__NR_/ && $$3 ~ /^[0-9]+$$/ { \
				n = substr($$2, 6); blob = blob "\t\"" n "\\0\"\n"; \
				offs = offs sprintf("\t[%s] = %d,\n", $$3, off); off += length(n) + 1 } \
			END { printf "static const char names[] =\n\t\"\\0\"\n%s;\n", blob; \
				printf "static const uint16_t offsets[] = {\n%s};\n", offs; \
				if (off > 65535) exit 1 }' $(SYSCALL_UAPI); \
	else printf 'static const char names[] = "";\nstatic const uint16_t offsets[] = { 0 };\n'; fi > $@

$(OUTPUT)/src/probe/syscall_names.o: $(OUTPUT)/gen/syscall_table.h
