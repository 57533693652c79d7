# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Shared reporting for shell tests: one line per case, then the closing
# line "N passed, N failed, N skipped" and an automake exit status.
#
# A skip must say why. With MKF_STRICT=1 (set by .ci/run) a skip is
# counted as a failure: in CI a missing prerequisite is a defect.

t_pass=0
t_failn=0
t_skipn=0

t_ok() { t_pass=$((t_pass + 1)); printf 'ok   %s\n' "$*"; }

t_fail() { t_failn=$((t_failn + 1)); printf 'FAIL %s\n' "$*"; }

t_skip() {
	if [ "${MKF_STRICT:-0}" = 1 ]; then
		t_fail "$* (skipped, but MKF_STRICT=1 makes a skip a failure)"
	else
		t_skipn=$((t_skipn + 1))
		printf 'SKIP %s\n' "$*"
		printf '*** SKIPPED: %s\n' "$*" >&2
	fi
}

# t_check NAME CMD...: run CMD, pass if it exits 0.
t_check() {
	local name=$1
	shift
	if "$@"; then t_ok "$name"; else t_fail "$name"; fi
}

t_done() {
	printf '%d passed, %d failed, %d skipped\n' "$t_pass" "$t_failn" "$t_skipn"
	if [ "$t_failn" -gt 0 ]; then exit 1; fi
	if [ "$t_pass" -eq 0 ] && [ "$t_skipn" -gt 0 ]; then exit 77; fi
	if [ "$t_pass" -eq 0 ]; then
		echo "no test case ran" >&2
		exit 1
	fi
	exit 0
}
