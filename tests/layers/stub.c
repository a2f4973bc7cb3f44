/* stub.c - a program of the core alone, for `make check-layers`: linked with the whole of
 * libgpuplan.a (-Wl,--whole-archive) and without ncurses, so a curses call in any object
 * of the core fails the link. Never run. */
#include "plan.h"
#include "scenario.h"

int main(void)
{
	static struct scenario s;
	static struct plan p;

	scenario_init(&s);
	plan_compute(&s, &p);
	return p.nwarnings < 0;
}
