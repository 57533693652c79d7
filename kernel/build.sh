#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# Build the patched Linux 6.12 of magic-kfunc: Debian's linux-source-6.12
# plus kernel/patches/series, configured with kernel/config/*.config.
#
# Everything happens in a cache outside the source checkout:
#
#   $CACHE/kernel/src-<srcver>-<key>/    kernel tree, a git repository:
#                                        "pristine" commit + the series
#       obj/            kbuild output tree (O=obj): inside the tree, kbuild
#                       names every source relative to it, so a copy of a
#                       built tree builds incrementally (see derive_tree)
#   $CACHE/kernel/build-<srcver>-<key>/  build output directory:
#       obj             a link to the tree's obj/ (a build made before the
#                       move keeps its own obj/ here)
#       bzImage vmlinux vmlinux.h vmlinux.btf
#       config          final .config
#       source-version  Debian version of linux-source-6.12
#       kernel-release  the release (kbuild's include/config/kernel.release)
#       series          the patches applied, in order
#       modules/        out-of-tree modules (--module, kernel/testmod)
#   $CACHE/kernel/perpatch-<srcver>/     --per-patch work tree
#
# CACHE is $MAGIC_KFUNC_CACHE, else $XDG_CACHE_HOME/magic-kfunc, else
# ~/.cache/magic-kfunc. <key> hashes the source version, the series, the
# patches, the config fragments and BUILD_RECIPE below, so any change to
# them gives a fresh tree; an unchanged rerun returns at once.

set -euo pipefail

# Bump when the way the kernel is built changes in a way the key cannot see.
BUILD_RECIPE=1

here=$(cd "$(dirname "$0")" && pwd)
patchdir=$here/patches
series=$patchdir/series
configdir=$here/config
cache=${MAGIC_KFUNC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/magic-kfunc}/kernel
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
srcpkg=linux-source-6.12
bpftool=${BPFTOOL:-$(command -v bpftool || echo /usr/sbin/bpftool)}
jobs=$(nproc 2>/dev/null || echo 2)
# Commits in the cache trees: a fixed identity, and no automatic gc of
# these large, short-lived repositories.
git_id=(-c user.name="magic-kfunc developers" -c user.email="dev@magic-kfunc.invalid"
	-c gc.auto=0)

mode=build
modules=()
prune=0
# patched: the series applied; stock: the pristine tree, same config (the
# baseline that compatibility and regression tests compare against);
# debug: the series with config-debug/*.config on top (SMP, KASAN, lockdep,
# kmemleak); large: the series on defconfig instead of tinyconfig, with
# config-large/*.config on top (a vmlinux BTF of a distribution's size,
# for measuring what grows with it).
variant=patched

usage() {
	cat <<EOF
Usage: $0 [options]

Build the patched kernel (incrementally) into the cache.

  --print-dir      print the build output directory and exit
  --per-patch      apply the series one patch at a time, building the
                   kernel (and running checkpatch) after each; report
                   every patch's result
  --checkpatch     run scripts/checkpatch.pl --strict on every patch (in
                   the extracted tree, no build); fail on any error
  --jobs N         parallel make jobs (default: $jobs)
  --module DIR     also build the out-of-tree module in DIR against the
                   kernel (repeatable; kernel/testmod is built if present)
  --stock          build the pristine tree (no patches, no test module)
                   with the same config, into a build directory of its own
  --debug          build the series with the debug fragments of
                   kernel/config-debug as well, into a directory of its own
  --large          build the series on defconfig (not tinyconfig) with the
                   fragments of kernel/config-large as well, into a
                   directory of its own: a much larger vmlinux BTF
  --prune          remove cached trees of other keys
  -h, --help       this text

Environment: MAGIC_KFUNC_CACHE, XDG_CACHE_HOME, LINUX_SOURCE_TARBALL, BPFTOOL
EOF
}

die() {
	echo "kernel/build.sh: error: $*" >&2
	exit 1
}

note() {
	echo "kernel/build.sh: $*" >&2
}

