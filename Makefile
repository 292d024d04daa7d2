# gpuparticle.h: build, tests, benchmark and shader embedding. Everything generated goes to build/.
#   make test      install what is missing, check shaders and compilation, run every test
#   make bench     the primitives', the SPH fluid's, the DEM's, the coupling's and the effects' benchmarks
#                  (tables on stdout, CSV in build/)
#   make soak      the dam break's 60 s of sloshing at every spacing and material (SOAK_ARGS narrows it:
#                  hours on llvmpipe, minutes on a GPU)
#   make sink      a resolved body let go in a tank of fluid, frame by frame (SINK_ARGS: bench/sink.c)
#   make shaders   write every file of shaders_embedded/ into gpuparticle.h (each once), then assemble
#                  each program in build/shaders/ exactly as the driver receives it
#   make check     the quick checks only: shaders in step and valid, the header compiles cleanly,
#                  its version, contents, licence and references agree, the text speaks of itself
#   make demo      the dam break in a window, or headless (PNG frames) when there is no display
#   make picture   docs/dam_break.png, README's picture, from the headless dam break
#   make examples  build every example
CC ?= cc
CXX ?= c++
CFLAGS ?= -O2 -g
BUILD := build
WARN := -Wall -Wextra -Wpedantic -Werror -Wshadow
CWARN := $(WARN) -Wstrict-prototypes
GLAD := $(BUILD)/glad
LIBS := -lEGL -lm -ldl
TEST_SOURCES := tests/main.c tests/test_world.c tests/test_primitives.c tests/test_grid.c tests/test_sph.c tests/test_sph_reference.c tests/test_sph_input.c tests/test_sph_flow.c tests/test_sph_rest.c tests/test_sph_substeps.c tests/test_sph_mesh.c tests/test_dem.c tests/test_shapes.c tests/test_dem_reference.c tests/test_coupling.c tests/test_heightfield.c tests/test_effects.c tests/test_store.c tests/test_emitters.c tests/test_layout.c tests/test_plan.c tests/test_collapse.c tests/test_friction.c tests/test_driver.c tests/cpu_reference.c tests/cpu_sph.c tests/cpu_dem.c tests/cpu_collider.c tests/cpu_effects.c tests/cpu_emitter.c tests/capture.c
TEST_HEADERS := examples/shapes.h tests/fixture.h tests/test_sph.h tests/gp_test.h tests/gp_egl.h tests/cpu_reference.h tests/cpu_sph.h tests/cpu_dem.h tests/cpu_collider.h tests/cpu_effects.h tests/cpu_emitter.h gpuparticle.h

.PHONY: all test test-programs check deps shaders check-shaders check-compile check-docs check-words bench soak sink hostile demo examples clean
EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
all: $(BUILD)/gp_tests $(BUILD)/bench $(BUILD)/soak $(BUILD)/sink $(EXAMPLES)
examples: $(EXAMPLES)

# make test builds them at -O1 (EXAMPLE_CFLAGS): their host code is light, their runs the GPU's,
# and the 13 of them took about 40 s to compile at -O2 on two cores, 23 s at -O1.
EXAMPLE_CFLAGS ?= $(CFLAGS)
$(BUILD)/examples/%: examples/%.c examples/example_app.h examples/shapes.h gpuparticle.h $(GLAD)/gl.o
	@mkdir -p $(BUILD)/examples
	$(CC) -std=c99 $(EXAMPLE_CFLAGS) $(CWARN) -I. -Iexamples -I$(GLAD)/include $< $(GLAD)/gl.o -o $@ -lglfw $(LIBS)

# The demo, the dam break: in a window when there is a display and one opens, else 90 frames as PNGs.
demo: deps $(BUILD)/examples/dam_break
	@if [ -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ] && $(BUILD)/examples/dam_break; then :; \
	else echo "no window: rendering the dam break headless, frames in $(BUILD)/demo/"; \
	$(BUILD)/examples/dam_break --headless --frames 90 --out $(BUILD)/demo; fi

# Frame 24 shows the column collapsing and its surge breaking on a wall; tools/png_shrink.py halves
# it and compresses it (the examples write uncompressed PNGs), about 50 KB to keep in the repository.
.PHONY: picture
picture: $(BUILD)/examples/dam_break
	$(BUILD)/examples/dam_break --headless --frames 25 --out $(BUILD)/picture
	python3 tools/png_shrink.py $(BUILD)/picture/frame_0024.png docs/dam_break.png

deps:
	@sh tools/deps.sh

$(GLAD)/src/gl.c:
	@sh tools/deps.sh
	glad --reproducible --quiet --api gl:core=4.3 --out-path $(GLAD) c

# The loader compiled once for every program that links it (it took 2 s in each of 15 builds).
$(GLAD)/gl.o: $(GLAD)/src/gl.c
	$(CC) -std=c99 $(CFLAGS) $(CWARN) -I$(GLAD)/include -c $< -o $@

# The tests, the examples as make test builds them and the hostile probe build the library with a
# guard after every buffer it makes (GP_BUFFER_GUARD): a pass that writes past a buffer's end
# fails the test, the example's run or the probe whose world it was.
GUARD := -DGP_BUFFER_GUARD=256

