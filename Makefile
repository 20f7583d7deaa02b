# Two commands do everything (README):
#   make book   builds the whole book: venv, pinned requirements, the simulators' kernels, every notebook
#               through papermill (profile full), HTML into _build/html
#   make test   runs the test suite (unit tests, every notebook with the quick
#               profile, and a -W build of the book)
#   make pdf    the whole book as one PDF, _build/pdf/book.pdf (needs Chromium)
#   make book EDITION=student   the student edition: HTML without solutions in _build/student/_build/html,
#               its PDF _build/pdf/book-student.pdf and the instructor's _build/pdf/solutions.pdf
#   make pdf CODE=hidden        the PDF without the code cells (_build/pdf/book-nocode.pdf)
#   make lab    JupyterLab (the optional extra `lab`) on the notebooks to run, runs/notebooks/,
#               on 127.0.0.1 only, with Jupyter's token (README, "Running the notebooks yourself")
# PROFILE=quick JOBS=2 TEST_JOBS=2 PYTHON=python3.11 EDITION=full|student CODE=shown|hidden may be set on the
# command line (TEST_JOBS: pytest-xdist workers; `make lab` writes the student edition unless EDITION=full is given),
# ARGS="..." extra arguments of `python -m models.pipeline` (e.g. ARGS="min_mva --force"), and
# PDF_ARGS="..." of `python -m models.book.pdf` (e.g. PDF_ARGS=--allow-math-errors).
# Ctrl-C or `kill -TERM` on make stops the pipeline cleanly (README).

PYTHON  ?= python3
VENV    ?= .venv
PROFILE ?= full
JOBS    ?= 2
ARGS    ?=
PDF_ARGS ?=
TEST_JOBS ?= 2
LAB_DIR ?= runs/notebooks
LAB_PORT ?= 8888
LAB_ARGS ?=
EDITION ?= full
CODE    ?= shown
PY      := $(VENV)/bin/python

