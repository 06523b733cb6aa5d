"""Exports of a review: an annotated copy of each PDF, an HTML report with pictures, a CSV
table and W3C Web Annotations.

Every exporter is a function of the ``check --json`` document (with the review's
``decision`` and ``support`` objects when there is a review), the citations file's
records and the PDFs. They use PyMuPDF, so they run in the check process (the window's
File ▸ Export) or in ``citeview export``'s own process, never in the window's.
:mod:`.run` writes the outputs asked for; each is written whole or not at all.
"""
