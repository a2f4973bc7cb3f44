#!/bin/sh
# LANG=C draws ASCII only (the panes, the help, the picker and an explanation, with their
# frames); a UTF-8 locale draws glyphs (so the check can fail); --ascii draws ASCII only.
NAME=ascii
. "$(dirname "$0")/lib.sh"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
wait_for 'memory/gpu'
screen >"$TMP/utf8.txt"
fresh LANG=C LC_ALL=C
start_ui
wait_for 'memory/gpu'
screen >"$TMP/ascii.txt"
T send-keys '?'
wait_for 'Tab, Shift-Tab'
screen >>"$TMP/ascii.txt"
T send-keys Escape 3 g Enter
wait_for 'Choose a GPU'
screen >>"$TMP/ascii.txt"
T send-keys Escape 4 e
wait_for 'Explain'
screen >>"$TMP/ascii.txt"
ascii_only "LANG=C draws ASCII only" "$TMP/ascii.txt"
utf=$(LC_ALL=C tr -d '\000-\177' <"$TMP/utf8.txt" | wc -c)
[ "$utf" -gt 0 ] && ok "a UTF-8 locale draws glyphs" || bad "a UTF-8 locale draws glyphs"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui --ascii
wait_for 'memory/gpu'
ascii_only "--ascii draws ASCII only"
finish
