"""The generator of the bundled demo (``resources/demo/policy.pdf`` and ``demo.cite``).

Tooling, not package data: it imports PyMuPDF to typeset the insurance application, and
only what it writes ships in the wheel. ``python -m scripts.demo_gen.make_demo`` from the
repository root rewrites the demo; ``tests/pdfgen.py`` builds test forms with it.
"""
