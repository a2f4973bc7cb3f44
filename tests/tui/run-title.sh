#!/bin/sh
# The title line: control characters in a name are drawn one column each, a name of wide
# characters is cut by columns, and a long name leaves room for [baseline] and the file.
NAME=title
. "$(dirname "$0")/lib.sh"
printf 'gpuplan: 1\nname: "tab\\there esc\\e[31mred\\e[0m and a name that goes on and on and on"\nmodel:\n  preset: llama-2-7b\nworkload:\n  kind: train\nhardware:\n  gpu: h100-sxm-80gb\n' >"$TMP/ctl.yaml"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui "$TMP/ctl.yaml"
# escaped as the CLI escapes them (text.c): a tab as \t, ESC as \e
screen | head -1 | grep -Eq '^ gpuplan  tab\\there esc\\e\[31mred.*(…|~)  .*ctl\.yaml$' &&
	! screen | head -1 | grep -q '\^\[' && ok "control characters in a name keep the title intact" ||
	bad "control characters in a name keep the title intact"

printf 'gpuplan: 1\nname: "训练一个大模型需要多少显卡以及多少时间和金钱呢这是一个很长的名字"\nmodel:\n  preset: llama-2-7b\nworkload:\n  kind: train\nhardware:\n  gpu: h100-sxm-80gb\n' >"$TMP/cjk.yaml"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui "$TMP/cjk.yaml"
screen | head -1 | grep -Eq '^ gpuplan  训练.*…  .*cjk\.yaml$' &&
	ok "a name of wide characters is cut by columns" || bad "a name of wide characters is cut by columns"

cp scenarios/seed-08-online-customer-service.yaml "$TMP/"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui "$TMP/seed-08-online-customer-service.yaml"
T send-keys b
wait_for 'baseline pinned' &&
	screen | head -1 | grep -Eq '^ gpuplan  Seed 8: .*(…|~)  \[baseline\] .*service\.yaml$' &&
	ok "a long name leaves room for [baseline] and the file" ||
	bad "a long name leaves room for [baseline] and the file"
finish