while [ $# -gt 0 ]; do
	case $1 in
	--print-dir) mode=print-dir ;;
	--per-patch) mode=per-patch ;;
	--checkpatch) mode=checkpatch ;;
	--jobs) [ $# -ge 2 ] || die "--jobs needs a number"; jobs=$2; shift ;;
	--jobs=*) jobs=${1#--jobs=} ;;
	--module) [ $# -ge 2 ] || die "--module needs a directory"; modules+=("$2"); shift ;;
	--module=*) modules+=("${1#--module=}") ;;
	--prune) prune=1 ;;
	--stock) variant=stock ;;
	--debug) variant=debug ;;
	--large) variant=large ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; die "unknown option: $1" ;;
	esac
	shift
done
case $jobs in
''|*[!0-9]*|0) die "--jobs: not a positive number: $jobs" ;;
esac
[ $variant = patched ] || [ $mode = build ] || [ $mode = print-dir ] ||
	die "--$variant builds a variant: no --per-patch or --checkpatch"

# --- inputs -------------------------------------------------------------

[ -f "$series" ] || die "missing $series"
[ -r "$tarball" ] || die "missing $tarball (install the $srcpkg package)"

# The patches named in the series, in order ('#' starts a comment).
patches=()
while read -r line; do
	line=${line%%#*}
	line=${line//[[:space:]]/}
	[ -n "$line" ] || continue
	[ -f "$patchdir/$line" ] || die "series names $line, which is not in $patchdir"
	patches+=("$line")
done < "$series"
[ $variant != stock ] || patches=()

configs=("$configdir"/*.config)
[ -f "${configs[0]}" ] || die "no config fragment in $configdir"
[ $variant != debug ] || configs+=("$here"/config-debug/*.config)
[ $variant != large ] || configs+=("$here"/config-large/*.config)
# The configuration the fragments are merged into. The variant is part of
# the build key, so the base needs no entry of its own there.
base_config=tinyconfig
[ $variant != large ] || base_config=defconfig

# Debian version of the source package, e.g. 6.12.118-1~deb12u1.
source_version() {
	local v
	v=$(dpkg-query -W -f='${Version}' "$srcpkg" 2>/dev/null || true)
	if [ -z "$v" ] && [ -r "/usr/share/doc/$srcpkg/changelog.Debian.gz" ]; then
		v=$(zcat "/usr/share/doc/$srcpkg/changelog.Debian.gz" |
		    sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p')
	fi
	[ -n "$v" ] || die "cannot tell the version of $srcpkg"
	echo "$v"
}
srcver=$(source_version)
# Safe in a file name: Debian versions may hold '~' and ':'.
srcver_tag=$(echo "$srcver" | tr ':~' '__')

# The build key of variant $1 (stock takes no patches).
build_key() {
	local v=$1 p
	{
		echo "recipe $BUILD_RECIPE"
		echo "source $srcpkg $srcver"
		echo "variant $v"
		echo "series"
		if [ "$v" != stock ]; then
			cat "$series"
			for p in "${patches[@]}"; do
				echo "patch $p"
				cat "$patchdir/$p"
			done
		fi
		for p in "${configs[@]}"; do
			echo "config ${p##*/}"
			cat "$p"
		done
	} | sha256sum | cut -c1-16
}
key=$(build_key $variant)

vtag=
[ $variant = patched ] || vtag=$variant-
src=$cache/src-$vtag$srcver_tag-$key
bdir=$cache/build-$vtag$srcver_tag-$key
obj=$src/obj
# An output tree of its own: made before obj/ moved into the kernel tree.
# Same kernel, so it is kept, not rebuilt.
[ ! -d "$bdir/obj" ] || [ -L "$bdir/obj" ] || obj=$bdir/obj

if [ "$mode" = print-dir ]; then
	echo "$bdir"
	exit 0
fi

mkdir -p "$cache"

# One run per cache, mode and variant at a time: per-patch and each
# variant have trees of their own (and --prune removes only its own
# variant's), so a long --large or --debug build does not hold up a build
# or an up-to-date check of the patched kernel.
if [ "$mode" = per-patch ]; then
	exec 9> "$cache/.lock-per-patch"
