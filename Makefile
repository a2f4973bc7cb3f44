# gpuplan - GPU capacity planner. See README.md; `make test` runs every test.
-include config.mk

VERSION   = 0.1.0
CC       ?= cc
PREFIX   ?= /usr/local
MANPREFIX ?= $(PREFIX)/share/man
DATADIR  ?= $(PREFIX)/share/gpuplan
# the shipped scenarios, as examples, and seed_cases.md, which explain's "seed case N"
# sources cite
DOCDIR   ?= $(PREFIX)/share/doc/gpuplan
PKG_CONFIG ?= pkg-config

WARN      = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
CFLAGS_ORIGIN := $(origin CFLAGS)
CFLAGS   ?= -O2 -g
# The planner (src/plan*.c: plan_compute, run on every keystroke; `make bench`) at -O3
# when CFLAGS is this file's default: GCC's -O3 inlines more and vectorises independent
# lanes but never reassociates (no -ffast-math), so every figure stays bit-identical,
# and a plan takes about 4% fewer instructions (30-50 ns of 300). A CFLAGS of one's own
# (the sanitizer and fuzz builds, a distribution's) is kept as given.
HOT_CFLAGS ?= $(if $(filter undefined,$(CFLAGS_ORIGIN)),-O3)
# ... and the program and the plan benchmark link the planner and what it calls per plan
# (the framework table, dtype sizes, model helpers) a second time, compiled for link-time
# optimisation, so those small calls inline into it: about 6% fewer instructions and
# 10% less time a plan, every figure bit-identical (no flag here reassociates). The tests
# link the plain library (no LTO link each), and so does any CFLAGS of one's own.
LTO_CFLAGS ?= $(if $(filter undefined,$(CFLAGS_ORIGIN)),-flto=auto)
STDFLAGS  = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
CORE_PKGS = yaml-0.1 libcjson
UI_PKGS   = ncursesw
CORE_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(CORE_PKGS) 2>/dev/null)
CORE_LIBS   := $(shell $(PKG_CONFIG) --libs $(CORE_PKGS) 2>/dev/null) -lm
UI_CFLAGS   := $(shell $(PKG_CONFIG) --cflags $(UI_PKGS) 2>/dev/null)
UI_LIBS     := $(shell $(PKG_CONFIG) --libs $(UI_PKGS) 2>/dev/null)
TEST_LIBS   := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)
ALL_CFLAGS  = $(STDFLAGS) $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -DGPUPLAN_VERSION='"$(VERSION)"' \
              -DGPUPLAN_DATADIR='"$(DATADIR)"' -MMD -MP
LDFLAGS  ?=