$(BUILD)/gp_tests: $(TEST_SOURCES) $(TEST_HEADERS) $(GLAD)/gl.o
	$(CC) -std=c99 $(CFLAGS) $(GUARD) $(CWARN) -I. -Itests -I$(GLAD)/include $(TEST_SOURCES) $(GLAD)/gl.o -o $@ $(LIBS)

# Unoptimised: it runs only the quick host-side tests (9.3 s against 8.3 at -O1), and compiles in
# 23 s where -O1 took 57 (2 cores), the longest of make test's builds.
$(BUILD)/gp_tests_sanitized: $(TEST_SOURCES) $(TEST_HEADERS) $(GLAD)/gl.o
	$(CC) -std=c99 -O0 -g -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
	    -fno-sanitize-recover=undefined,float-cast-overflow $(GUARD) $(CWARN) \
	    -I. -Itests -I$(GLAD)/include $(TEST_SOURCES) $(GLAD)/gl.o -o $@ $(LIBS)

BENCH_SOURCES := bench/bench.c tests/cpu_reference.c tests/cpu_sph.c tests/cpu_dem.c tests/cpu_collider.c
$(BUILD)/bench: $(BENCH_SOURCES) tests/cpu_reference.h tests/cpu_sph.h tests/cpu_dem.h tests/cpu_collider.h tests/gp_egl.h gpuparticle.h
	@sh tools/deps.sh
	@mkdir -p $(BUILD)
	$(CC) -std=c99 -O2 -g $(CWARN) -I. -Itests $(BENCH_SOURCES) -o $@ $(LIBS)

# The header's generated region from shaders_embedded/ (each file once, a stage file without its
# include lines), then every program as the header hands it to GL (#version, the defines the header
# writes from C, the snippets, #line directives) in build/shaders/, to read or to give a GLSL tool.
shaders: | $(BUILD)
	sh tools/embed_shaders.sh header shaders_embedded gpuparticle.h > $(BUILD)/gpuparticle.h.new
	mv $(BUILD)/gpuparticle.h.new gpuparticle.h
	$(CC) -std=c99 -I. tests/dump_shaders.c -o $(BUILD)/dump_shaders -lm -ldl
	rm -rf $(BUILD)/shaders && mkdir -p $(BUILD)/shaders && $(BUILD)/dump_shaders $(BUILD)/shaders

check-shaders: | $(BUILD)
	sh tools/check.sh shaders

check-compile: $(GLAD)/src/gl.c
	sh tools/check.sh compile

check-docs: | $(BUILD)
	sh tools/check_docs.sh

check-words: | $(BUILD)
	sh tools/check_words.sh

check: deps check-shaders check-compile check-docs check-words

# tools/run_tests.sh builds the tests (build/gp_tests, then test-programs) and runs them in two
# lanes, one per core. The benchmark and the measurement programs are built too, so that a change
# cannot break them unseen (they run by `make bench`, `make soak`, `make sink`).
test: deps $(GLAD)/gl.o
	MAKE="$(MAKE)" sh tools/run_tests.sh

test-programs: EXAMPLE_CFLAGS = -O1 -g $(GUARD)
test-programs: $(BUILD)/gp_tests_sanitized $(EXAMPLES) $(BUILD)/bench $(BUILD)/soak $(BUILD)/sink

bench: $(BUILD)/bench
	$(BUILD)/bench

$(BUILD)/soak: bench/soak.c tests/gp_egl.h gpuparticle.h
	@sh tools/deps.sh
	@mkdir -p $(BUILD)
	$(CC) -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -g $(CWARN) -I. -Itests bench/soak.c -o $@ $(LIBS)

soak: $(BUILD)/soak
	$(BUILD)/soak $(SOAK_ARGS)

$(BUILD)/sink: bench/sink.c tests/gp_egl.h gpuparticle.h
	@sh tools/deps.sh
	@mkdir -p $(BUILD)
	$(CC) -std=c99 -O2 -g $(CWARN) -I. -Itests bench/sink.c -o $@ $(LIBS)

sink: $(BUILD)/sink
	$(BUILD)/sink $(SINK_ARGS)

# The whole API against hostile input (tests/hostile.c; HOSTILE_ARGS="--seed 3 --count", or
# HOSTILE_CFLAGS="-O0 -g -fsanitize=address,undefined,float-cast-overflow" for memory errors
# and undefined behaviour too). Not part of make test.
HOSTILE_CFLAGS ?= -O1 -g
$(BUILD)/hostile: tests/hostile.c tests/gp_egl.h gpuparticle.h $(GLAD)/gl.o
	$(CC) -std=c99 $(HOSTILE_CFLAGS) $(GUARD) $(CWARN) -I. -Itests -I$(GLAD)/include tests/hostile.c $(GLAD)/gl.o -o $@ $(LIBS)

hostile: $(BUILD)/hostile
	$(BUILD)/hostile $(HOSTILE_ARGS)

$(BUILD):
	mkdir -p $(BUILD)

clean:
	rm -rf $(BUILD)
