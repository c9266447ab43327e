# triage: one binary, non-recursive GNU make.
# Variants: make SAN=1 (ASan+UBSan, into build-san/), V=1 (verbose).
# Each module may add a src/<module>/module.mk fragment (extra libs, rules).

.DEFAULT_GOAL := all
SAN ?= 0
ifeq ($(SAN),1)
OUTPUT ?= build-san
else
OUTPUT ?= build
endif
V ?= 0
ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

ARCH := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')
CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
LLVM_STRIP ?= llvm-strip

WARN := -Wall -Wextra -Werror -Wformat=2 -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wwrite-strings -Wvla -Wundef -Wpointer-arith \
	-Wno-unused-parameter -Wno-missing-field-initializers -fno-common
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 $(WARN) -MMD -MP -Isrc -I$(OUTPUT)/gen $(EXTRA_CFLAGS)
LDFLAGS += $(EXTRA_LDFLAGS)
LDLIBS :=
ifeq ($(SAN),1)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
CFLAGS += -D_FORTIFY_SOURCE=2
endif

# The command layer (main.c and the shells in src/cmd/) sits on top and is
# linked only into the binary; libtriage.a holds the cores that unit tests
# and fuzzers link, so a core that calls into cmd/ fails to build (and
# scripts/check-layers.sh says so by name, see $(LIB)).
CMD_SRCS := src/main.c $(wildcard src/cmd/*.c)
CORE_SRCS := $(filter-out $(CMD_SRCS),$(wildcard src/*.c src/*/*.c src/*/*/*.c))
CORE_SRCS := $(filter-out %.bpf.c,$(CORE_SRCS))
BPF_SRCS := $(wildcard src/bpf/*.bpf.c)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
WORKLOAD_SRCS := $(wildcard tests/workloads/*.c)

include $(wildcard src/*/module.mk)

# Start-up (issue 24): libbpf, libelf and zlib are linked from their static
# archives where the -dev packages ship them, so no command pays the dynamic
# loader for them (mapping, symbol lookup, relocations); SQLite is loaded at
# first use (src/util/dl_sqlite.c), and libm, which only SQLite needed, is
# linked --as-needed: `triage version` maps only libc. `make STATIC_LIBS=`
# links the three dynamically. Order matters: libbpf needs libelf, libelf zlib.
STATIC_LIBS ?= bpf elf z
LINK_STATIC := $(foreach l,$(STATIC_LIBS),$(if $(filter -l$(l),$(LDLIBS)),$(if \
	$(filter /%,$(shell $(CC) -print-file-name=lib$(l).a)),$(l))))
ifneq ($(LINK_STATIC),)
LDLIBS := -Wl,-Bstatic $(addprefix -l,$(LINK_STATIC)) -Wl,-Bdynamic \
	$(filter-out $(addprefix -l,$(LINK_STATIC)),$(LDLIBS))
endif

CORE_OBJS := $(patsubst %.c,$(OUTPUT)/%.o,$(CORE_SRCS))
CMD_OBJS := $(patsubst %.c,$(OUTPUT)/%.o,$(CMD_SRCS))
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUTPUT)/unit/%,$(UNIT_SRCS))
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_REPLAY_BINS := $(patsubst tests/fuzz/%.c,$(OUTPUT)/fuzz/%,$(FUZZ_SRCS))
FUZZ_LIBFUZZER_BINS := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(FUZZ_SRCS))
WORKLOAD_BINS := $(patsubst tests/workloads/%.c,$(OUTPUT)/workloads/%,$(WORKLOAD_SRCS))
LIB := $(OUTPUT)/libtriage.a

.PHONY: all test check unit deps deps-run run clean format format-check bench fuzz
.DELETE_ON_ERROR:
.SECONDARY:

all: $(OUTPUT)/triage $(OUTPUT)/pidstat $(UNIT_BINS) $(FUZZ_REPLAY_BINS) $(WORKLOAD_BINS) $(EXTRA_TARGETS)

