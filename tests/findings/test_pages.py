"""The findings chapter's pages: notebook defaults, glue keys of the index, and the real claims tables if built."""

import json
import re

import pandas as pd
import pytest

import models
from models import pipeline
from models.core.paths import BOOK, ROOT
from models.findings import one_network as one
from models.core.claims import Claim, claims_frame
from models.findings import verdicts

NOTEBOOKS = ROOT / "notebooks" / "findings"


def _source(name: str) -> str:
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())
    return "\n".join("".join(c["source"]) for c in nb["cells"])


def test_claims_page_reads_every_chapter_in_book_order():
    # no list of its own: None is every chapter of models.CHAPTERS, in book order (a sixth chapter needs no edit)
    assert pipeline.notebook_defaults(NOTEBOOKS / "01-claims.ipynb")["chapters"] is None


def test_one_network_page_runs_every_setup_by_default():
    defaults = pipeline.notebook_defaults(NOTEBOOKS / "02-one-network.ipynb")
    assert defaults["setups"] == list(one.SETUPS)
    assert (defaults["k"], defaults["M"], defaults["V"]) == (16, 32, 10)


def test_index_glues_only_keys_the_notebooks_write():
    index = (BOOK / "findings" / "index.md").read_text()
    keys = re.findall(r"\{glue:text\}`(\d\d-[a-z0-9-]+)\.ipynb::([a-zA-Z0-9_-]+)", index)
    assert keys
    claim = Claim("a", "Sec. 1", "c", "fact", quantifier="one").row("torus_nbc", holds=True, criterion="exact",
                                                                    stands_for="-")
    table = verdicts.verdict_table(claims_frame([claim]))
    computed = {"01-claims": set(verdicts.glue_values(table, verdicts.read_reproductions(ROOT / "nothing"))),
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


def _findings_section(chapter: str) -> str:
    text = (BOOK / chapter / "index.md").read_text()
    m = re.search(r"^## Findings\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert m, f"book/{chapter}/index.md has no '## Findings' section"
    return m.group(1)


@pytest.mark.parametrize("chapter", models.CHAPTERS)
def test_a_chapters_findings_show_the_findings_verdicts(chapter):
    """One verdict, one place (issue #25, item 5): each chapter's Findings section shows its rows of the findings
    table, glued by the findings page, and types no verdict of its own that could disagree with it."""
    section = _findings_section(chapter)
    assert f"```{{glue}} findings-verdicts-{chapter}\n:doc: ../findings/01-claims.ipynb\n```" in section
    assert "```{glue} findings-verdict-legend\n:doc: ../findings/01-claims.ipynb\n```" in section
    assert "glue_tables(" in _source("01-claims")
    claim = Claim(verdicts.main_claim_id(chapter), "Sec. 1", "c", "fact", quantifier="one").row(
        chapter, holds=True, criterion="exact", stands_for="-")
    table = verdicts.verdict_table(claims_frame([claim]))
    glued = verdicts.glue_tables(table, verdicts.read_reproductions(ROOT / "nothing"), [chapter])
    assert f"findings-verdicts-{chapter}" in glued and glued[f"findings-summary-{chapter}"] == "1 claim: 1 holds"
    assert glued[f"findings-main-{chapter}"].data.startswith("<p>The paper's main claim (Sec. 1): \u201cc\u201d "
                                                             "<b>Verdict: holds.</b>")
    assert glued["findings-verdict-legend"].data.count("<p><b>") == len(verdicts.VERDICTS)
    typed = re.findall(r"\*\*(holds|holds with a caveat|does not hold|cannot be checked|reproduced|"
                       r"not reproduced)\*\*", section)
    assert not typed, f"book/{chapter}/index.md types verdicts by hand in its Findings section: {typed}"


@pytest.mark.parametrize("chapter", models.CHAPTERS)
def test_every_tolerance_shown_is_the_papers(chapter):
    """No row of the verdict table shows a tolerance whose source is not the paper: every threshold of a built
    claims table comes with the paper's words, and the number is in them."""
    path = verdicts.claims_path(BOOK, chapter)
    if not path.exists():
        pytest.skip(f"{path} not built")
    claims = verdicts.read_chapter_claims(BOOK, chapter)
    for r in claims.itertuples(index=False):
        if r.threshold == r.threshold:  # not NaN
            assert verdicts.threshold_in_quote(r.threshold, r.threshold_quote), (r.claim_id, r.threshold_quote)


def test_the_referee_record_is_whole():
    record = verdicts.referee_record()  # the report on cf1263c (33 verdict rows)
    assert list(record["number"].astype(int)) == list(range(1, 34))
    assert record["judgement"].value_counts().to_dict() == {"F": 25, "Q": 7, "W": 1}
    assert record["verdict_before"].value_counts().to_dict() == {"holds": 8, "holds with a caveat": 9,
                                                                 "does not hold": 9, "cannot be checked": 7}
    old = verdicts.referee_record(verdicts.REFEREE_RECORD.with_name("referee-verdicts-96c92d8.csv"))
    assert len(old) == 51 and old["judgement"].value_counts().to_dict() == {"F": 30, "Q": 8, "W": 13}
    assert all(now.split(":")[0] in ("claims", "reproductions", "chapter") for now in record["now"]), \
        "every row the referee judged says where it is now"


@pytest.mark.parametrize("chapter", models.CHAPTERS)
def test_the_verdict_comes_first(chapter):
    """Each chapter index opens with the paper's main claim, its verdict and the one reason, then the count of
    all its claims' verdicts (glued from the findings page) before its first section, and the intro's chapter
    table has the verdict column."""
    text = (BOOK / chapter / "index.md").read_text()
    first_section = text.index("\n## ")
    box = text.find("````{admonition} The paper's main claim, and its verdict")
    assert 0 < box < first_section
    assert f"```{{glue}} findings-main-{chapter}\n:doc: ../findings/01-claims.ipynb\n```" in text[box:first_section]
    assert f"../findings/01-claims.ipynb::findings-summary-{chapter}:s" in text[box:first_section]
    intro = (BOOK / "intro.md").read_text()
    assert f"{{glue:text}}`findings/01-claims.ipynb::findings-summary-{chapter}:s`" in intro
