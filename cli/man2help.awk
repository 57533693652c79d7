# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# man2help.awk: make the tool's --help text from its man page, so the
# two cannot drift apart. Output: a C header defining help_text[].
#
#   SYNOPSIS             -> "Usage:" lines (one per .br)
#   COMMANDS, OPTIONS,
#   EXIT STATUS          -> each .TP entry: its tag, then the first
#                           sentence of its text, wrapped
#
# and help_cmds[], one per command ("magic-kfunc help CMD", "CMD help"):
# the command's usage lines and its COMMANDS entries in full.
#
# Knows only the man macros the page uses (see the page's header); POSIX
# awk (mawk, gawk, busybox) is enough.

function unescape(s) {
	gsub(/\\f[BIRP]/, "", s)
	gsub(/\\-/, "-", s)
	gsub(/\\&/, "", s)
	gsub(/\\e/, "\\", s)
	return s
}

# Split macro arguments, honouring "double quoted" ones.
function args(line, out,    n, s, a) {
	n = 0
	s = line
	sub(/^\.[A-Za-z]+[ \t]*/, "", s)
	while (length(s) > 0) {
		if (substr(s, 1, 1) == "\"") {
			s = substr(s, 2)
			a = index(s, "\"")
			if (a == 0) a = length(s) + 1
			out[++n] = substr(s, 1, a - 1)
			s = substr(s, a + 1)
		} else {
			a = match(s, /[ \t]/)
			if (a == 0) a = length(s) + 1
			out[++n] = substr(s, 1, a - 1)
			s = substr(s, a)
		}
		sub(/^[ \t]+/, "", s)
	}
	return n
}

# A line of the page as plain text ("" for macros that print nothing).
function text(line,    m, n, i, a, r, sep) {
	if (line !~ /^\./)
		return unescape(line)
	m = line
	sub(/[ \t].*/, "", m)
	n = args(line, a)
	# .B and .I join their words with spaces, .BR and friends without.
	sep = (m == ".B" || m == ".I") ? " " : ""
	if (m == ".B" || m == ".I" || m == ".BR" || m == ".BI" || m == ".IR" || \
	    m == ".IB" || m == ".RB" || m == ".RI") {
		r = ""
		for (i = 1; i <= n; i++)
			r = r (i > 1 ? sep : "") a[i]
		return unescape(r)
	}
	return ""
}

function join(acc, t) {
	if (t == "") return acc
	if (acc == "") return t
	return acc " " t
}

function cstr(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return s
}

function emit(s) {
	if (sink != "")
		cmdtext[sink] = cmdtext[sink] s "\n"
	else
		print "\t\"" cstr(s) "\\n\""
}

# The command a usage line or a COMMANDS tag is about: its first word
# that is not the program, an option group or punctuation.
function cmd_of(s,    n, w, i) {
	n = split(s, w, " ")
	for (i = 1; i <= n; i++)
		if (w[i] ~ /^[a-z]+$/ && w[i] != "magic-kfunc")
			return w[i]
	return ""
}

# The first sentence: up to the first ". " or the final ".".
function first_sentence(s,    i) {
	i = index(s, ". ")
	if (i > 0)
		return substr(s, 1, i)
	return s
}

# Fill words into lines of at most 78 columns: the first line starts
# with lead, the others with indent.
function wrap(s, lead, indent,    n, w, i, line, fresh) {
	n = split(s, w, " ")
	line = lead
	fresh = 1
	for (i = 1; i <= n; i++) {
		if (!fresh && length(line) + 1 + length(w[i]) > 78) {
			emit(line)
			line = indent
			fresh = 1
		}
		line = fresh ? line w[i] : line " " w[i]
		fresh = 0
	}
	if (!fresh)
		emit(line)
}

function flush_usage(    cmd) {
	if (usage == "") return
	emit((nusage++ ? "       " : "Usage: ") usage)
	cmd = cmd_of(usage)
	if (cmd != "" && !(cmd in cmdusage)) {
		cmdusage[cmd] = usage
		cmds[++ncmds] = cmd
	}
	usage = ""
}

function flush_item(    cmd) {
	if (tag == "") return
	# A command's entry in full, for its own help.
	cmd = section == "COMMANDS" ? cmd_of(tag) : ""
	if (cmd != "") {
		sink = cmd
		emit("  " tag)
		wrap(body, "        ", "        ")
		sink = ""
	}
	body = first_sentence(body)
	# Short tags share the line with their text, as in usage messages.
	if (length(tag) < 6)
		wrap(body, sprintf("  %-6s", tag), "        ")
	else {
		emit("  " tag)
		wrap(body, "        ", "        ")
	}
	tag = ""
	body = ""
	intag = 0
}

BEGIN {
	print "/* Generated from magic-kfunc.8 by man2help.awk: edit the man page. */"
	print "static const char help_text[] ="
}

/^\.\\"/ { next }

/^\.SH/ {
	flush_usage()
	flush_item()
	n = args($0, a)
	section = a[1]
	for (i = 2; i <= n; i++) section = section " " a[i]
	if (section == "COMMANDS") { emit(""); emit("Commands:") }
	else if (section == "OPTIONS") { emit(""); emit("Options:") }
	else if (section == "EXIT STATUS") { emit(""); emit("Exit status:") }
	next
}

section == "SYNOPSIS" {
	if ($0 ~ /^\.br/) flush_usage()
	else usage = join(usage, text($0))
	next
}

section == "COMMANDS" || section == "OPTIONS" || section == "EXIT STATUS" {
	if ($0 ~ /^\.TP/) { flush_item(); intag = 1; next }
	if ($0 ~ /^\.(PP|LP|P)([ \t]|$)/) { flush_item(); next }
	if (intag) { tag = text($0); intag = 0; next }
	if (tag != "") body = join(body, text($0))
	next
}

END {
	flush_usage()
	flush_item()
	emit("")
	emit("See magic-kfunc(8) for the details.")
	print "\t;"
	print ""
	print "static const struct help_cmd {"
	print "\tconst char *name;"
	print "\tconst char *text;"
	print "} help_cmds[] = {"
	for (i = 1; i <= ncmds; i++) {
		c = cmds[i]
		print "\t{ \"" c "\","
		print "\t  \"Usage: magic-kfunc " cstr(substr(cmdusage[c], index(cmdusage[c], " ") + 1)) "\\n\""
		print "\t  \"\\n\""
		n = split(cmdtext[c], lines, "\n")
		for (j = 1; j < n; j++)
			print "\t  \"" cstr(lines[j]) "\\n\""
		print "\t  \"\\nOptions: magic-kfunc help. See magic-kfunc(8) for the details.\\n\" },"
	}
	print "};"
}