# Start-up (issue 24; docs/performance.md). A page fault costs 17-50 us of
# CPU on the VMs we measure on, where all of `pidstat -p PID 1 1` costs 4-5
# ms, so a start should touch few pages of the binary:
# - the objects `pidstat -p PID` runs are linked first, so their code and
#   constants share a few 64 kB fault-around windows instead of one or two
#   per module (the archive's own order scatters them);
# - -fno-merge-constants keeps each string beside its code: merged, "proc"
#   becomes the tail of another module's "opening /proc", pages away;
# - DT_RELR (pack-relative-relocs, binutils 2.38 and glibc 2.36 on): the
#   position-independent binary's 2,500 relative relocations in 0.5 kB
#   instead of 59 kB the loader reads at every start;
# - bound now (-z now, full RELRO, as the .deb's hardening=+all links): the
#   same CPU as lazy binding here (medians 5.20 and 5.29 ms, 48 runs each),
#   a read-only GOT, and the bench measures the binary users get.
STARTUP_SRCS := src/main.c src/cmd/pidstat.c src/cmd/common.c $(wildcard src/pidstat/*.c) \
	$(addprefix src/procfs/,procfs.c parsers.c tasksrc.c taskstats.c kept.c task_stat_cache.c \
	host.c) $(addprefix src/runloop/,clock.c stop.c fdlimit.c) \
	$(addprefix src/util/,kmerge.c text.c grow.c)
STARTUP_OBJS := $(patsubst %.c,$(OUTPUT)/%.o,$(STARTUP_SRCS))
CFLAGS += -fno-merge-constants
LD_START := -Wl,-z,relro,-z,now $(shell $(CC) -Wl,--help 2>/dev/null | \
	grep -q pack-relative-relocs && echo -Wl,-z,pack-relative-relocs)

$(OUTPUT)/triage: $(CMD_OBJS) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $(LD_START) -o $@ $(STARTUP_OBJS) $(filter-out $(STARTUP_OBJS),$^) \
		-Wl,--as-needed $(LDLIBS)

$(OUTPUT)/pidstat: $(OUTPUT)/triage
	$(Q)ln -sf triage $@

$(LIB): $(CORE_OBJS) scripts/check-layers.sh
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcsP $@ $(CORE_OBJS)
	$(Q)scripts/check-layers.sh $@ || { rm -f $@; exit 1; }

$(OUTPUT)/%.o: %.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(OUTPUT)/unit/%: tests/unit/%.c tests/unit/unit.h $(LIB)
	$(call msg,UNIT,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# Fuzz harnesses: built with a replay main() so their corpora run as plain
# tests; "make fuzz" builds the libFuzzer versions with clang.
$(OUTPUT)/fuzz/%: tests/fuzz/%.c tests/fuzz/replay_main.c $(LIB)
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/replay_main.c $(LIB) $(LDLIBS)

# The libFuzzer build (clang 14, ASan+UBSan, into build-fuzz/): the cores are
# compiled once with fuzzer-no-link instrumentation into their own archive;
# it includes the BPF skeletons of the plain build, hence build/triage first.
FUZZ_CFLAGS := -g -O1 -std=gnu11 -Isrc -Ibuild/gen $(filter -DTRIAGE%,$(CFLAGS)) \
	-fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_OBJS := $(patsubst %.c,build-fuzz/obj/%.o,$(CORE_SRCS))

fuzz: $(FUZZ_LIBFUZZER_BINS)

build-fuzz/obj/%.o: %.c | build/triage
	$(call msg,CC-FUZZ,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -MMD -MP -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@

build-fuzz/libtriage.a: $(FUZZ_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcsP $@ $^

build-fuzz/%: tests/fuzz/%.c build-fuzz/libtriage.a
	$(call msg,LIBFUZZ,$@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< \
		build-fuzz/libtriage.a $(LDLIBS)

# Workloads are test programs, not product code: plain flags, no -Werror
# on purpose-built misbehaviour (spinning, leaking threads, and so on).
$(OUTPUT)/workloads/%: tests/workloads/%.c
	$(call msg,WORKLOAD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O1 -g -fno-omit-frame-pointer -Wall -o $@ $< -lpthread

# make run installs what building and running need; make test adds the
# oracles and tools only the tests use.
deps-run:
	$(Q)scripts/deps.sh run

deps:
	$(Q)scripts/deps.sh test

# The two README commands. The main job: a 5-second report of this machine.
run: deps-run
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) $(OUTPUT)/triage
	$(OUTPUT)/triage report -d 5

NPROC := $(shell nproc 2>/dev/null || echo 2)

# The generated sources (BPF objects and skeletons, vmlinux.h, help headers,
# plot assets, the syscall table) do not depend on the flavour: a fresh
# sanitized build starts from the plain build's (14 CPU-s less; cp -a keeps
# their times, so make remakes none whose source is older).
test: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all
	$(Q)[ -e build-san/gen ] || { mkdir -p build-san && cp -a build/gen build-san/gen; }
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) SAN=1 all
	$(Q)tests/run.sh

check: all
	$(Q)TRIAGE_BUILDS=$(OUTPUT) tests/run.sh

format:
	clang-format -i $(shell git ls-files 'src/*.[ch]' 'tests/*.[ch]')

format-check:
	clang-format --dry-run -Werror $(shell git ls-files 'src/*.[ch]' 'tests/*.[ch]')

clean:
	rm -rf build build-san build-fuzz

include install.mk

# Least privilege (docs/install.md): file capabilities on the installed
# binary instead of a root shell. CAP_BPF and CAP_PERFMON load the probes,
# CAP_SYS_PTRACE reads other users' /proc/PID files, CAP_SYSLOG the kernel
# log under kernel.dmesg_restrict=1 and kallsyms. Kernels before 5.8 have
# no CAP_BPF/CAP_PERFMON: there tracing needs CAP_SYS_ADMIN.
CAP_LAST := $(shell cat /proc/sys/kernel/cap_last_cap 2>/dev/null || echo 0)
ifeq ($(shell [ $(CAP_LAST) -ge 39 ] && echo new),new)
CAPS ?= cap_bpf,cap_perfmon,cap_sys_ptrace,cap_syslog+ep
else
CAPS ?= cap_sys_admin,cap_sys_ptrace,cap_syslog+ep
endif
SETCAP ?= setcap

.PHONY: install-caps
install-caps:
	$(Q)command -v $(SETCAP) >/dev/null || \
		{ echo "make install-caps: needs setcap (apt-get install libcap2-bin)" >&2; exit 1; }
	$(SETCAP) $(CAPS) $(DESTDIR)$(BINDIR)/triage

-include $(shell find $(OUTPUT) -name '*.d' 2>/dev/null)
-include $(shell find build-fuzz -name '*.d' 2>/dev/null)
