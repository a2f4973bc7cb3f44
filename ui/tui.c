/* tui.c - the terminal UI's entry point: the terminal, the signals and the live loop.
 *
 * The one struct app lives here, with the signal flags. Handlers only set a flag (the
 * blocking read returns on EINTR, and the loop wakes at least once a second anyway);
 * the loop writes a recovery file and restores the terminal. The crash handler is the
 * exception: it restores the terminal and re-raises, as nothing else can run after it.
 */
#include "tui.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <term.h>

#include "app.h"
#include "cli.h"

static struct app app;
static volatile sig_atomic_t got_signal; /* a quit_signals[] one, 0 for none */

static void on_signal(int sig)
{
	got_signal = sig;
}

static void on_crash(int sig)
{
	/* endwin is not async-signal-safe, but the process is dying: leaving the terminal
	 * in raw mode with the alternate screen is worse than the small risk. */
	if (app.screen)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signals(void)
{
	/* every signal whose default action ends the process (and would leave the terminal
	 * raw and lose the edits): ^\, kill -USR1, an expired alarm, ulimit -t and -f. A
	 * SIGXFSZ during a save makes write(2) fail with EFBIG, so the save removes its
	 * temporary file. */
	static const int quit_signals[] = {SIGTERM, SIGINT,  SIGHUP,	SIGQUIT, SIGUSR1,
					   SIGUSR2, SIGALRM, SIGVTALRM, SIGXCPU, SIGXFSZ};
	static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sa.sa_flags = 0; /* no SA_RESTART: the read returns so the loop sees the flag */
	for (size_t i = 0; i < sizeof(quit_signals) / sizeof(quit_signals[0]); i++)
		sigaction(quit_signals[i], &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
		sigaction(crash_signals[i], &sa, NULL);
	/* a dropped connection must not kill us on the way out */
	signal(SIGPIPE, SIG_IGN);
}

static double monotonic_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether curses can drive the terminal on standard output: terminfo knows TERM and the
 * entry can move the cursor. TERM=dumb has an entry (newterm takes it) but no cursor
 * addressing: the session would start blank. Says why on standard error when not. */
static bool terminal_usable(void)
{
	const char *term = getenv("TERM");
	bool usable;
	int err = 0;

	if (!term)
		term = "";
	if (!term[0] || setupterm(term, STDOUT_FILENO, &err) != OK) {
		fprintf(stderr,
			"gpuplan: cannot drive the terminal '%s' (set TERM to one terminfo knows, "
			"e.g. xterm-256color; for a report without one: gpuplan report FILE)\n",
			term);
		return false;
	}
	usable = cursor_address && cursor_address != (char *)-1;
	del_curterm(cur_term);
	if (!usable)
		fprintf(stderr,
			"gpuplan: the terminal '%s' cannot move the cursor, which the terminal UI "
			"needs (set TERM to one that can, e.g. xterm-256color; for a report "
			"without one: gpuplan report FILE)\n",
			term);
	return usable;
}

static void handle(int r, wint_t ch)
{
	int key = r == KEY_CODE_YES ? KEYF((int)ch) : (int)ch;

	if (key == KEYF(KEY_RESIZE)) {
		app.dirty |= DIRTY_LAYOUT | DIRTY_DRAW;
		return;
	}
	/* the too-small screen: q, and the answer to the question it shows (quit without
	 * saving?); the other keys wait for a larger terminal */
	if (app.lay.too_small && !draw_question_asked(&app) &&
	    (key != 'q' || app.mode != MODE_NORMAL))
		return;
	app_handle_key(&app, key);
}

int tui_run(const struct catalog *cat, struct scenario *s, const char *path, unsigned flags)
{
	SCREEN *scr;
	FILE *in = stdin;
	int r, status = 0, fast_errors = 0, lessons_lost = 0;
	double t0;
	wint_t ch;

	/* Only the character set comes from the environment: numbers keep their dot. */
	setlocale(LC_CTYPE, "");
	/* `gpuplan -` read the scenario from standard input: keys come from the terminal */
	if (!isatty(STDIN_FILENO))
		in = fopen("/dev/tty", "r");
	if (!in || !isatty(fileno(in)) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "gpuplan: the terminal UI needs a terminal (for a report without "
				"one: gpuplan report FILE)\n");
		if (in && in != stdin)
			fclose(in);
		return 2;
	}
	if (!terminal_usable()) {
		if (in != stdin)
			fclose(in);
		return 2;
	}
	app_init(&app, cat, s, path, flags);
	app_offer_recovery(&app);
	install_signals();
	scr = newterm(NULL, stdout, in);
	if (!scr) {
		const char *term = getenv("TERM");
		fprintf(stderr,
			"gpuplan: cannot drive the terminal '%s' (set TERM to one "
			"terminfo knows, e.g. xterm-256color; for a report without one: "
			"gpuplan report FILE)\n",
			term ? term : "");
		if (in != stdin)
			fclose(in);
		return 2;
	}
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	{
		/* ^S saves rather than stopping the output (XON/XOFF); endwin gives the shell
		 * its own settings back */
		struct termios t;
		if (tcgetattr(fileno(in), &t) == 0) {
			t.c_iflag &= ~(tcflag_t)IXON;
			tcsetattr(fileno(in), TCSADRAIN, &t);
			def_prog_mode();
		}
	}
	wtimeout(stdscr, 1000);
	app_screen_start(&app);

	while (!app.quit && !got_signal) {
		if (app.dirty & DIRTY_LAYOUT)
			app_screen_layout(&app);
		app_compute(&app);
		if (app.dirty & DIRTY_DRAW)
			app_draw(&app);
		t0 = monotonic_s();
		r = wget_wch(stdscr, &ch);
		if (r == ERR) {
			/* A read that fails at once, again and again, is a terminal that has
			 * gone away without a SIGHUP: treat it as one rather than spin. */
			if (monotonic_s() - t0 < 0.01 && ++fast_errors > 100)
				got_signal = SIGHUP;
			else if (monotonic_s() - t0 >= 0.01)
				fast_errors = 0;
			continue;
		}
		fast_errors = 0;
		handle(r, ch);
		/* Drain what is already typed before computing: a held key costs one
		 * recompute and one screen update. */
		nodelay(stdscr, TRUE);
		while (!app.quit && !got_signal && (r = wget_wch(stdscr, &ch)) != ERR)
			handle(r, ch);
		wtimeout(stdscr, 1000);
	}

	if (got_signal) {
		/* SIGHUP (a dropped SSH session), SIGTERM, SIGINT...: keep unsaved edits. */
		if (app_write_recovery(&app) != 0)
			app.recover_path[0] = '\0';
		/* and the edits kept in the other lessons (lesson mode), each beside its own */
		lessons_lost = app_write_lesson_recoveries(&app);
		status = 128 + got_signal;
	} else {
		status = app.exit_status;
	}
	app_screen_stop(&app);
	endwin();
	delscreen(scr);
	if (in != stdin)
		fclose(in);
	if (got_signal && app_unsaved(&app) && got_signal != SIGHUP) {
		if (app.recover_path[0])
			fprintf(stderr, "gpuplan: unsaved edits written to %s\n", app.recover_path);
		else
			fprintf(stderr, "gpuplan: unsaved edits could not be written to a recovery "
					"file\n");
	}
	if (got_signal && lessons_lost && got_signal != SIGHUP)
		fprintf(stderr,
			"gpuplan: the edits of %d other lessons could not be written to "
			"recovery files\n",
			lessons_lost);
	*s = app.scn;
	return status;
}
