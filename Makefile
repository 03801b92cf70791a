# OpenBench conventions: `make EXE=NAME` builds the engine as NAME in this directory, and
# `./NAME bench` prints the node signature on its last line (docs/strength.md).
EXE ?= chimera
ifeq ($(OS),Windows_NT)
  OUT := $(EXE).exe
  BUILT := target/release/chimera.exe
else
  OUT := $(EXE)
  BUILT := target/release/chimera
endif

.PHONY: all openbench bench

all: openbench

openbench:
	cargo build --release
	cp $(BUILT) $(OUT)

bench: openbench
	./$(OUT) bench
