#!/bin/sh
# Explanations: a wrapped source line hangs under the text after "source: ", and the
# text reflows to the window (the core hands the UI one line a paragraph), a formula's
# continuation hanging under its right-hand side.
NAME=explain
. "$(dirname "$0")/lib.sh"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys 4 g
i=0
while [ $i -lt 9 ]; do T send-keys j; i=$((i + 1)); done
T send-keys Enter
if wait_for 'Explain time.step_s' && wait_for '^│   source: '; then
	next=$(screen | sed -n '/^│   source: /{n;p;}')
	printf '%s\n' "$next" | grep -Eq '^│ {11}[^ ]|^│ +│$|^└' &&
		ok "a wrapped explanation line hangs under its label's text" ||
		bad "a wrapped explanation line hangs under its label's text ($next)"
else
	bad "Enter on the step time explains it"
fi
# a sentence the core would break at 80 columns is not left ragged in the 76-column box
# ("per\n layer;\n FlashAttention")
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui scenarios/seed-12-70b-full-training-8xh100.yaml
T send-keys 4 j j j j e
wait_for 'Explain memory.per_gpu.activations' &&
	wait_for 'layer; FlashAttention drops' &&
	wait_for '^│ {17}layer and loss' &&
	ok "an explanation reflows to the window" || bad "an explanation reflows to the window"
finish