elif [ $variant = patched ]; then
	exec 9> "$cache/.lock"
else
	exec 9> "$cache/.lock-$variant"
fi
flock 9

# --- source tree ----------------------------------------------------------

# Extract the pristine tree as a git repository whose first commit is
# tagged "pristine".
extract() {
	local dest=$1 tmp=$1.tmp

	note "extracting $tarball into $dest"
	rm -rf "$tmp" "$dest"
	mkdir -p "$tmp"
	tar -xf "$tarball" -C "$tmp" --strip-components=1
	# Debian's top-level .gitignore ignores everything: add with -f.
	git -C "$tmp" init -q
	git -C "$tmp" config gc.auto 0
	git -C "$tmp" add -f -A .
	git -C "$tmp" "${git_id[@]}" commit -q -m "$srcpkg $srcver (pristine)"
	git -C "$tmp" tag pristine
	mv "$tmp" "$dest"
}

# Apply one patch with git am. On failure, show which hunks do not apply,
# abort the am and return 1.
apply_patch() {
	local tree=$1 patch=$2 out

	if out=$(git -C "$tree" "${git_id[@]}" am "$patch" 2>&1); then
		return 0
	fi
	{
		echo "kernel/build.sh: patch ${patch##*/} does not apply:"
		echo "$out" | grep -E '^(error|Patch failed)' | sed 's/^/    /'
		echo "kernel/build.sh: hunk by hunk (git apply --check --verbose):"
		git -C "$tree" apply --check --verbose "$patch" 2>&1 | sed 's/^/    /'
	} >&2
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	return 1
}

# Fragment lines as "CONFIG_X=v", "# CONFIG_X is not set" meaning =n.
fragment_lines() {
	cat "${configs[@]}" |
		sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' \
		       -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p'
}

# Configure $1 (objtree) from $2 (srctree): tinyconfig (defconfig for
# --large) + fragments + olddefconfig, then check that every fragment
# option took effect.
configure() {
	local o=$1 s=$2 line opt val missing=0

	note "configuring $o"
	mkdir -p "$o"
	tmake -s -C "$s" O="$o" $base_config >/dev/null
	"$s/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" "${configs[@]}" >/dev/null
	tmake -s -C "$s" O="$o" olddefconfig >/dev/null
	while read -r line; do
		opt=${line%%=*}
		val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$o/.config" || continue
		else
			grep -qxF -- "$line" "$o/.config" && continue
		fi
		echo "kernel/build.sh: $line did not take effect, .config has: $(grep "^$opt=\|^# $opt is not set" "$o/.config" || echo '(nothing)')" >&2
		missing=1
	done < <(fragment_lines)
	[ $missing = 0 ] || die "the kernel config lacks required options (dependencies missing?)"
}

# make, deaf to a make that may have started this script ("make check",
# "make kernel"): its MAKEFLAGS would add -w, whose "Entering directory"
# lines land in captured output, and lend its jobserver.
tmake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES make --no-print-directory "$@"
}

kmake() {
	local o=$1 s=$2
	shift 2
	# LOCALVERSION set (even empty) keeps the tree's git state out of
	# the release string.
	tmake -C "$s" O="$o" -j"$jobs" LOCALVERSION= "$@"
}

