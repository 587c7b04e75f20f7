# make demo   build every sample to PTX (and assemble it with ptxas when present), then run vecadd
# make test   install into .venv with the test extras and run the test suite
# make clean  remove build outputs; make distclean also removes .venv
#
# Re-runs are quick: the virtual environment and the install are stamp files that are
# redone only when pyproject.toml or a source file changes, and each PTX file is rebuilt
# only when its sample (or the installed compiler) is newer.

PYTHON     ?= python3
VENV       ?= .venv
BIN        := $(VENV)/bin
# Wheels in .whl/ (where present: lark, for the GPU machine, which has no index) are used
# before the index; everything else comes from PyPI.
PIP_FLAGS  ?= $(if $(wildcard .whl/*.whl),--find-links .whl)
ARCH       ?= sm_90
PTXAS      ?= $(firstword $(wildcard /usr/local/bin/ptxas) $(shell command -v ptxas 2>/dev/null))
PYTEST_ARGS ?=

export PIP_DISABLE_PIP_VERSION_CHECK := 1

SAMPLES    := $(wildcard samples/*.rs)
# samples that use Hopper features (samples/reference.py MIN_ARCH; a test keeps them equal):
# built for sm_90, the others for oxidec's default target
SM90_SAMPLES := cluster_reduce tma_copy
PTX        := $(patsubst samples/%.rs,build/%.ptx,$(SAMPLES))
CUBIN      := $(patsubst samples/%.rs,build/%.$(ARCH).cubin,$(SAMPLES))
SOURCES    := $(shell find oxidec grammar -name '*.py' -o -name '*.lark' 2>/dev/null)

VENV_STAMP    := $(VENV)/.oxidec-venv
INSTALL_STAMP := $(VENV)/.oxidec-installed

.PHONY: demo test samples clean distclean

demo: samples
	$(BIN)/oxidec run samples/vecadd.rs --kernel vecadd \
	    --arg a=rand:f32:1000000 --arg b=rand:f32:1000000 --arg c=zeros:f32:1000000

test: $(INSTALL_STAMP)
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

# All samples to PTX; also to cubins when ptxas is here (it checks what the driver would JIT).
samples: $(PTX) $(if $(PTXAS),$(CUBIN))
ifeq ($(PTXAS),)
	@echo "ptxas not found: PTX not assembled"
endif

$(VENV_STAMP):
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q $(PIP_FLAGS) 'setuptools>=70.1'
	@touch $@

# Not editable: this is the install a user gets (the grammar comes from the package data).
# setuptools builds in build/lib and would ship files deleted since the last build, so
# that is cleared first.
$(INSTALL_STAMP): $(VENV_STAMP) pyproject.toml $(SOURCES)
	rm -rf build/lib build/bdist.* oxidec.egg-info
	$(BIN)/pip install -q $(PIP_FLAGS) --no-build-isolation '.[test]'
	rm -rf build/lib build/bdist.* oxidec.egg-info
	@touch $@

build/%.ptx: samples/%.rs $(INSTALL_STAMP)
	@mkdir -p build
	$(BIN)/oxidec build $< -o $@ $(if $(filter $*,$(SM90_SAMPLES)),--arch sm_90)

build/%.$(ARCH).cubin: build/%.ptx
	$(PTXAS) -arch=$(ARCH) $< -o $@

clean:
	rm -rf build oxidec.egg-info .pytest_cache

distclean: clean
	rm -rf $(VENV)
