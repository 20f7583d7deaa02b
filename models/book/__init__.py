"""The book's own machinery: what makes the pages and the printed book, not the science.

* :mod:`models.book.typeset` -- ``show_equation``: the derivation pages' equations, with tags MathJax
  can typeset and lines within the column;
* :mod:`models.book.pdf` -- ``make pdf``: the whole book as one PDF (``python -m models.book.pdf``).

A floor above ``core`` (DESIGN.md): it imports ``core`` and nothing else of ``models``; no model, simulator or
chapter imports it (the notebooks and the Makefile do).
"""
