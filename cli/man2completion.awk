# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# man2completion.awk: make the tool's bash completion from its man page,
# the one source of its help too (man2help.awk), so commands and options
# cannot drift apart. SYNOPSIS gives the commands, OPTIONS the options;
# an option whose tag names a DIR completes directories, one naming
# another upper-case word (FILE, OUT) files, one naming a word with a
# slash (I/N) nothing.

function unescape(s) {
	gsub(/\\f[BIRP]/, "", s)
	gsub(/\\-/, "-", s)
	gsub(/\\&/, "", s)
	gsub(/"/, "", s)
	return s
}

# The first lower-case word of a usage line that is not the program.
function cmd_of(s,    n, w, i) {
	n = split(s, w, /[ \t]+/)
	for (i = 1; i <= n; i++)
		if (w[i] ~ /^[a-z]+$/ && w[i] != "magic-kfunc")
			return w[i]
	return ""
}

function add_tag(s,    n, w, i, names, arg) {
	s = unescape(s)
	sub(/^\.[A-Z]+[ \t]*/, "", s)
	gsub(/,/, " ", s)
	n = split(s, w, /[ \t]+/)
	names = ""
	arg = ""
	for (i = 1; i <= n; i++) {
		if (w[i] ~ /^-/)
			names = names (names == "" ? "" : " ") w[i]
		else if (w[i] ~ /^[A-Z]+(\/[A-Z]+)?$/)
			arg = w[i]
	}
	if (names == "")
		return
	opts = opts (opts == "" ? "" : " ") names
	if (arg == "DIR")
		dir_opts = dir_opts (dir_opts == "" ? "" : "|") names
	else if (arg ~ /\//)
		word_opts = word_opts (word_opts == "" ? "" : "|") names
	else if (arg != "")
		file_opts = file_opts (file_opts == "" ? "" : "|") names
}

/^\.\\"/ { next }
/^\.SH/ { section = $2; next }
section == "SYNOPSIS" && /^\.B[ \t]/ {
	c = cmd_of(unescape($0))
	if (c != "" && !(c in seen)) {
		seen[c] = 1
		cmds = cmds (cmds == "" ? "" : " ") c
	}
	next
}
section == "OPTIONS" && /^\.TP/ { tagnext = 1; next }
section == "OPTIONS" && tagnext { tagnext = 0; add_tag($0); next }

END {
	gsub(/ /, "|", dir_opts)
	gsub(/ /, "|", file_opts)
	gsub(/ /, "|", word_opts)
	print "# Generated from magic-kfunc.8 by man2completion.awk: edit the man page."
	print "# bash completion for magic-kfunc(8)."
	print "_magic_kfunc()"
	print "{"
	print "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} i cmd="
	print "\tCOMPREPLY=()"
	print "\tcase $prev in"
	print "\t" dir_opts ") COMPREPLY=($(compgen -d -- \"$cur\")); return ;;"
	print "\t" file_opts ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;"
	print "\t" word_opts ") return ;;"
	print "\tesac"
	print "\tif [[ $cur == -* ]]; then"
	print "\t\tCOMPREPLY=($(compgen -W \"" opts "\" -- \"$cur\"))"
	print "\t\treturn"
	print "\tfi"
	print "\t# The command: the first word that is neither an option nor its argument."
	print "\tfor ((i = 1; i < COMP_CWORD; i++)); do"
	print "\t\tcase ${COMP_WORDS[i]} in"
	print "\t\t" dir_opts "|" file_opts "|" word_opts ") ((i++)) ;;"
	print "\t\t-*) ;;"
	print "\t\t*) cmd=${COMP_WORDS[i]}; break ;;"
	print "\t\tesac"
	print "\tdone"
	print "\tcase $cmd in"
	print "\t\"\" | help) COMPREPLY=($(compgen -W \"" cmds " help\" -- \"$cur\")) ;;"
	print "\t# vm's own word, before its objects."
	print "\tvm) [[ ${COMP_WORDS[COMP_CWORD-1]} == vm ]] && COMPREPLY=($(compgen -W merge -- \"$cur\"))"
	print "\t\tCOMPREPLY+=($(compgen -f -- \"$cur\")) ;;"
	print "\t*) COMPREPLY=($(compgen -f -- \"$cur\")) ;;"
	print "\tesac"
	print "}"
	print "complete -F _magic_kfunc magic-kfunc"
}