build_modules() {
	local o=$1 s=$2 dest=$3 dir name
	local dirs=("${modules[@]}")

	# The test module uses the series' KF_MAGIC_ARGS.
	if [ $variant != stock ] &&
	   { [ -f "$here/testmod/Kbuild" ] || [ -f "$here/testmod/Makefile" ]; }; then
		dirs+=("$here/testmod")
	fi
	[ ${#dirs[@]} -gt 0 ] || return 0
	mkdir -p "$dest"
	for dir in "${dirs[@]}"; do
		[ -d "$dir" ] || die "--module: no directory $dir"
		dir=$(cd "$dir" && pwd)
		name=${dir##*/}
		# Build a copy: no build output in the source checkout. cp -a
		# keeps mtimes, so kbuild stays incremental.
		mkdir -p "$dest/$name.build"
		cp -a "$dir/." "$dest/$name.build/"
		note "building module $name"
		make -C "$o" -j"$jobs" M="$dest/$name.build" modules
		find "$dest/$name.build" -name '*.ko' -exec cp -f {} "$dest/" \;
	done
}

# checkpatch.pl --strict on one patch: print its "total:" line, without
# the prefix, followed by the types of its warnings, if any, in
# parentheses ("0 errors, 1 warnings, 0 checks (FILE_PATH_CHANGES)"), and
# its findings on stderr. Nothing is ignored: the line is what checkpatch
# says.
checkpatch_one() {
	local tree=$1 patch=$2 out total types

	out=$(cd "$tree" && ./scripts/checkpatch.pl --strict --show-types "$patch" 2>&1) || true
	echo "$out" | grep -E -A2 '^(ERROR|WARNING|CHECK):' | sed 's/^/    /' >&2 || true
	total=$(echo "$out" | sed -n 's/^total: \(.*\), [0-9]* lines checked$/\1/p')
	types=$(echo "$out" | sed -n 's/^WARNING:\([A-Z_]*\):.*/\1/p' | sort -u | paste -sd, -)
	echo "$total${types:+ ($types)}"
}

# The patched tree as a copy of a finished stock build (same source, same
# config), its kbuild output included, into $1: the series applied on top
# touches a few files, and kbuild recompiles what depends on them (with
# this config, under half of the objects) instead of the whole kernel.
# Fails, leaving nothing, when there is no such build to copy.
derive_tree() {
	local dest=$1 skey ssrc sbdir

	[ $variant = patched ] || return 1
	skey=$(build_key stock)
	ssrc=$cache/src-stock-$srcver_tag-$skey
	sbdir=$cache/build-stock-$srcver_tag-$skey
	(
		# No stock build may change it while it is copied.
		exec 8> "$cache/.lock-stock"
		flock 8
		[ -f "$sbdir/.built" ] && [ "$(cat "$sbdir/.built")" = "$skey" ] &&
			[ -f "$ssrc/obj/.magic-kfunc-configured" ] || exit 1
		note "copying the built stock tree $ssrc into $dest"
		rm -rf "$dest"
		cp -a "$ssrc" "$dest"
	) || { rm -rf "$dest"; return 1; }
	rm -f "$dest/.git/magic-kfunc-applied"
	# What tools/'s own build system made (objtool, resolve_btfids and the
	# libbpf it links) records its sources by absolute path, the stock
	# tree's: make would not see the series change them. Built again.
	rm -rf "$dest/obj/tools"
}

# Extract the tree (or copy a built stock one) and apply the series unless
# an earlier run did. A tree without the "applied" mark is left over from
# an interrupted run.
ensure_tree() {
	local applied=$src/.git/magic-kfunc-applied tmp=$src.tmp n=0 p

	[ ! -f "$applied" ] || return 0
	if derive_tree "$tmp"; then
		rm -rf "$src"
		mv "$tmp" "$src"
	else
		extract "$src"
	fi
	for p in "${patches[@]}"; do
		n=$((n + 1))
		note "applying [$n/${#patches[@]}] $p"
		apply_patch "$src" "$patchdir/$p" ||
			die "patch $n ($p) failed to apply to $srcpkg $srcver"
	done
	printf '%s\n' "${patches[@]}" > "$applied"
}

# --- per-patch (bisectability) mode --------------------------------------

if [ "$mode" = per-patch ]; then
	tree=$cache/perpatch-$srcver_tag
	ptree=$tree/src
	pobj=$tree/obj
	if [ ! -e "$ptree/.git/refs/tags/pristine" ]; then
		mkdir -p "$tree"
		extract "$ptree"
	fi
	# Back to pristine; untouched files keep their mtimes, so the builds
	# below stay incremental across runs.
	git -C "$ptree" am --abort >/dev/null 2>&1 || true
	git -C "$ptree" reset -q --hard pristine
	git -C "$ptree" clean -q -fdx
	# Unchanged options leave kbuild's view of the config alone.
	configure "$pobj" "$ptree"

	results=()
	failed=0
	n=0
	for p in "${patches[@]}"; do
		n=$((n + 1))
		if ! apply_patch "$ptree" "$patchdir/$p"; then
			results+=("$(printf '%02d %-62s APPLY FAILED' $n "$p")")
			failed=1
			break
		fi
		cpres=$(checkpatch_one "$ptree" "$patchdir/$p")
		note "[$n/${#patches[@]}] building after $p"
		start=$(date +%s)
		if kmake "$pobj" "$ptree" bzImage vmlinux modules > "$tree/build-$n.log" 2>&1; then
			res="built in $(( $(date +%s) - start ))s"
		else
			res="BUILD FAILED (see $tree/build-$n.log)"
			tail -n 30 "$tree/build-$n.log" >&2
			failed=1
		fi
		results+=("$(printf '%02d %-62s %s; checkpatch: %s' $n "$p" "$res" "$cpres")")
	done
	echo "per-patch results ($srcpkg $srcver):"
	printf '%s\n' "${results[@]}" | tee "$tree/results"
	exit $failed
fi

# --- checkpatch ----------------------------------------------------------

if [ "$mode" = checkpatch ]; then
	ensure_tree
	failed=0
	for p in "${patches[@]}"; do
		res=$(checkpatch_one "$src" "$patchdir/$p")
		printf '%-62s %s\n' "$p" "$res"
		case $res in
		"0 errors"*) ;;
		*) failed=1 ;;
		esac
	done
	exit $failed
fi

# --- normal build --------------------------------------------------------

if [ $prune = 1 ]; then
	# Only trees of this variant: the stock and debug builds are kept.
	for d in "$cache"/src-$vtag[0-9]* "$cache"/build-$vtag[0-9]*; do
		[ -e "$d" ] || continue
		case $d in "$src"|"$bdir") continue ;; esac
		note "pruning $d"
		rm -rf "$d"
	done