B = build
BIN = gpuplan
CORE_SRC = $(sort $(wildcard src/*.c))
UI_SRC   = $(sort $(wildcard ui/*.c))
CLI_SRC  = $(sort $(wildcard cli/*.c))
CORE_OBJ = $(CORE_SRC:%.c=$(B)/%.o)
UI_OBJ   = $(UI_SRC:%.c=$(B)/%.o)
CLI_OBJ  = $(CLI_SRC:%.c=$(B)/%.o)
UI_LIBOBJ = $(filter-out $(B)/ui/main.o,$(UI_OBJ))
LTO_SRC  = $(filter src/plan%.c src/framework.c src/dtype.c src/model.c,$(CORE_SRC))
LTO_OBJ  = $(if $(LTO_CFLAGS),$(LTO_SRC:%.c=$(B)/lto/%.o))
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
CORE_TESTS = $(patsubst tests/unit/%.c,$(B)/tests/%,$(filter-out tests/unit/test_ui_%,$(UNIT_SRC)))
UI_TESTS   = $(patsubst tests/unit/%.c,$(B)/tests/%,$(filter tests/unit/test_ui_%,$(UNIT_SRC)))
BENCH_SRC = $(sort $(wildcard tests/bench/*.c))
FUZZ_SRC  = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_REPLAY = $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRC))

ifeq ($(V),1)
Q =
msg = @true
else
Q = @
msg = @printf '  %-6s %s\n' $(1) $(2)
endif

all: $(BIN)

$(BIN): $(B)/libgpuplan.a $(UI_OBJ) $(CLI_OBJ) $(LTO_OBJ)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $(if $(LTO_OBJ),$(CFLAGS) $(LTO_CFLAGS)) -o $@ $(UI_OBJ) $(CLI_OBJ) \
		$(LTO_OBJ) $(B)/libgpuplan.a $(UI_LIBS) $(CORE_LIBS)

# The paths compiled in (GPUPLAN_DATADIR) are kept in a stamp that changes only when they
# do, as git's GIT-CFLAGS: `make && make install PREFIX=/usr` rebuilds what uses them
# rather than installing a program that looks in /usr/local.
CONFIG_PATHS = DATADIR=$(DATADIR)
$(B)/config.stamp: FORCE
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(CONFIG_PATHS)' ]; then \
		printf '%s\n' '$(CONFIG_PATHS)' >$@; fi
$(B)/src/catalog.o: $(B)/config.stamp
.PHONY: FORCE
FORCE:

$(B)/libgpuplan.a: $(CORE_OBJ)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $(CORE_OBJ)

# The core never sees ncurses' flags. That alone guards nothing (curses.h compiles without
# them on Debian, and a curses call fails only in a program that links its object):
# `make check-layers` is the guard.
$(B)/src/plan.o $(B)/src/plan%.o $(B)/lto/src/plan.o $(B)/lto/src/plan%.o: HOT = $(HOT_CFLAGS)
$(B)/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(HOT) $(CORE_CFLAGS) -c -o $@ $<

$(B)/lto/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(call msg,LTO,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(HOT) $(LTO_CFLAGS) $(CORE_CFLAGS) -c -o $@ $<

$(B)/ui/%.o: ui/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(CORE_CFLAGS) $(UI_CFLAGS) -Isrc -Icli -c -o $@ $<

# The command-line front end: arguments in, the core called, results printed. Like ui/ it
# stands on src/; it never sees curses.
$(B)/cli/%.o: cli/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(CORE_CFLAGS) -Isrc -c -o $@ $<

$(B)/tests/test_ui_%: tests/unit/test_ui_%.c $(UI_LIBOBJ) $(B)/libgpuplan.a
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(CORE_CFLAGS) $(UI_CFLAGS) -Isrc -Iui -o $@ $< $(UI_LIBOBJ) \
		$(B)/libgpuplan.a $(TEST_LIBS) $(UI_LIBS) $(CORE_LIBS)

$(B)/tests/test_%: tests/unit/test_%.c $(B)/libgpuplan.a
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(CORE_CFLAGS) -Isrc -o $@ $< $(B)/libgpuplan.a $(TEST_LIBS) $(CORE_LIBS)

$(B)/bench/%: tests/bench/%.c $(B)/libgpuplan.a $(UI_LIBOBJ) $(LTO_OBJ)
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(if $(LTO_OBJ),$(LTO_CFLAGS)) $(CORE_CFLAGS) $(UI_CFLAGS) -Isrc -Iui \
		-o $@ $< $(UI_LIBOBJ) $(LTO_OBJ) $(B)/libgpuplan.a $(UI_LIBS) $(CORE_LIBS)

# Fuzz targets are replayed over their corpus with a plain driver (no clang needed);
# `make fuzz` builds them with libFuzzer. fuzz_ui drives the terminal UI: it links ui/ and
# ncurses.
$(B)/fuzz/fuzz_ui: tests/fuzz/fuzz_ui.c tests/fuzz/replay_main.c $(UI_LIBOBJ) $(B)/libgpuplan.a
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(CORE_CFLAGS) $(UI_CFLAGS) -Isrc -Iui -Icli -o $@ $< \
		tests/fuzz/replay_main.c $(UI_LIBOBJ) $(B)/libgpuplan.a $(UI_LIBS) $(CORE_LIBS)

$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/replay_main.c $(B)/libgpuplan.a
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(CORE_CFLAGS) -Isrc -o $@ $< tests/fuzz/replay_main.c \
		$(B)/libgpuplan.a $(CORE_LIBS)

deps:
	@sh tests/deps.sh

# deps may install packages, so the build that follows runs in a fresh make that sees them.
run: deps
	@$(MAKE) --no-print-directory gpuplan
	./gpuplan

test: deps
	@$(MAKE) --no-print-directory check

# The layer rules of CONTRIBUTING.md's "Layers" over src/ and the built core, which must link
# alone without ncurses (tests/layers/check-layers.sh lists them; run-layers.sh, run by
# check, proves each can fail).
check-layers: $(B)/libgpuplan.a
	@CC="$(CC)" LDFLAGS="$(LDFLAGS)" LIBS="$(CORE_LIBS)" sh tests/layers/check-layers.sh src \
		$(B)/libgpuplan.a

# Issue 11's habits over the tracked files: every .c file's purpose line, and README.md's
# layout naming every folder and every .c file of src/, ui/ and cli/
# (tests/layers/check-tree.sh; run-tree.sh, run by check, proves each rule can fail).
check-tree:
	@sh tests/layers/check-tree.sh .

# Shell tests run the program named by $GPUPLAN, so the sanitizer build tests its own.
check: check-layers check-tree $(BIN) $(CORE_TESTS) $(UI_TESTS) $(FUZZ_REPLAY)
	@GPUPLAN=./$(BIN) TEST_LOG=$(B)/test.log $(TEST_WRAP) sh tests/run.sh $(CORE_TESTS) $(UI_TESTS) -- $(FUZZ_REPLAY)

# The terminal-UI scripts alone (tests/tui/run-*.sh), TUI_JOBS at a time (default 4); check
# runs them too, last, in parallel among themselves.
check-tui: $(BIN)
	@GPUPLAN=./$(BIN) TEST_LOG=$(B)/test-tui.log TEST_SCRIPTS='tests/tui/run-*.sh' \
		sh tests/run.sh

# The whole suite built with AddressSanitizer and UndefinedBehaviorSanitizer, run with
# address randomisation off where allowed (tests/noaslr.sh says why).
SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
asan:
	@$(MAKE) --no-print-directory B=build-asan BIN=build-asan/gpuplan \
		CFLAGS="-O1 -g $(SAN)" LDFLAGS="$(SAN)" TEST_WRAP="sh tests/noaslr.sh" check

# Memcheck over the reports of every shipped scenario.
valgrind: $(BIN)
	@GPUPLAN=./$(BIN) sh tests/valgrind.sh

bench: $(BIN) $(BENCH_SRC:tests/bench/%.c=$(B)/bench/%)
	@for b in $(BENCH_SRC:tests/bench/%.c=$(B)/bench/%); do $$b || exit 1; done
	@sh tests/bench/process.sh

fuzz:
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

# The measured rows of tests/validation planned again (gpuplan(1), validate): exit 1 when
# a group's MAPE is past its bound. validation-doc regenerates VALIDATION.md from them.
validate: $(BIN)
	@./$(BIN) validate tests/validation

validation-doc: $(BIN)
	@./$(BIN) validate --markdown tests/validation >VALIDATION.md.tmp && \
		mv VALIDATION.md.tmp VALIDATION.md || { rm -f VALIDATION.md.tmp; exit 1; }

# The error band table (src/band.h) regenerated from the rows of tests/validation/; a test
# (test_band) fails when the file in the tree differs from what this writes.
$(B)/gen_band_table: tests/validate/gen_band_table.c $(B)/libgpuplan.a
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(CORE_CFLAGS) -Isrc -o $@ $< $(B)/libgpuplan.a $(CORE_LIBS)

band-table: $(B)/gen_band_table
	@$(B)/gen_band_table >src/band_table.c.tmp && mv src/band_table.c.tmp src/band_table.c || \
		{ rm -f src/band_table.c.tmp; exit 1; }

format-check:
	@clang-format --dry-run --Werror --ferror-limit=5 src/*.c src/*.h ui/*.c ui/*.h cli/*.c cli/*.h

# Completions where bash-completion, zsh and fish look for a package's: with PREFIX=/usr,
# Debian's vendor folders; otherwise the site folders under PREFIX.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

install: $(BIN)
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR)/models \
		$(DESTDIR)$(MANPREFIX)/man1 $(DESTDIR)$(MANPREFIX)/man5 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(DOCDIR)/examples
	cp -f $(BIN) $(DESTDIR)$(PREFIX)/bin/gpuplan
	chmod 755 $(DESTDIR)$(PREFIX)/bin/gpuplan
	cp -f catalog/gpus.yaml $(DESTDIR)$(DATADIR)/gpus.yaml
	cp -f catalog/models/*.json $(DESTDIR)$(DATADIR)/models/
	cp -f man/gpuplan.1 $(DESTDIR)$(MANPREFIX)/man1/gpuplan.1
	cp -f man/gpuplan-scenario.5 $(DESTDIR)$(MANPREFIX)/man5/gpuplan-scenario.5
	cp -f man/gpuplan-catalog.5 $(DESTDIR)$(MANPREFIX)/man5/gpuplan-catalog.5
	cp -f contrib/gpuplan.bash $(DESTDIR)$(BASHCOMPDIR)/gpuplan
	cp -f contrib/gpuplan.zsh $(DESTDIR)$(ZSHCOMPDIR)/_gpuplan
	cp -f contrib/gpuplan.fish $(DESTDIR)$(FISHCOMPDIR)/gpuplan.fish
	cp -f scenarios/*.yaml scenarios/seed_cases.md $(DESTDIR)$(DOCDIR)/examples/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gpuplan $(DESTDIR)$(MANPREFIX)/man1/gpuplan.1 \
		$(DESTDIR)$(MANPREFIX)/man5/gpuplan-scenario.5 \
		$(DESTDIR)$(MANPREFIX)/man5/gpuplan-catalog.5 $(DESTDIR)$(BASHCOMPDIR)/gpuplan \
		$(DESTDIR)$(ZSHCOMPDIR)/_gpuplan $(DESTDIR)$(FISHCOMPDIR)/gpuplan.fish
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)/examples
	rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null || true

# A Debian package built with dpkg-deb (debian/mkdeb.sh): the program for PREFIX=/usr, the
# catalog, man pages, completions and example scenarios; tests/deb/deb-test.sh checks it.
DEB_ARCH = $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB = gpuplan_$(VERSION)_$(DEB_ARCH).deb
deb:
	@VERSION=$(VERSION) ARCH=$(DEB_ARCH) MAKE="$(MAKE)" sh debian/mkdeb.sh $(DEB)

clean:
	rm -rf build build-asan build-fuzz build-deb gpuplan gpuplan_*.deb

.PHONY: all deps run test check check-tui check-layers check-tree asan valgrind bench fuzz format-check install uninstall clean \
	validate validation-doc band-table deb
.SECONDARY:

-include $(shell find $(B) -name '*.d' 2>/dev/null)
