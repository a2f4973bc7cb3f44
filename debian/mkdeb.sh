#!/bin/sh
# `make deb`: a Debian binary package of gpuplan built with dpkg-deb alone (no debhelper):
# `make install PREFIX=/usr` into a staging root (so the program looks in /usr/share/gpuplan
# and the completions go to Debian's vendor folders), the man pages gzipped as Debian
# policy 12.1 asks, the shipped scenarios and seed_cases.md (which explain's "seed case N"
# cites) as examples under /usr/share/doc/gpuplan (make install's DOCDIR), and a
# control file whose Depends are the packages that own the shared libraries the program
# links (dpkg -S over ldd). The build uses its own folder, so the tree's ./gpuplan stays
# built for its PREFIX.
# Usage (from the top of the tree): sh debian/mkdeb.sh OUT.deb; VERSION, ARCH, MAKE from make.
set -eu
out=$1
version=${VERSION:?}
arch=${ARCH:-$(dpkg --print-architecture)}
make=${MAKE:-make}
stage=build-deb # not under build/: the Makefile includes every *.d there
root=$stage/root
rm -rf "$root"
mkdir -p "$root"
$make --no-print-directory B=$stage/build BIN=$stage/build/gpuplan PREFIX=/usr \
	DESTDIR="$PWD/$root" install >"$stage/install.log"
doc=$root/usr/share/doc/gpuplan
mkdir -p "$root/DEBIAN"
cp README.md "$doc/"
gzip -9n "$doc/README.md"
gzip -9n "$root/usr/share/man/man1/gpuplan.1" "$root/usr/share/man/man5/gpuplan-scenario.5" \
	"$root/usr/share/man/man5/gpuplan-catalog.5"
cat >"$doc/copyright" <<EOT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: gpuplan
Comment: GPU capacity planner; catalog/models holds Hugging Face config.json files as
 published by their model authors, catalog/gpus.yaml figures from the vendors' datasheets
 (each entry names its source).
EOT
deps=$(ldd "$root/usr/bin/gpuplan" | awk '$3 ~ /^\// { print $3 }' |
	while read -r lib; do dpkg -S "$(readlink -f "$lib")" 2>/dev/null ||
		dpkg -S "$lib" 2>/dev/null || true; done |
	cut -d: -f1 | sort -u | paste -sd, - | sed 's/,/, /g')
size=$(du -sk "$root/usr" | cut -f1)
cat >"$root/DEBIAN/control" <<EOT
Package: gpuplan
Version: $version
Architecture: $arch
Maintainer: gpuplan developers <gpuplan@localhost>
Installed-Size: $size
Depends: ${deps:-libc6}
Section: utils
Priority: optional
Description: GPU capacity planner for LLM training and inference
 Memory fit, training time, serving capacity under an SLO, cost and the binding
 bottleneck of a model on a GPU cluster, from a YAML scenario: a terminal UI and a
 command line (report, explain, diff, search, solve, sweep, import, check, fmt).
EOT
find "$root" -type d -exec chmod 755 {} +
find "$root/usr/share" -type f -exec chmod 644 {} +
dpkg-deb --root-owner-group --build "$root" "$out" >/dev/null
echo "$out"
