# ptosim — build, test, install, sanitizer, fuzz and benchmark entry points.
# `make` builds build/ptosim, build/libptosim.a and build/libptosim.so; see README.md for the rest.

# Parallel by default: one job per CPU. A -j on the command line wins (`make -j1` builds serially).
NPROC   := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(NPROC) --no-print-directory
endif
ifneq ($(filter clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif

# Quiet compile lines ("CC src/x.c"); `make V=1` prints the full commands.
ifeq ($(V),1)
Q       :=
say     :=
else
Q       := @
say      = @printf '  %-4s %s\n' '$(1)' '$(2)';
endif

CC      ?= cc
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wconversion \
           -Wno-sign-conversion -Wpointer-arith -Wundef -Wvla
ifeq ($(CI),true)
WARN    += -Werror
endif
OPT     ?= -O2 -g
CFLAGS  += $(CSTD) $(WARN) $(OPT) -Iinclude -Isrc -MMD -MP
LDLIBS  += -lm -lpthread

B       ?= build
SRCS    := $(shell find src -name '*.c' | sort)
OBJS    := $(SRCS:src/%.c=$(B)/obj/%.o)
CLI_SRCS:= $(wildcard cli/*.c)
CLI_OBJS:= $(CLI_SRCS:cli/%.c=$(B)/cli/%.o)
LIB     := $(B)/libptosim.a
BIN     := $(B)/ptosim

# The shared library: the same sources compiled again as position-independent code with every symbol
# hidden except the pto_ API (include/ptosim.h gives its declarations default visibility).
# libptosim.so -> libptosim.so.0 (the soname) -> libptosim.so.0.1.0; VERSION is the CLI's (cli/cli.h).
VERSION := $(shell sed -n 's/^\#define CLI_VERSION "\(.*\)"/\1/p' cli/cli.h)
SOMAJOR := 0
SONAME  := libptosim.so.$(SOMAJOR)
SOFILE  := libptosim.so.$(VERSION).0
PIC_OBJS:= $(SRCS:src/%.c=$(B)/pic/%.o)
SO      := $(B)/$(SOFILE)
SO_LINKS:= $(B)/$(SONAME) $(B)/libptosim.so
MAN     := $(B)/ptosim.1

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)

.PHONY: all run test coverage asan oomtest tsan fuzz fuzz-sim bench calibrate clean unit-bins check-layers man install uninstall
all: $(BIN) $(LIB) $(SO_LINKS)

$(B)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(CFLAGS) -c $< -o $@

# The SIMT lockstep engine's per-lane loops (src/ops/simt/simt_lock.c) need the vectoriser's full cost model (-O3);
# LOCK_OPT= builds it like the rest.
LOCK_OPT ?= -O3
$(B)/obj/ops/simt/simt_lock.o $(B)/pic/ops/simt/simt_lock.o: CFLAGS += $(LOCK_OPT)

$(B)/cli/%.o: cli/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(OBJS)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(call say,AR,$@)$(AR) rcs $@ $^

# The tool is linked statically where the C library allows it: no dynamic loader, no relocations and no
# shared-library mappings at start-up, so an empty module checks about as fast as /bin/true starts.
# STATIC= links it dynamically.
STATIC  ?= $(shell printf 'int main(void){return 0;}' | $(CC) -static -x c - -o /dev/null 2>/dev/null && echo -static)
$(BIN): $(CLI_OBJS) $(LIB)
	$(call say,LINK,$@)$(CC) $(CFLAGS) $(STATIC) $(LDFLAGS) $(CLI_OBJS) $(LIB) $(LDLIBS) -o $@

$(B)/pic/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$< (shared))$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

$(SO): $(PIC_OBJS)
	$(call say,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) $^ $(LDLIBS) -o $@

$(B)/$(SONAME): $(SO)
	$(Q)ln -sf $(SOFILE) $@

$(B)/libptosim.so: $(B)/$(SONAME)
	$(Q)ln -sf $(SONAME) $@

# The man page, generated from the CLI's own help (tools/gen_man.py) and the diagnostic table.
man: $(MAN)
$(MAN): $(BIN) tools/gen_man.py src/base/diag.def
	$(call say,GEN,$@)python3 tools/gen_man.py $(BIN) src/base/diag.def $(VERSION) > $@.tmp && mv $@.tmp $@

$(B)/tests/ref_%.o: tests/unit/ref_%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(CFLAGS) -c $< -o $@

# The reference objects are real targets (not intermediates make would delete after linking).
REF_OBJS := $(patsubst tests/unit/%.c,$(B)/tests/%.o,$(wildcard tests/unit/ref_*.c))
.SECONDARY: $(REF_OBJS)

$(B)/tests/test_%: tests/unit/test_%.c tests/unit/check.h $(LIB) $(REF_OBJS)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(CFLAGS) $< $(REF_OBJS) $(LIB) $(LDLIBS) -o $@

unit-bins: $(UNIT_BINS)

$(B)/example_data: tools/example_data.c
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(CFLAGS) $< -lm -o $@

# The main job: run the bundled example kernel on generated inputs.
run: $(BIN) $(B)/example_data
	@sh examples/run.sh $(B)

# The whole suite: unit programs, the .pto kernel tests and the Python test scripts; one progress line
# per test directory, last line "N passed, M failed". `make test T=tests/dma` runs the tests whose path
# contains tests/dma.
test: $(BIN) $(LIB) $(SO_LINKS) $(MAN) unit-bins
	@python3 tests/run.py --build $(B) $(T)

# Line and branch coverage of src/ (docs/testing.md): the suite run in build-cov, compiled with gcc --coverage
# at -O0 (dynamic link; the gcov runtime kept out of the shared library's exports); tests/coverage.py reads
# the counts with gcov and prints the totals (a test failure still prints them, and fails the target).
# COV_FILES=1 lists every file; T= runs part of the suite as for `make test`.
COV_OPT := -O0 -g --coverage
coverage:
	@find build-cov -name '*.gcda' -delete 2>/dev/null || true
	@$(MAKE) --no-print-directory B=build-cov OPT="$(COV_OPT)" LOCK_OPT= LDFLAGS="--coverage -Wl,--exclude-libs,ALL" STATIC= test; st=$$?; \
	  python3 tests/coverage.py build-cov $(if $(COV_FILES),--files) || st=1; exit $$st

# The layer rule of docs/internals.md: includes and symbol uses only downward, no circle of files.
check-layers: $(LIB)
	@python3 tools/check_layers.py $(B)/obj

# Same suite under AddressSanitizer + UndefinedBehaviorSanitizer, in its own build tree.
# A short fuzz smoke runs afterwards when clang is present (FUZZ_SMOKE seconds).
FUZZ_SMOKE ?= 45
asan:
	@$(MAKE) --no-print-directory B=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" STATIC= test
	@sh tests/fuzz/run.sh $(FUZZ_SMOKE)

# Allocation-failure injection (docs/testing.md): the library built with -DPTOSIM_ALLOC_INJECT under ASan +
# LSan + UBSan in its own tree; tests/oom/oom_driver fails allocation 1, 2, 3, ... of a session over each
# kernel (a parse error, a verify error, a DMA run) until one runs clean, each in a forked child.
# OOM_KERNELS_ALL adds vector, cube, sync, deadlock and step-limit kernels (longer).
OOM_KERNELS ?= tests/parse/fmt_keeps_bad_input.pto tests/verify/addr_space.pto tests/dma/oob_gm.pto tests/parse/units.pto \
  tests/simt/atomics.pto tests/scalar/print.pto
OOM_KERNELS_ALL := $(OOM_KERNELS) tests/dma/deadlock.pto tests/valu/vadd.pto tests/cube/fix_l1_chain.pto \
  tests/sync/buf_dyn_double_buffer.pto tests/dma/step_limit.pto
OOM_OPT := -O1 -g -DPTOSIM_ALLOC_INJECT -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
oomtest:
	@$(MAKE) --no-print-directory B=build-oom OPT="$(OOM_OPT)" LDFLAGS="-fsanitize=address,undefined" STATIC= \
	  build-oom/tests/oom_driver
	@build-oom/tests/oom_driver $(OOM_KERNELS)

$(B)/tests/oom_driver: tests/oom/oom_driver.c $(LIB)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) $< $(LIB) $(LDLIBS) -o $@

# ThreadSanitizer (docs/testing.md): the library in its own tree under -fsanitize=thread, and
# tests/tsan/tsan_driver running one context per thread over these kernels at once (parse, verify, print,
# run), each compared with the same run alone. TSan reports any race; halt_on_error makes it fail.
TSAN_KERNELS ?= tests/parse/arith.pto tests/verify/addr_space.pto tests/dma/oob_gm.pto tests/valu/vadd.pto \
  tests/cube/fix_l1_chain.pto tests/sync/buf_dyn_double_buffer.pto tests/simt/atomics.pto tests/race/missing_wait.pto
tsan:
	@$(MAKE) --no-print-directory B=build-tsan OPT="-O1 -g -fsanitize=thread -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=thread" STATIC= build-tsan/tests/tsan_driver
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/tests/tsan_driver $(TSAN_KERNELS)

$(B)/tests/tsan_driver: tests/tsan/tsan_driver.c $(LIB)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) $< $(LIB) $(LDLIBS) -o $@

# libFuzzer over parse + verify (+ run); needs clang. FUZZ_SECONDS bounds the run.
FUZZ_SECONDS ?= 600
fuzz:
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

# Differential fuzzing of the simulator: random valid kernels (tests/gen/gen_diff.py) under every run
# variant (race detector, sanitizer, printed forms, -j, fast paths off) must give identical bytes.
# `make test` runs 60 fixed seeds (tests/diff); this runs fresh seeds for SECONDS.
SECONDS ?= 600
fuzz-sim: $(BIN)
	@python3 tests/diff/test_diff.py --build $(B) --seconds $(SECONDS)

# The timing model against pto-isa's profiled a5 tile-op cycles (tools/timing/calibrate.py, docs/timing.md
# "Accuracy"): PTOISA=/path/to/a/pto-isa/checkout; without it the harness says so and exits 0. Then the
# whole-kernel references (tools/timing/references.py: published figures, no checkout needed).
PTOISA ?=
calibrate: $(BIN)
	@python3 tools/timing/calibrate.py --ptosim $(BIN) --ptoisa "$(PTOISA)"
	@python3 tools/timing/references.py --ptosim $(BIN)

# Throughput ratios (tools/bench.c); the front end on a >= 10 MB module generated from the test kernels,
# against `wc -w` (tools/bench_front.c); then many small kernels in one Python process vs a process per
# kernel (tools/bench_batch.py, under PYTHON: it needs numpy).
FRONT_BYTES ?= 10485760
bench:
	@$(MAKE) -s --no-print-directory $(BIN) $(B)/bench $(B)/bench_real $(B)/bench_front $(SO_LINKS)
	@$(B)/bench
	@$(B)/bench_real bench
	@mkdir -p $(B)/bench-front
	@python3 tools/gen_front_module.py $(B)/bench-front/full.pto $(B)/bench-front/tenth.pto $(FRONT_BYTES) >/dev/null
	@$(B)/bench_front $(BIN) $(B)/bench-front
	@$(PYTHON) tools/bench_batch.py $(B)
	@python3 tools/bench_scale.py $(B)

$(B)/bench: tools/bench.c $(LIB)
	$(call say,LINK,$@)$(CC) $(CFLAGS) $< $(LIB) $(LDLIBS) -o $@

# Realistic kernels (bench/*.pto) against the same math in C, bit for bit (tools/bench_real.c).
$(B)/bench_real: tools/bench_real.c $(LIB)
	$(call say,LINK,$@)$(CC) $(CFLAGS) $< $(LIB) $(LDLIBS) -o $@

$(B)/bench_front: tools/bench_front.c
	$(call say,LINK,$@)$(CC) $(CFLAGS) $< -o $@

# ---- install: PREFIX (default /usr/local) and DESTDIR as usual; every directory can be overridden.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
DOCDIR     ?= $(PREFIX)/share/doc/ptosim
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# The Python package goes where PYTHON looks for PREFIX's packages: PREFIX/lib/pythonX.Y/dist-packages when
# PYTHON's own path uses dist-packages (Debian's python3: /usr/local/lib/python3.11/dist-packages for the
# default PREFIX), else PREFIX/lib/pythonX.Y/site-packages. PYTHON: the first of python3 and /usr/bin/python3
# that imports numpy (else python3).
PYTHON     ?= $(firstword $(foreach p,python3 /usr/bin/python3,$(shell $(p) -c 'import numpy' >/dev/null 2>&1 && echo $(p))) python3)
PYTHONDIR  ?= $(shell $(PYTHON) -c 'import sys; d = "dist-packages" if any(p.endswith("dist-packages") for p in sys.path) else "site-packages"; print("$(PREFIX)/lib/python%d.%d/%s" % (sys.version_info[:2] + (d,)))')
PY_SRCS    := $(wildcard python/ptosim/*.py)

install: all $(MAN)
	@test -n "$(PYTHONDIR)" || { echo "make install: cannot tell where $(PYTHON) finds packages; set PYTHONDIR" >&2; exit 2; }
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(PYTHONDIR)/ptosim
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/ptosim
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libptosim.a
	install -m 755 $(SO) $(DESTDIR)$(LIBDIR)/$(SOFILE)
	ln -sf $(SOFILE) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libptosim.so
	install -m 644 include/ptosim.h $(DESTDIR)$(INCLUDEDIR)/ptosim.h
	install -m 644 $(MAN) $(DESTDIR)$(MANDIR)/man1/ptosim.1
	install -d $(DESTDIR)$(DOCDIR)/docs
	install -m 644 README.md $(DESTDIR)$(DOCDIR)/
	install -m 644 $(wildcard docs/*.md docs/*.json) $(DESTDIR)$(DOCDIR)/docs/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	  -e 's|@VERSION@|$(VERSION).0|' tools/ptosim.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/ptosim.pc
	install -m 644 $(PY_SRCS) $(DESTDIR)$(PYTHONDIR)/ptosim/
	install -d $(DESTDIR)$(PYTHONDIR)/ptosim/case_runtime/acl
	install -m 644 $(wildcard python/ptosim/case_runtime/*.*) $(DESTDIR)$(PYTHONDIR)/ptosim/case_runtime/
	install -m 644 python/ptosim/case_runtime/acl/acl.h $(DESTDIR)$(PYTHONDIR)/ptosim/case_runtime/acl/
	printf '# Written by make install: where this copy of the package finds the library and the tool.\nLIBRARY = "%s"\nPROGRAM = "%s"\n' \
	  '$(LIBDIR)/$(SONAME)' '$(BINDIR)/ptosim' > $(DESTDIR)$(PYTHONDIR)/ptosim/_installed.py
	@echo "installed into $(DESTDIR)$(PREFIX); the Python package is in $(DESTDIR)$(PYTHONDIR)"

# `make print-PYTHONDIR PREFIX=/usr` prints a variable's value (the install test asks where things go).
print-%:
	@echo '$($*)'

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ptosim $(DESTDIR)$(LIBDIR)/libptosim.a $(DESTDIR)$(LIBDIR)/$(SOFILE) \
	  $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libptosim.so $(DESTDIR)$(INCLUDEDIR)/ptosim.h \
	  $(DESTDIR)$(MANDIR)/man1/ptosim.1 $(DESTDIR)$(PKGCONFIGDIR)/ptosim.pc
	rm -rf $(DESTDIR)$(PYTHONDIR)/ptosim $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build build-asan build-fuzz build-cov

-include $(OBJS:.o=.d) $(PIC_OBJS:.o=.d) $(CLI_OBJS:.o=.d)
