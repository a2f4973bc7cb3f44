#!/bin/sh
# Checks the build dependencies; installs the missing ones when run as root on Debian,
# otherwise prints the exact apt-get line and fails.
pkgs=""
pkg-config --version >/dev/null 2>&1 || pkgs="$pkgs pkg-config"
pc() { pkg-config --exists "$1" 2>/dev/null || pkgs="$pkgs $2"; }
if command -v pkg-config >/dev/null 2>&1; then
	pc ncursesw libncurses-dev
	pc yaml-0.1 libyaml-dev
	pc libcjson libcjson-dev
	pc cmocka libcmocka-dev
else
	pkgs="$pkgs libncurses-dev libyaml-dev libcjson-dev libcmocka-dev"
fi
command -v tmux >/dev/null 2>&1 || pkgs="$pkgs tmux"
command -v groff >/dev/null 2>&1 || pkgs="$pkgs groff-base"
command -v zsh >/dev/null 2>&1 || pkgs="$pkgs zsh"
command -v fish >/dev/null 2>&1 || pkgs="$pkgs fish"
[ -z "$pkgs" ] && exit 0
line="apt-get install -y$pkgs"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "installing build dependencies:$pkgs"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null || exit 1
	exit 0
fi
echo "gpuplan needs:$pkgs" >&2
echo "run as root: $line" >&2
exit 1