ifeq ($(filter $(EDITION),full student),)
$(error EDITION=$(EDITION): the book's editions are full and student)
endif
ifeq ($(filter $(CODE),shown hidden),)
$(error CODE=$(CODE): shown or hidden)
endif
# The student edition is built beside the full one (jupyter-book puts its build under <path-output>/_build/).
HTML_OUT := $(if $(filter student,$(EDITION)),--path-output _build/student )
PDF_OPTS  = --edition $(EDITION) --code $(CODE) $(PDF_ARGS)
# `make lab`: the notebooks to run are the student edition, unless EDITION is given (EDITION=full: an instructor's).
LAB_EDITION := $(if $(filter command line environment,$(origin EDITION)),$(EDITION),student)
STAMP   := $(VENV)/.installed

export OMP_NUM_THREADS := 1
export OPENBLAS_NUM_THREADS := 1
# Python writes the bytecode of a module the first time a process imports it (an environment that sets
# PYTHONDONTWRITEBYTECODE would otherwise compile it again in every process): the venv is installed without it
# (pip --no-compile below), which saves pip half a minute of compiling 11,000 files one by one, most never imported.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: book run html pdf pdf-print solutions-print test test-fast bench clean venv browser deps lab

venv: $(STAMP)

# Debian's headless Chromium, for the browser test (tests/test_browser.py) and `make pdf`: installed with
# apt-get when neither `chromium` nor $CHROMIUM is there (as root, or through sudo), checked on every run.
browser:
	@if [ -n "$$CHROMIUM" ] || command -v chromium >/dev/null 2>&1; then :; else \
	  echo "installing chromium (Debian package) for the browser test"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO="sudo"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null || \
	  { echo "could not install chromium: run 'apt-get install chromium' or set CHROMIUM=/path/to/chromium" >&2; exit 1; }; \
	fi

# Everything `make test` needs: the virtual environment, MathJax and the browser.
deps: $(STAMP) browser

$(STAMP): requirements.txt pyproject.toml package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error   # MathJax, served by the book itself (no CDN)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --no-compile -r requirements.txt
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# The simulators' kernels are compiled first, each once (models/sim/warm.py): two notebooks that start together on a
# fresh checkout would otherwise each compile the same kernel (about 18 CPU-seconds each time).
run: $(STAMP)
	$(PY) -m models.sim.warm --jobs $(JOBS)
	$(PY) -m models.pipeline --profile $(PROFILE) --jobs $(JOBS) $(ARGS)

# BOOK_EDITION: the edition the book's extension builds (book/_ext/compendium.py; student: no solutions anywhere).
# A _toc.yml newer than the edition's Sphinx environment rebuilds every page (--all): Sphinx's incremental build
# cannot follow a table of contents whose parts changed (a KeyError on a page that moved).
DOCTREES := $(if $(filter student,$(EDITION)),_build/student/_build/.doctrees,_build/.doctrees)
TOC_CHANGED = $(shell [ -f $(DOCTREES)/environment.pickle ] && [ _toc.yml -nt $(DOCTREES)/environment.pickle ] && echo --all)
html: $(STAMP)
	BOOK_EDITION=$(EDITION) $(VENV)/bin/jupyter-book build . $(HTML_OUT)$(if $(TOC_CHANGED),$(TOC_CHANGED) )-n -W --keep-going

ifeq ($(EDITION),student)
# the student edition: its HTML, its PDF and the instructor's solutions PDF beside it
book: run html pdf-print solutions-print
	@echo "The student edition is in _build/student/_build/html/index.html, _build/pdf/book-student.pdf;"
	@echo "the solutions (for the instructor) in _build/pdf/solutions.pdf"
else
book: run html
	@echo "The book is in _build/html/index.html"
endif

# One HTML page of the whole book (jupyter-book's singlehtml builder), printed
# to PDF by the system's headless Chromium (models/book/pdf.py; CHROMIUM=... elsewhere):
# title page, contents, bookmarks, page numbers; fails on a MathJax error box.
# EDITION=student prints the student edition and, beside it, the solutions (every exercises page, solutions open);
# CODE=hidden leaves the code cells out (their outputs stay).
pdf: $(STAMP) browser
	$(PY) -m models.book.pdf --check-out $(PDF_OPTS)
	$(MAKE) run
	$(MAKE) pdf-print $(if $(filter student,$(EDITION)),solutions-print,)

# the prints alone, after `make run` (`make book EDITION=student` runs them after the notebooks)
pdf-print: $(STAMP) browser
	$(PY) -m models.book.pdf $(PDF_OPTS)

solutions-print: $(STAMP) browser
	$(PY) -m models.book.pdf --edition solutions --code $(CODE) $(PDF_ARGS)

# $(call shell_word,TEXT): TEXT as one word of the shell, a backslash before each blank and each character the
# shell would act on (make lab LAB_DIR="my lab", review L6); a plain path is written as it is.
empty :=
space := $(empty) $(empty)
lparen := (
rparen := )
shell_specials := \ ' " ` $(lparen) $(rparen) & ; | < > * ? [ ] ~ !
escape_first = $(subst $(firstword $(2)),\$(firstword $(2)),$(1))
escape_each = $(if $(2),$(call escape_each,$(call escape_first,$(1),$(2)),$(wordlist 2,99,$(2))),$(1))
shell_word = $(subst $(space),\$(space),$(call escape_each,$(1),$(shell_specials)))
LAB_DIR_WORD = $(call shell_word,$(LAB_DIR))

# JupyterLab for students: installs the optional extra `lab` (pyproject.toml), writes the notebooks to run
# (python -m models.classroom: the quick profile's values, no outputs; a copy already there is kept, since it
# may hold a student's work) and serves them from 127.0.0.1 only; Jupyter's token is on (the URL it prints).
lab: $(STAMP)
	$(PY) -m pip install --quiet --no-build-isolation -e ".[lab]"
	$(PY) -m models.classroom --out $(LAB_DIR_WORD) --edition $(LAB_EDITION)
	$(VENV)/bin/jupyter lab --ip=127.0.0.1 --port=$(LAB_PORT) --no-browser --ServerApp.root_dir=$(LAB_DIR_WORD) $(LAB_ARGS)

# pytest on TEST_JOBS cores (pytest-xdist); the workers share one fresh simulation cache, removed when the run
# ends (unless MODELS_CACHE_DIR is set: that folder, kept), and one quick book (tests/conftest.py), so nothing is
# simulated or built twice.  Work stealing (--dist worksteal): a worker that runs out of tests takes half of the
# other's queue, so both end within a test of each other (xdist's default load scheduling left one core idle for
# the last 47 to 58 s of a run).
test: deps
	$(PY) -m pytest -n $(TEST_JOBS) --dist worksteal

test-fast: $(STAMP)
	$(PY) -m pytest -n $(TEST_JOBS) --dist worksteal -m "not notebooks and not book and not slow"

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do $(PY) $$f || exit 1; done

clean:
	rm -rf _build book/*/*.ipynb book/*/figures book/*/tables book/*/*.provenance.json \
	       book/_generated book/reproducibility-data.json
