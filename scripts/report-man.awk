# Fills triage-report(1)'s generated parts from docs/report.md, the checked
# source (tests/unit/test_report.c holds its kinds table to src/report/kinds.c,
# tests/report/live_schema.t its keys table to src/report/schema.c):
#   awk -f scripts/report-man.awk docs/report.md docs/man/triage-report.1.scd
# prints the page with the line "; @kinds" replaced by every kind (resource,
# what raises it with its thresholds, severity, subject, next command) and
# "; @keys" by the JSON document's keys. tests/cli/man_report.t checks the
# installed page against the binary's kinds and schema.

# s with every sep preceded by a backslash (a gsub replacement would eat it).
function join_escaped(s, sep,    n, p, i, out) {
	n = split(s, p, sep)
	out = p[1]
	for (i = 2; i <= n; i++)
		out = out "\\" sep p[i]
	return out
}

# A markdown cell as scdoc text: scdoc's marks escaped, `code` in bold,
# links and HTML anchors reduced to their words.
function scd(s) {
	gsub(/<a id="[^"]*"><\/a>/, "", s)
	s = join_escaped(s, "\\")
	gsub(/\*/, "\\*", s)
	gsub(/_/, "\\_", s)
	while (match(s, /\[[^]]*\]\([^)]*\)/)) {
		link = substr(s, RSTART + 1, RLENGTH - 2)
		sub(/\]\(.*/, "", link)
		s = substr(s, 1, RSTART - 1) link substr(s, RSTART + RLENGTH)
	}
	gsub(/`/, "*", s)
	gsub(/\001/, "|", s)
	sub(/^ +/, "", s)
	sub(/ +$/, "", s)
	return s
}

# A cell as plain text, for the literal block of keys.
function plain(s) {
	gsub(/`/, "", s)
	gsub(/\001/, "|", s)
	sub(/^ +/, "", s)
	sub(/ +$/, "", s)
	return s
}

# Cells of a table row; "\|" inside a cell is kept as \001.
function cells(line, c) {
	gsub(/\\\|/, "\001", line)
	sub(/^\|/, "", line)
	sub(/\|$/, "", line)
	return split(line, c, "|")
}

FNR == NR {
	if (/^## /)
		section = $0
	if (/^### /)
		section = $0
	if (section == "## Findings" && /^\| <a id="kind-/) {
		cells($0, c)
		nk++
		kind[nk] = scd(c[1]); res[nk] = scd(c[2]); when[nk] = scd(c[3])
		sev[nk] = scd(c[4]); subj[nk] = scd(c[5]); next_[nk] = scd(c[6])
	}
	if (section == "### Keys" && /^\| `/) {
		cells($0, c)
		nkeys++
		key[nkeys] = plain(c[1]); type[nkeys] = plain(c[2]); always[nkeys] = plain(c[3])
	}
	next
}

$0 == "; @kinds" {
	if (!nk) {
		print "report-man.awk: no kinds table in " ARGV[1] > "/dev/stderr"
		exit 1
	}
	for (i = 1; i <= nk; i++) {
		if (i > 1)
			print ""
		print kind[i] " (" res[i] ")"
		print "\tRaised when: " when[i] "."
		print ""
		print "\tSeverity: " sev[i] "."
		print ""
		print "\tSubject: " subj[i] "."
		print ""
		print "\tNext: " next_[i]
	}
	next
}

$0 == "; @keys" {
	if (!nkeys) {
		print "report-man.awk: no keys table in " ARGV[1] > "/dev/stderr"
		exit 1
	}
	w = 0
	for (i = 1; i <= nkeys; i++)
		if (length(key[i]) > w)
			w = length(key[i])
	print "```"
	printf "%-" w "s  %-16s  %s\n", "key", "type", "always"
	for (i = 1; i <= nkeys; i++)
		printf "%-" w "s  %-16s  %s\n", key[i], type[i], always[i]
	print "```"
	next
}

{ print }
