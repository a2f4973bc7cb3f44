#!/bin/sh
# `make && make install PREFIX=/usr DESTDIR=...`, in that order, installs a program that
# finds its catalog: run from another folder with GPUPLAN_CATALOG unset, the installed
# gpuplan reports on a shipped scenario; it was rebuilt for /usr (not /usr/local); the man
# pages, completions, example scenarios and seed_cases.md are installed; `make uninstall`
# removes all of it.
# The tree and its build are copied to a temporary folder first (timestamps kept, so only
# what the new PREFIX changes is rebuilt), so the build the other tests run is untouched.
# Run from anywhere: sh tests/install/run-install.sh
. "$(dirname "$0")/../lib.sh"
top=$PWD
scratch install
ERR=$T/err
MAKE=${MAKE:-make}
command -v "$MAKE" >/dev/null 2>&1 || { echo "FAIL: no $MAKE"; exit 1; }

# the tree: what `make` and `make install` read, and the build, as they are
mkdir -p "$T/tree" "$T/dest" "$T/elsewhere" "$T/home" "$T/alone"
cp -pR Makefile src ui cli catalog man contrib scenarios "$T/tree/" || exit 1
[ -f config.mk ] && cp -p config.mk "$T/tree/"
if [ -d build ] && [ -f gpuplan ]; then
	mkdir -p "$T/tree/build"
	for d in build/src build/ui build/cli build/libgpuplan.a build/config.stamp; do
		[ -e "$d" ] && cp -pR "$d" "$T/tree/build/"
	done
	cp -p gpuplan "$T/tree/"
fi

# the order of the issue: a default build, then install with another PREFIX
if ! $MAKE -C "$T/tree" -j2 >"$T/log" 2>&1; then bad "make in a copy of the tree"; cat "$T/log"; exit 1; fi
if $MAKE -C "$T/tree" install PREFIX=/usr DESTDIR="$T/dest" >"$T/log" 2>&1; then ok
else
	bad "make install PREFIX=/usr DESTDIR=..."
	cat "$T/log"
	exit 1
fi
G=$T/dest/usr/bin/gpuplan
[ -x "$G" ] && ok || bad "no $G"

# the paths compiled in are the install's
if grep -aq '/usr/share/gpuplan' "$G" && ! grep -aq '/usr/local/share/gpuplan' "$G"; then ok
else bad "the installed program was not rebuilt for PREFIX=/usr"; fi
# alone, away from its share/, it names /usr/share/gpuplan as the place it looked
cp "$G" "$T/alone/gpuplan"
if [ ! -f /usr/share/gpuplan/gpus.yaml ]; then
	(cd "$T/elsewhere" && env -u GPUPLAN_CATALOG HOME="$T/home" XDG_CONFIG_HOME="$T/home" \
		"$T/alone/gpuplan" catalog >"$T/out" 2>"$T/err")
	st=$?
	[ $st = 1 ] && grep -q "no catalog found.*/usr/share/gpuplan" "$T/err" && ok ||
		bad "a program alone says it looked in /usr/share/gpuplan (exit $st)"
fi

# the installed program, from another folder, by path and through $PATH: ../share/gpuplan
scenario=$top/scenarios/seed-12-70b-full-training-8xh100.yaml
[ -f "$scenario" ] || scenario=$(ls "$top"/scenarios/*.yaml | head -1)
for how in path PATH; do
	(
		cd "$T/elsewhere" || exit 1
		unset GPUPLAN_CATALOG
		export HOME="$T/home" XDG_CONFIG_HOME="$T/home"
		if [ $how = PATH ]; then PATH=$T/dest/usr/bin:$PATH gpuplan report "$scenario"
		else "$G" report "$scenario"; fi
	) >"$T/out" 2>"$T/err"
	st=$?
	if [ $st = 0 ] && grep -q 'MEMORY PER GPU' "$T/out"; then ok
	else bad "the installed gpuplan report (run by $how) exited $st"; fi
done
(cd "$T/elsewhere" && env -u GPUPLAN_CATALOG HOME="$T/home" XDG_CONFIG_HOME="$T/home" \
	"$G" catalog models >"$T/out" 2>"$T/err") && grep -q 'llama-2-7b' "$T/out" && ok ||
	bad "the installed catalog lists the shipped models"

# what else is installed
for f in usr/share/man/man1/gpuplan.1 usr/share/man/man5/gpuplan-scenario.5 usr/share/man/man5/gpuplan-catalog.5 \
	usr/share/gpuplan/gpus.yaml usr/share/bash-completion/completions/gpuplan \
	usr/share/zsh/vendor-completions/_gpuplan usr/share/fish/vendor_completions.d/gpuplan.fish \
	usr/share/doc/gpuplan/examples/seed_cases.md usr/share/doc/gpuplan/examples/default.yaml; do
	[ -f "$T/dest/$f" ] && ok || bad "make install: no /$f"
done
# explain's sources cite "seed case N": the cases are installed beside the scenarios
cmp -s "$T/dest/usr/share/doc/gpuplan/examples/seed_cases.md" scenarios/seed_cases.md && ok ||
	bad "the installed seed_cases.md is not scenarios/seed_cases.md"
cmp -s "$T/dest/usr/share/bash-completion/completions/gpuplan" contrib/gpuplan.bash && ok ||
	bad "the installed bash completion is not contrib/gpuplan.bash"

# uninstall leaves nothing behind but folders
if $MAKE -C "$T/tree" uninstall PREFIX=/usr DESTDIR="$T/dest" >"$T/log" 2>&1; then ok
else bad "make uninstall"; cat "$T/log"; fi
left=$(find "$T/dest" ! -type d | sed "s|^$T/dest||")
[ -z "$left" ] && ok || bad "make uninstall left:$(echo $left)"

summary install
