# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Sourced by the guest tests that drive tests/kernel/mkf-bpftest
# (wq-test, graph-test): they build "cases" and count "nchecks".

# Turn the guest's report into this test's lines, prefixed with the
# kernel id. Its own closing line must be there and agree with what it
# printed, and it must have printed one line per expected check.
report() {
	local id=$1 rc=$2 out=$3 line closing='' seen=0 pass=0
	while IFS= read -r line; do
		case $line in
		"ok   "*) t_ok "$id: ${line#ok   }"; seen=$((seen + 1)); pass=$((pass + 1)) ;;
		"FAIL "*) t_fail "$id: ${line#FAIL }"; seen=$((seen + 1)) ;;
		[0-9]*" passed, "[0-9]*" failed") closing=$line ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <<< "$out"
	if [ -z "$closing" ] || [ "$closing" != "$pass passed, $((seen - pass)) failed" ] ||
		[ "$seen" -ne "$nchecks" ]; then
		t_fail "$id: the guest runner reported ${closing:-no closing line} after $seen of $nchecks checks (exit $rc)"
	elif { [ "$rc" -eq 0 ] && [ "$pass" -ne "$seen" ]; } || { [ "$rc" -ne 0 ] && [ "$pass" -eq "$seen" ]; }; then
		t_fail "$id: the guest runner exited $rc after $pass of $seen checks passed"
	fi
}
