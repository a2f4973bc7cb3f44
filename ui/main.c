/* main.c - gpuplan's entry point: the command line, with the terminal UI plugged in. */
#include "cli.h"
#include "keys.h"
#include "tui.h"

int main(int argc, char **argv)
{
	return cli_main(argc, argv, tui_run, keys_print);
}
