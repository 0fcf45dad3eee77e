# ptosim — build, test, sanitizer, fuzz and benchmark entry points.
# `make` builds build/ptosim and build/libptosim.a; see README.md for the rest.

# Parallel by default: one job per CPU. A -j on the command line wins (`make -j1` builds serially).
NPROC   := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
MAKEFLAGS += -j$(NPROC) --no-print-directory
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

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)

.PHONY: all run test asan fuzz bench clean unit-bins check-layers
all: $(BIN) $(LIB)

$(B)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(CFLAGS) -c $< -o $@

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

$(B)/tests/ref_%.o: tests/unit/ref_%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(CFLAGS) -c $< -o $@

# The reference objects are real targets (not intermediates make would delete after linking).
REF_OBJS := $(patsubst tests/unit/%.c,$(B)/tests/%.o,$(wildcard tests/unit/ref_*.c))
.SECONDARY: $(REF_OBJS)

$(B)/tests/test_%: tests/unit/test_%.c $(LIB) $(REF_OBJS)
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
test: $(BIN) $(LIB) unit-bins
	@python3 tests/run.py --build $(B) $(T)

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

# libFuzzer over parse + verify (+ run); needs clang. FUZZ_SECONDS bounds the run.
FUZZ_SECONDS ?= 600
fuzz:
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

# Front-end section: a >= 10 MB module generated from the test kernels, checked against `wc -w`.
FRONT_BYTES ?= 10485760
bench:
	@$(MAKE) --no-print-directory $(BIN) $(B)/bench $(B)/bench_front
	@$(B)/bench
	@mkdir -p $(B)/bench-front
	@python3 tools/gen_front_module.py $(B)/bench-front/full.pto $(B)/bench-front/tenth.pto $(FRONT_BYTES) >/dev/null
	@$(B)/bench_front $(BIN) $(B)/bench-front

$(B)/bench: tools/bench.c $(LIB)
	$(call say,LINK,$@)$(CC) $(CFLAGS) $< $(LIB) $(LDLIBS) -o $@

$(B)/bench_front: tools/bench_front.c
	$(CC) $(CFLAGS) $< -o $@

clean:
	rm -rf build build-asan build-fuzz

-include $(OBJS:.o=.d) $(CLI_OBJS:.o=.d)
