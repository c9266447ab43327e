# Probe user side.
# libm: the unit tests check the histogram math against log2().
LDLIBS += -lm

# The symbolizer (src/probe/syms.c) reads ELF files with libelf.
LDLIBS += -lelf

# Syscall names come from the installed UAPI header of the build
# architecture; without one the table is empty and numbers are shown.
SYSCALL_UAPI ?= /usr/include/$(shell $(CC) -print-multiarch 2>/dev/null)/asm/unistd_64.h

$(OUTPUT)/gen/syscall_table.h: $(wildcard $(SYSCALL_UAPI))
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)if [ -r "$(SYSCALL_UAPI)" ]; then \
		awk '$$1 == "#define" && $$2 ~ /^__NR_/ && $$3 ~ /^[0-9]+$$/ \
			{ printf "\t[%s] = \"%s\",\n", $$3, substr($$2, 6) }' $(SYSCALL_UAPI); \
	else echo '	[0] = 0,'; fi > $@

$(OUTPUT)/src/probe/syscall_names.o: $(OUTPUT)/gen/syscall_table.h
