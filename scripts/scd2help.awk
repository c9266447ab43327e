# Turns a command's scdoc page (docs/man/triage-CMD.1.scd) into the C string
# its --help prints: SYNOPSIS as "Usage:", the one-line summary from NAME,
# then OPTIONS and EXIT STATUS as plain text. Run with -v name=CMD.
# Markup: *bold* and _underlined_ lose their marks; \* and \_ are literal.
# In OPTIONS a line at the margin is an option (or "## heading"), a
# tab-indented line its description.
function plain(s) {
	gsub(/\\\*/, "\001", s)
	gsub(/\\_/, "\002", s)
	gsub(/[*_]/, "", s)
	gsub(/\001/, "*", s)
	gsub(/\002/, "_", s)
	gsub(/\\\\/, "\\", s)
	return s
}
# the summary goes right after the synopsis
function summarize() {
	emit("")
	emit(toupper(substr(summary, 1, 1)) substr(summary, 2) ".")
}
function emit(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	printf "\t\"%s\\n\"\n", s
}
BEGIN {
	id = name
	gsub(/[^A-Za-z0-9]/, "_", id)
	printf "/* Generated from docs/man/triage-%s.1.scd by scripts/scd2help.awk: do not edit. */\n", name
	printf "static const char triage_help_%s[] =\n", id
	section = ""
	nusage = 0
}
/^; / { next }
/^# / {
	if (section == "SYNOPSIS")
		summarize()
	section = substr($0, 3)
	if (section == "OPTIONS") {
		emit("")
		emit("Options:")
	} else if (section == "EXIT STATUS") {
		emit("")
		emit("Exit status:")
	}
	blank = 0
	next
}
section == "NAME" && / - / {
	summary = plain(substr($0, index($0, " - ") + 3))
	next
}
section == "SYNOPSIS" && NF {
	emit((nusage++ ? "       " : "Usage: ") plain($0))
	next
}
section == "OPTIONS" {
	if (!NF) { blank = 1; next }
	if (/^## /) { emit(""); emit(plain(substr($0, 4)) ":"); next }
	if (/^\t/) { sub(/^\t+/, ""); emit("      " plain($0)) }
	else emit("  " plain($0))
	next
}
section == "EXIT STATUS" {
	if (!NF) { if (started) blank = 1; next }
	if (blank) emit("")
	emit(plain($0))
	started = 1
	blank = 0
	next
}
END {
	emit("")
	printf "\t\"See 'man triage-%s' for the full manual.\\n\";\n", name
}
