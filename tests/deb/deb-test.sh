#!/bin/sh
# The Debian package (`make deb`, debian/mkdeb.sh): built, its control file read, its files
# where Debian puts them (the program in /usr/bin, the catalog in /usr/share/gpuplan, gzipped
# man pages, bash, zsh and fish completions in their vendor folders, example scenarios and
# seed_cases.md, which explain's "seed case N" sources cite),
# unpacked into a temporary root and its gpuplan run from another folder on every example
# scenario. With DEB_INSTALL=1 (CI, as root) it is also installed with apt, the installed
# gpuplan reports on a shipped scenario, and it is removed again.
# Not run by `make test` (it builds a second program); .ci/run runs it after make test.
# Run from anywhere: sh tests/deb/deb-test.sh
. "$(dirname "$0")/../lib.sh"
top=$PWD
scratch deb
ERR=$T/err
MAKE=${MAKE:-make}

deb=$($MAKE --no-print-directory deb 2>"$T/err" | tail -1)
if [ ! -f "$deb" ]; then bad "make deb made no package"; summary deb; exit 1; fi
ok
case $deb in gpuplan_*_*.deb) ok ;; *) bad "the package is named $deb, not gpuplan_VERSION_ARCH.deb" ;; esac
git check-ignore -q "$deb" && ok || bad "$deb is not ignored by git"

dpkg-deb -f "$deb" Package Version Architecture Depends >"$T/control" 2>"$T/err" || bad "dpkg-deb -f"
grep -qx 'Package: gpuplan' "$T/control" && ok || bad "the package is not named gpuplan"
grep -q '^Depends: .*libc6' "$T/control" && ok || bad "Depends lacks libc6: $(cat "$T/control")"

root=$T/root
dpkg-deb -x "$deb" "$root" 2>"$T/err" || bad "dpkg-deb -x"
for f in usr/bin/gpuplan usr/share/gpuplan/gpus.yaml usr/share/man/man1/gpuplan.1.gz \
	usr/share/man/man5/gpuplan-scenario.5.gz usr/share/man/man5/gpuplan-catalog.5.gz usr/share/bash-completion/completions/gpuplan \
	usr/share/zsh/vendor-completions/_gpuplan usr/share/fish/vendor_completions.d/gpuplan.fish \
	usr/share/doc/gpuplan/copyright usr/share/doc/gpuplan/examples/default.yaml \
	usr/share/doc/gpuplan/examples/seed_cases.md; do
	[ -f "$root/$f" ] && ok || bad "the package lacks /$f"
done
ls "$root"/usr/share/gpuplan/models/*.json >/dev/null 2>&1 && ok || bad "no catalog models"
cmp -s "$root/usr/share/doc/gpuplan/examples/seed_cases.md" scenarios/seed_cases.md && ok ||
	bad "the package's seed_cases.md is not scenarios/seed_cases.md"
[ -x "$root/usr/bin/gpuplan" ] && ok || bad "/usr/bin/gpuplan is not executable"
gzip -t "$root/usr/share/man/man1/gpuplan.1.gz" && ok || bad "the man page is not gzip"
if dpkg-deb -c "$deb" | awk '{print $2}' | grep -qv '^root/root$'; then
	bad "a file in the package is not owned by root"
else ok; fi

# the unpacked program, from another folder, finds its catalog beside it (../share/gpuplan)
n=0
for s in "$root"/usr/share/doc/gpuplan/examples/*.yaml; do
	n=$((n + 1))
	if (cd "$T" && env -u GPUPLAN_CATALOG "$root/usr/bin/gpuplan" report "$s" >"$T/out" 2>"$T/err") &&
		grep -q 'memory' "$T/out"; then ok; else bad "the unpacked gpuplan cannot report on $s"; fi
done
[ "$n" -ge 10 ] && ok || bad "only $n example scenarios"

if [ "${DEB_INSTALL:-}" = 1 ]; then
	export DEBIAN_FRONTEND=noninteractive
	if apt-get install -y -qq "$top/$deb" >"$T/log" 2>&1; then ok; else bad "apt install ./$deb"; tail -5 "$T/log"; fi
	if (cd "$T" && env -u GPUPLAN_CATALOG gpuplan report \
		/usr/share/doc/gpuplan/examples/seed-02-7b-mixed-precision-adam.yaml >"$T/out" 2>"$T/err") &&
		grep -q 'memory' "$T/out"; then ok; else bad "the installed gpuplan cannot report"; fi
	[ "$(command -v gpuplan)" = /usr/bin/gpuplan ] && ok || bad "gpuplan is not /usr/bin/gpuplan"
	gpuplan check /usr/share/doc/gpuplan/examples/default.yaml >/dev/null 2>"$T/err" && ok ||
		bad "the installed gpuplan does not check an example"
	apt-get remove -y -qq gpuplan >"$T/log" 2>&1 && [ ! -e /usr/bin/gpuplan ] && ok ||
		bad "apt remove gpuplan left /usr/bin/gpuplan"
fi

summary deb
