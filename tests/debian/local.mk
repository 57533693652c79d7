# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# The Debian packages (debian/): built from a copy of the tree with
# dpkg-buildpackage, checked with lintian, unpacked into a scratch root
# and linked against (tests/debian/debian-test). Not in TESTS: a package
# build runs "make check" itself. "make check-debian" runs it; so does
# .ci/run.

debian_files = debian/changelog debian/control debian/copyright debian/rules \
	debian/source/format debian/not-installed debian/libmagic-kfunc0.symbols \
	debian/libmagic-kfunc0.install debian/libmagic-kfunc-dev.install \
	debian/magic-kfunc.install
EXTRA_DIST += tests/debian/debian-test scripts/build-debs $(debian_files)

check-debian:
	@MKF_SRCDIR='$(abs_top_srcdir)' $(srcdir)/tests/debian/debian-test
.PHONY: check-debian
