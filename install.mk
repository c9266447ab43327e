# Manual pages, --help texts, make install / make uninstall.
#
# One source per command: docs/man/triage-CMD.1.scd (scdoc). From it
#  - make man builds $(OUTPUT)/man/triage-CMD.1 with scdoc;
#  - every build generates $(OUTPUT)/gen/help/CMD.h (scripts/scd2help.awk,
#    no scdoc needed): the SYNOPSIS, OPTIONS and EXIT STATUS sections as
#    the C string that 'triage CMD --help' prints.
# A new command adds docs/man/triage-NAME.1.scd, includes "help/NAME.h" in
# src/cmd/NAME.c and prints TRIAGE_HELP_NAME (tests/cli/manpages.t checks
# the pair against the parser's option tables).

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
SCDOC ?= scdoc
INSTALL ?= install

MAN_SRCS := $(wildcard docs/man/*.1.scd)
MAN_PAGES := $(patsubst docs/man/%.scd,$(OUTPUT)/man/%,$(MAN_SRCS))
HELP_HDRS := $(patsubst docs/man/triage-%.1.scd,$(OUTPUT)/gen/help/%.h,\
	$(filter docs/man/triage-%,$(MAN_SRCS)))

.PHONY: man install uninstall

man: $(MAN_PAGES)

$(OUTPUT)/man/%: docs/man/%.scd
	$(call msg,SCDOC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)command -v $(SCDOC) >/dev/null || \
		{ echo "make man: needs scdoc (apt-get install scdoc)" >&2; exit 1; }
	$(Q)$(SCDOC) <$< >$@

# triage-report(1) carries the finding kinds and the JSON keys, filled in
# from docs/report.md's checked tables (scripts/report-man.awk).
$(OUTPUT)/man/triage-report.1: docs/man/triage-report.1.scd docs/report.md scripts/report-man.awk
	$(call msg,SCDOC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)command -v $(SCDOC) >/dev/null || \
		{ echo "make man: needs scdoc (apt-get install scdoc)" >&2; exit 1; }
	$(Q)awk -f scripts/report-man.awk docs/report.md $< >$@.scd
	$(Q)$(SCDOC) <$@.scd >$@.tmp
	$(Q)rm -f $@.scd && mv -f $@.tmp $@

$(OUTPUT)/gen/help/%.h: docs/man/triage-%.1.scd scripts/scd2help.awk
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)awk -v name=$* -f scripts/scd2help.awk $< >$@

# Headers generated before any command shell compiles (-MMD tracks which
# one each uses from then on).
$(CMD_OBJS): | $(HELP_HDRS)

# The files make install writes, relative to DESTDIR (tests/cli/install.t
# checks the list). The pidstat name stays out of PATH: sysstat owns it.
INSTALL_FILES = $(BINDIR)/triage $(LIBEXECDIR)/triage/pidstat \
	$(patsubst $(OUTPUT)/man/%,$(MANDIR)/man1/%,$(MAN_PAGES)) \
	$(BASHCOMPDIR)/triage $(ZSHCOMPDIR)/_triage \
	$(SYSTEMDUNITDIR)/triage-collect.service

install: $(OUTPUT)/triage man
	$(Q)$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR)/triage \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(SYSTEMDUNITDIR)
	$(Q)$(INSTALL) -m 0755 $(OUTPUT)/triage $(DESTDIR)$(BINDIR)/triage
	$(Q)ln -sfn "$$(realpath -m --relative-to=$(LIBEXECDIR)/triage $(BINDIR)/triage)" \
		$(DESTDIR)$(LIBEXECDIR)/triage/pidstat # relative, as Debian wants
	$(Q)$(INSTALL) -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/
	$(Q)$(INSTALL) -m 0644 contrib/completion/triage.bash $(DESTDIR)$(BASHCOMPDIR)/triage
	$(Q)$(INSTALL) -m 0644 contrib/completion/_triage $(DESTDIR)$(ZSHCOMPDIR)/_triage
	$(Q)sed 's#/usr/local/bin/triage#$(BINDIR)/triage#g' contrib/systemd/triage-collect.service \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/triage-collect.service.tmp
	$(Q)chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/triage-collect.service.tmp
	$(Q)mv -f $(DESTDIR)$(SYSTEMDUNITDIR)/triage-collect.service.tmp \
		$(DESTDIR)$(SYSTEMDUNITDIR)/triage-collect.service

uninstall:
	$(Q)rm -f $(addprefix $(DESTDIR),$(INSTALL_FILES))
	$(Q)rmdir $(DESTDIR)$(LIBEXECDIR)/triage 2>/dev/null || true
