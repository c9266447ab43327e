# BPF side: src/bpf/<probe>.bpf.c -> .bpf.o -> <probe>.skel.h (in $(OUTPUT)/gen).
# Without clang or bpftool the binary still builds; probes report why they
# are unavailable (TRIAGE_NO_BPF).
HAVE_BPF := $(shell command -v $(CLANG) >/dev/null && command -v $(BPFTOOL) >/dev/null && \
	command -v $(LLVM_STRIP) >/dev/null && [ -f /usr/include/bpf/libbpf.h ] && echo 1)
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
VMLINUX_COMMITTED := src/bpf/vmlinux/$(ARCH)/vmlinux.h

ifeq ($(HAVE_BPF),1)
BPF_SKELS := $(patsubst src/bpf/%.bpf.c,$(OUTPUT)/gen/%.skel.h,$(BPF_SRCS))
# The task door also has a light skeleton (bpftool gen skeleton -L): its
# loader runs in the kernel, so no process reads and parses the 5 MB
# vmlinux BTF in user space (docs/performance.md, start-up).
BPF_SKELS += $(OUTPUT)/gen/tasks.lskel.h
# So has `triage probe trace`: its time to the first event was libbpf's
# parse of the vmlinux BTF for two tp_btf programs (docs/probe.md).
BPF_SKELS += $(OUTPUT)/gen/trace.lskel.h
# The report's enrichment loads its five probes the same way, built again
# with -DSP_ENRICH: map sizes it sets at build time (a light skeleton's
# maps cannot be resized), leaner per-event work (src/bpf/stackprobes.h).
ENRICH_PROBES := runq offcpu profile syscalls forks
BPF_SKELS += $(patsubst %,$(OUTPUT)/gen/%_enrich.lskel.h,$(ENRICH_PROBES))
LDLIBS += -lbpf -lelf -lz
CFLAGS += -DTRIAGE_HAVE_BPF=1
else
BPF_SKELS :=
CFLAGS += -DTRIAGE_HAVE_BPF=0
endif

BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror -I$(OUTPUT)/gen -Isrc/bpf

# vmlinux.h comes from the build machine's BTF (what the kernel here really
# has); the committed copy src/bpf/vmlinux/x86/vmlinux.h (Linux 6.18 BTF) is
# the fallback for build hosts without /sys/kernel/btf/vmlinux, e.g. a
# container on a BTF-less host: CO-RE makes either work on any BTF kernel.
# Force the fallback with: make VMLINUX_BTF=/nonexistent
$(OUTPUT)/gen/vmlinux.h:
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)if [ -r $(VMLINUX_BTF) ]; then \
		$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@; \
	else cp $(VMLINUX_COMMITTED) $@; fi

$(OUTPUT)/gen/%.bpf.o: src/bpf/%.bpf.c $(OUTPUT)/gen/vmlinux.h $(wildcard src/bpf/*.h)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	$(Q)$(LLVM_STRIP) -g $@

$(OUTPUT)/gen/profile_enrich.bpf.o: BPF_ENRICH_FLAGS := -DSP_STACK_FRAMES=1
$(OUTPUT)/gen/offcpu_enrich.bpf.o: BPF_ENRICH_FLAGS := -DSP_STACK_FRAMES=SP_ENRICH_DSTATE_FRAMES
$(OUTPUT)/gen/%_enrich.bpf.o: src/bpf/%.bpf.c $(OUTPUT)/gen/vmlinux.h $(wildcard src/bpf/*.h)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DSP_ENRICH $(BPF_ENRICH_FLAGS) -c $< -o $@
	$(Q)$(LLVM_STRIP) -g $@

$(OUTPUT)/gen/%.skel.h: $(OUTPUT)/gen/%.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

$(OUTPUT)/gen/%.lskel.h: $(OUTPUT)/gen/%.bpf.o
	$(call msg,LSKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton -L $< name $*_lbpf > $@

# User-side probe code includes the skeletons.
$(patsubst %.c,$(OUTPUT)/%.o,$(filter src/probe/%,$(CORE_SRCS))): $(BPF_SKELS)