fi

stamp=$bdir/.built
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] &&
   [ -f "$bdir/bzImage" ] && [ -f "$bdir/vmlinux.btf" ] && [ -f "$bdir/vmlinux.h" ]; then
	build_modules "$obj" "$src" "$bdir/modules"
	note "up to date: $bdir"
	exit 0
fi

ensure_tree

mkdir -p "$bdir"
[ "$obj" = "$bdir/obj" ] || ln -sfn "$obj" "$bdir/obj"
if [ ! -f "$obj/.magic-kfunc-configured" ]; then
	configure "$obj" "$src"
	touch "$obj/.magic-kfunc-configured"
fi

note "building in $obj with $jobs jobs"
start=$(date +%s)
# "modules" also writes Module.symvers, which out-of-tree modules need.
kmake "$obj" "$src" bzImage vmlinux modules
note "kernel built in $(( $(date +%s) - start ))s"

# Publish the outputs: write to a temporary name, then rename, so a reader
# never sees a half-written file.
publish() {
	cp -f "$1" "$bdir/.$2.tmp"
	mv -f "$bdir/.$2.tmp" "$bdir/$2"
}
publish "$obj/arch/x86/boot/bzImage" bzImage
publish "$obj/vmlinux" vmlinux
publish "$obj/.config" config
"$bpftool" btf dump file "$obj/vmlinux" format c > "$bdir/.vmlinux.h.tmp"
mv -f "$bdir/.vmlinux.h.tmp" "$bdir/vmlinux.h"
objcopy -O binary --only-section=.BTF "$obj/vmlinux" "$bdir/.vmlinux.btf.tmp"
[ -s "$bdir/.vmlinux.btf.tmp" ] || die "no .BTF in $obj/vmlinux"
chmod 644 "$bdir/.vmlinux.btf.tmp"
mv -f "$bdir/.vmlinux.btf.tmp" "$bdir/vmlinux.btf"
echo "$srcver" > "$bdir/source-version"
cp "$obj/include/config/kernel.release" "$bdir/kernel-release"
printf '%s\n' "${patches[@]}" > "$bdir/series"

build_modules "$obj" "$src" "$bdir/modules"

echo "$key" > "$stamp"
note "done: $bdir"
