# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Shell helpers shared by the scripts of scripts/ (sourced, not run).

# copy_sources SRC DEST: the project's sources into the existing
# directory DEST, without build outputs: in a git checkout, tracked
# files and new ones not ignored (a build in SRC leaves its outputs
# there); in a release tarball, every file.
copy_sources() {
	local from=$1 to=$2

	if git -C "$from" rev-parse --git-dir > /dev/null 2>&1; then
		(cd "$from" && git ls-files -z -co --exclude-standard) |
			(cd "$from" && tar --null -T - -cf -) | tar -C "$to" -xf -
	else
		tar -C "$from" --exclude=.git -cf - . | tar -C "$to" -xf -
	fi
}
