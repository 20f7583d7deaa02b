"""The findings chapter's pages: notebook defaults, glue keys of the index, and the real claims tables if built."""

import json
import re

import pandas as pd
import pytest

import models
from models import pipeline
from models.core.paths import BOOK, ROOT
from models.findings import one_network as one
from models.findings import verdicts

NOTEBOOKS = ROOT / "notebooks" / "findings"


def _source(name: str) -> str:
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())
    return "\n".join("".join(c["source"]) for c in nb["cells"])


def test_claims_page_reads_every_chapter_in_book_order():
    assert pipeline.notebook_defaults(NOTEBOOKS / "01-claims.ipynb")["chapters"] == list(models.CHAPTERS)


def test_one_network_page_runs_every_setup_by_default():
    defaults = pipeline.notebook_defaults(NOTEBOOKS / "02-one-network.ipynb")
    assert defaults["setups"] == list(one.SETUPS)
    assert (defaults["k"], defaults["M"], defaults["V"]) == (16, 32, 10)


def test_index_glues_only_keys_the_notebooks_write():
    index = (BOOK / "findings" / "index.md").read_text()
    keys = re.findall(r"\{glue:text\}`(\d\d-[a-z0-9-]+)\.ipynb::([a-zA-Z0-9_-]+)", index)
    assert keys
    claim = dict(chapter="torus_nbc", claim_id="a", claim="c", kind="fact", setup="-", worst_err=None,
                 sat_ratio=None, threshold=None, holds=True, cause="-", note="")
    computed = {"01-claims": set(verdicts.glue_values(verdicts.verdict_table(pd.DataFrame([claim])))),
                "02-one-network": {one.glue_key(s) for s in [*one.SETUPS, one.OWN_SETUP]}}
    for notebook, key in keys:
        assert (NOTEBOOKS / f"{notebook}.ipynb").exists(), notebook
        assert f'"{key}"' in _source(notebook) or key in computed[notebook], key


def test_index_ends_with_the_shared_headings():
    heads = re.findall(r"^## (.+)$", (BOOK / "findings" / "index.md").read_text(), flags=re.M)
    assert heads[-3:] == ["Findings", "Simulator set-ups", "Source code"]


@pytest.mark.parametrize("chapter", models.CHAPTERS)
def test_built_claims_table_is_valid(chapter):
    path = verdicts.claims_path(BOOK, chapter)
    if not path.exists():
        pytest.skip(f"{path} not built")
    claims = verdicts.read_chapter_claims(BOOK, chapter)
    assert len(verdicts.verdict_table(claims)) >= 1
