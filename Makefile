# OpenBench conventions: `make EXE=NAME` builds the engine as NAME in this directory, and
# `./NAME bench` prints the node signature on its last line (docs/strength.md).
EXE ?= chimera
# TUNE=1 builds an engine that offers the search's tunable constants as UCI options without
# CHIMERA_TUNE set (OpenBench's SPSA workers cannot set it; a tuning branch sets TUNE ?= 1)
TUNE ?=
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
	CHIMERA_TUNE_BUILD=$(TUNE) cargo build --release
	cp $(BUILT) $(OUT)

bench: openbench
	./$(OUT) bench
