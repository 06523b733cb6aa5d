"""Draw the demo insurer's application form and record where every tested piece landed.

The form carries what makes quoting real insurance PDFs hard: label/value form boxes, a rate
table drawn as a grid, Yes/No questions, the same fraud warning repeated for several states,
paragraphs wrapped into real lines with words hyphenated across line ends, curly apostrophes,
dashes and ﬁ/ﬂ ligatures in the text layer, and signature blocks whose values sit on one line
with their labels on the line below (so the page order is value, value, value, label, label,
label while a reader pairs them label → value).

:func:`write_application` returns an :class:`ApplicationTruth`: every box is in PDF points in
``page.get_text("words")`` space (unrotated page, origin top-left), pages 0-based.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal

import pymupdf

from . import wording as w
from .profile import Profile, make_profile, money, scheduled_items
from .typeset import (
    BLACK,
    GREY,
    LETTER,
    NAVY,
    RULE,
    SHADE,
    Canvas,
    Color,
    Flow,
    Frame,
    Placed,
    PlacedLine,
    Rect,
    font,
    new_document,
    save_compact,
)

# The form's fixed pages: page 1 (applicant, coverage), page 2 (history), last (signatures).
MIN_PAGES = 3
SUPPLEMENT_ROWS = 24

LEFT, RIGHT = 54.0, 558.0
FIRST_BODY_TOP = 120.0  # below the letterhead and title of page 1
BODY_TOP = 58.0  # below the running header of pages 2..n
BODY_BOTTOM = 744.0
FOOTER_RULE = 750.0
FOOTER_BASELINE = 762.0

BODY = "tiro"
BODY_SIZE = 9.0
BODY_LEADING = 11.0
LABEL = "helv"
VALUE = "cour"
FIELD_HEIGHT = 23.0
HEADER_ROW = 16.0
TABLE_ROW = 15.0
SECTION_BAR = 14.0
CHECKBOX = 7.5
# Left edges of the "Yes" and "No" tick boxes; question text stops short of the first.
YES_X, NO_X = 480.0, 518.0
QUESTION_INDENT = 18.0
QUESTION_RIGHT = RIGHT - YES_X + 14.0
# Signature block: the rule sits this far below the values' baseline, the labels' baseline
# this far below the rule, so the labels are the very next printed line.
SIGN_RULE_DROP = 3.5
SIGN_LABEL_DROP = 9.5


@dataclass(frozen=True, slots=True)
class Box:
    """Text printed in one piece: 0-based page, the text as drawn, and its word box."""

    page: int
    text: str
    rect: Rect


@dataclass(frozen=True, slots=True)
class Field:
    """A form box: its small printed label and the value typed into it."""

    label: Box
    value: Box


@dataclass(frozen=True, slots=True)
class Question:
    """A Yes/No question, the printed choices, and the "X" marking the answer given."""

    number: str
    text: Placed
    answer: bool
    choices: tuple[Box, Box]
    mark: Box

    @property
    def answer_text(self) -> str:
        return "Yes" if self.answer else "No"


@dataclass(frozen=True, slots=True)
class FraudWarning:
    """One state's copy of the fraud warning; the state name leads and ends it."""

    state: str
    paragraph: Placed


@dataclass(frozen=True, slots=True)
class SignatureBlock:
    """Values printed side by side on one line; each value's label on the line directly below."""

    role: Literal["applicant", "agent"]
    values: tuple[Box, ...]
    labels: tuple[Box, ...]

    def meaning_order(self) -> str:
        """The block read as a person pairs it: ``Signature of Applicant <name>, Print Name …``."""
        return ", ".join(f"{lab.text} {val.text}" for lab, val in
                         zip(self.labels, self.values, strict=True))


@dataclass(frozen=True)
class ApplicationTruth:
    """Where everything of interest was printed in a generated application."""

    path: Path
    profile: Profile
    page_count: int
    fields: tuple[Field, ...]
    rate_header: tuple[Box, ...]
    rate_rows: tuple[tuple[Box, ...], ...]
    questions: tuple[Question, ...]
    details: tuple[Placed, ...]
    fraud_warnings: tuple[FraudWarning, ...]
    signatures: tuple[SignatureBlock, ...]
    paragraphs: dict[str, Placed]

    def field(self, label_start: str) -> Field:
        """The form field whose label starts with ``label_start``."""
        return next(f for f in self.fields if f.label.text.startswith(label_start))

    def signature(self, role: Literal["applicant", "agent"] = "applicant") -> SignatureBlock:
        """The signature block of ``role``."""
        return next(s for s in self.signatures if s.role == role)

    def question(self, number: str) -> Question:
        """The question printed with ``number`` ("1" … "10", or "A")."""
        return next(q for q in self.questions if q.number == number)

    def hyphen_breaks(self) -> list[tuple[PlacedLine, PlacedLine]]:
        """Every (line ending "xx-", next line) pair of the wrapped text: a word split in two."""
        placed = [*self.paragraphs.values(), *self.details,
                  *(q.text for q in self.questions), *(f.paragraph for f in self.fraud_warnings)]
        return [(a, b) for p in placed for a, b in zip(p.lines, p.lines[1:], strict=False)
                if a.hyphen]


def write_application(
    path: Path | str, *, applicant: str | None = None, seed: int = 0, pages: int = MIN_PAGES
) -> ApplicationTruth:
    """Write a ``pages``-page application for a seeded applicant to ``path``; return the truth.

    Pages beyond the three of the form proper are scheduled-property continuation sheets,
    inserted before the signature page so the signatures always close the document.
    Deterministic: the same arguments give the same bytes.
    """
    if pages < MIN_PAGES:
        raise ValueError(f"an application has at least {MIN_PAGES} pages, not {pages}")
    out = Path(path)
    profile = make_profile(seed, applicant=applicant)
    doc = new_document(title="Application for Individual Life and Homeowners Insurance",
                       author=w.COMPANY, subject=f"Policy {profile.policy_number}")
    form = _FormWriter(doc, profile, pages)
    form.first_page()
    form.history_page()
    for sheet in range(pages - MIN_PAGES):
        form.supplement_page(sheet)
    form.signature_page()
    save_compact(doc, str(out))
    doc.close()
    return form.truth(out)


class _FormWriter:
    """Lays the form out page by page, collecting the truth as it goes."""

    def __init__(self, doc: pymupdf.Document, profile: Profile, pages: int) -> None:
        self.doc = doc
        self.p = profile
        self.total = pages
        self.fields: list[Field] = []
        self.rate_header: tuple[Box, ...] = ()
        self.rate_rows: list[tuple[Box, ...]] = []
        self.questions: list[Question] = []
        self.details: list[Placed] = []
        self.warnings: list[FraudWarning] = []
        self.signatures: list[SignatureBlock] = []
        self.paragraphs: dict[str, Placed] = {}
        self.canvas: Canvas
        self.flow: Flow

    def truth(self, path: Path) -> ApplicationTruth:
        return ApplicationTruth(path, self.p, self.total, tuple(self.fields), self.rate_header,
                                tuple(self.rate_rows), tuple(self.questions),
                                tuple(self.details), tuple(self.warnings),
                                tuple(self.signatures), dict(self.paragraphs))

    # -- pages ---------------------------------------------------------------------------------

    def _new_page(self, top: float) -> None:
        page = self.doc.new_page(width=LETTER[0], height=LETTER[1])
        self.canvas = Canvas(page)
        self.flow = Flow(iter([Frame(self.canvas, (LEFT, top, RIGHT, BODY_BOTTOM))]))

    def _end_page(self) -> None:
        self._footer()
        self.canvas.close()

    def first_page(self) -> None:
        p = self.p
        self._new_page(top=FIRST_BODY_TOP)
        c = self.canvas
        c.text(LEFT, 56, w.COMPANY, face="hebo", size=14, color=NAVY)
        c.text(LEFT, 68, w.HOME_OFFICE, face=LABEL, size=7, color=GREY)
        c.text(LEFT, 77, w.ADMIN_OFFICE, face=LABEL, size=7, color=GREY)
        c.box((424, 40, RIGHT, 76))
        c.text(429, 49, "POLICY NUMBER (HOME OFFICE USE)", face=LABEL, size=5.8, color=GREY)
        c.text(429, 68, p.policy_number, face="cobo", size=11)
        c.rule(LEFT, 84, RIGHT, width=2, color=NAVY)
        c.text(306, 101, w.TITLE, face="hebo", size=11.5, align="centre")
        c.text(306, 112, w.SUBTITLE, face="heit", size=7.5, color=GREY, align="centre")

        self._section("SECTION 1 \u2014 APPLICANT INFORMATION")
        self._field_rows([
            [("Full legal name of applicant (first, middle, last)", p.applicant, 250),
             ("Date of birth", p.birth_date, 82), ("Sex", p.sex, 40),
             ("Social Security number", p.ssn, 0)],
            [("Residence address (number and street)", p.street, 250), ("City", p.city, 122),
             ("State", p.state, 40), ("ZIP code", p.zip_code, 0)],
            [("Home telephone", p.phone, 120), ("E-mail address", p.email, 204),
             ("Occupation", p.occupation, 0)],
            [("Annual earned income", p.income, 120), ("Primary beneficiary", p.beneficiary, 204),
             ("Relationship to applicant", p.relationship, 0)],
            [("Location of property to be insured", "Same as residence address", 250),
             ("Year built", p.year_built, 82), ("Construction", p.construction, 0)],
        ])

        self._section("SECTION 2 \u2014 COVERAGE REQUESTED AND PREMIUM SCHEDULE")
        self.paragraphs["coverage_intro"] = self.flow.paragraph(w.COVERAGE_INTRO, ligatures=True)
        rows = [c.cells() for c in p.coverages]
        rows.append(("Total annual premium", "", "", money(p.total_premium, cents=True), ""))
        header, body = self._table(w.RATE_HEADER, rows, (182, 86, 72, 86, 0),
                                   numeric=(1, 2, 3), bold_last=True)
        self.rate_header, self.rate_rows = header, body[:-1]
        self.paragraphs["premium_note"] = self.flow.paragraph(
            w.PREMIUM_NOTE, face=BODY, size=8, leading=9.6, color=GREY, after=5)
        self._field_rows([
            [("Premium mode", "Annual", 120), ("Payment method", "Electronic funds transfer", 204),
             ("Amount paid with this application", money(p.total_premium, cents=True), 0)],
        ])

        self._section("SECTION 3 \u2014 EXISTING INSURANCE AND REPLACEMENT")
        self.paragraphs["existing_intro"] = self.flow.paragraph(w.EXISTING_INTRO)
        self._table(w.EXISTING_HEADER,
                    [e.cells(replaced=p.replacing) for e in p.existing],
                    (170, 96, 80, 74, 0), numeric=(2,))
        self.flow.skip(2)
        self._question("A", w.REPLACEMENT_QUESTION, p.replacing)
        self._end_page()

    def history_page(self) -> None:
        p = self.p
        self._new_page(top=BODY_TOP)
        self._running_header()
        self._section("SECTION 4 \u2014 MEDICAL HISTORY OF THE PROPOSED INSURED")
        self._field_rows([
            [("Height", p.height, 72), ("Weight", p.weight, 72),
             ("Name and address of personal physician", p.physician, 0)],
            [("Date last consulted", p.last_consulted, 144),
             ("Reason for last consultation and outcome", p.consult_reason, 0)],
        ])
        self.paragraphs["medical_intro"] = self.flow.paragraph(w.MEDICAL_INTRO)
        self._questions(w.MEDICAL_QUESTIONS, p.answers[:6], first=1)
        self._section("SECTION 5 \u2014 PROPERTY AND LOSS HISTORY")
        self.paragraphs["property_intro"] = self.flow.paragraph(w.PROPERTY_INTRO)
        self._questions(w.PROPERTY_QUESTIONS, p.answers[6:], first=7)
        self._section("SECTION 6 \u2014 AUTHORIZATION TO OBTAIN AND DISCLOSE INFORMATION")
        self.paragraphs["authorization"] = self.flow.paragraph(w.AUTHORIZATION, ligatures=True)
        self._end_page()

    def supplement_page(self, sheet: int) -> None:
        self._new_page(top=BODY_TOP)
        self._running_header()
        self._section(f"{w.SUPPLEMENT_TITLE} (SHEET {sheet + 1})")
        self.flow.paragraph(w.SUPPLEMENT_INTRO, ligatures=True)
        self._table(w.SUPPLEMENT_HEADER, scheduled_items(self.p, SUPPLEMENT_ROWS, sheet=sheet),
                    (70, 300, 60, 0), numeric=(3,))
        self.flow.paragraph(w.SUPPLEMENT_REMARKS, ligatures=True)
        self._end_page()

    def signature_page(self) -> None:
        p = self.p
        self._new_page(top=BODY_TOP)
        self._running_header()
        self._section("SECTION 7 \u2014 FRAUD WARNINGS")
        self.paragraphs["fraud_intro"] = self.flow.paragraph(w.FRAUD_INTRO)
        for state in p.fraud_states:
            para = self.flow.paragraph(w.FRAUD_WARNING.format(state=state), size=8.5,
                                       leading=10.4, lead=f"{state}:", lead_face="tibo", after=5)
            self.warnings.append(FraudWarning(state, para))
        self._section("SECTION 8 \u2014 DECLARATIONS AND SIGNATURES")
        self.paragraphs["declaration"] = self.flow.paragraph(w.DECLARATION, ligatures=True)
        self.flow.skip(14)
        self._signature_block("applicant", [
            (w.APPLICANT_LABELS[0], p.applicant, "tiit", 15, NAVY, LEFT, 292),
            (w.APPLICANT_LABELS[1], p.applicant, VALUE, 10, BLACK, 308, 460),
            (w.APPLICANT_LABELS[2], p.signed_on, VALUE, 10, BLACK, 476, RIGHT),
        ])
        self.flow.skip(10)
        self.paragraphs["agent_statement"] = self.flow.paragraph(
            w.AGENT_STATEMENT, lead="Agent\u2019s certification:", lead_face="tibo")
        self.flow.skip(14)
        self._signature_block("agent", [
            (w.AGENT_LABELS[0], p.agent, "tiit", 14, NAVY, LEFT, 292),
            (w.AGENT_LABELS[1], p.agent_license, VALUE, 10, BLACK, 308, 460),
            (w.AGENT_LABELS[2], p.signed_on, VALUE, 10, BLACK, 476, RIGHT),
        ])
        self.flow.skip(14)
        self._home_office_box()
        self._end_page()

    # -- page furniture ------------------------------------------------------------------------

    def _running_header(self) -> None:
        c = self.canvas
        c.text(LEFT, 38, f"{w.COMPANY} \u2014 Application for Life and Homeowners Insurance",
               face=LABEL, size=7, color=GREY)
        c.text(RIGHT, 38, f"Policy No. {self.p.policy_number}", face=LABEL, size=7, color=GREY,
               align="right")
        c.rule(LEFT, 43, RIGHT, width=0.8, color=NAVY)

    def _footer(self) -> None:
        c = self.canvas
        c.rule(LEFT, FOOTER_RULE, RIGHT, width=0.4)
        c.text(LEFT, FOOTER_BASELINE, w.FORM_NUMBER, face=LABEL, size=7, color=GREY)
        c.text(306, FOOTER_BASELINE, f"Page {c.index + 1} of {self.total}", face=LABEL, size=7,
               color=GREY, align="centre")
        initials = "".join(part[0] for part in self.p.applicant.split())
        c.text(RIGHT - 22, FOOTER_BASELINE, "Applicant\u2019s initials:", face=LABEL, size=7,
               color=GREY, align="right")
        c.text(RIGHT, FOOTER_BASELINE, initials, face=VALUE, size=9, align="right")

    def _section(self, title: str) -> None:
        f = self.flow
        f.need(SECTION_BAR + 3 * BODY_LEADING)
        f.skip(4)
        self.canvas.box((LEFT, f.y, RIGHT, f.y + SECTION_BAR), color=None, fill=SHADE)
        self.canvas.rule(LEFT, f.y, RIGHT, width=1, color=NAVY)
        self.canvas.text(LEFT + 4, f.y + 10, title, face="hebo", size=8.5, color=NAVY)
        f.skip(SECTION_BAR + 5)

    def _home_office_box(self) -> None:
        f, c = self.flow, self.canvas
        height = min(80.0, BODY_BOTTOM - f.y)
        c.box((LEFT, f.y, RIGHT, f.y + height), width=0.6)
        c.text(LEFT + 5, f.y + 10, w.HOME_OFFICE_BOX, face="hebo", size=7, color=GREY)
        for k in range(1, int(height // 16)):
            c.rule(LEFT + 5, f.y + 10 + k * 16, RIGHT - 5, width=0.3, color=SHADE)
        f.skip(height)

    # -- form elements -------------------------------------------------------------------------

    def _field_rows(self, rows: Sequence[Sequence[tuple[str, str, float]]]) -> None:
        """Rows of boxed fields; a width of 0 takes what is left of the row."""
        f, c = self.flow, self.canvas
        for row in rows:
            f.need(FIELD_HEIGHT)
            x, top = LEFT, f.y
            for label, value, width in row:
                x1 = RIGHT if width == 0 else x + width
                c.box((x, top, x1, top + FIELD_HEIGHT))
                lab = c.text(x + 3, top + 7, label, face=LABEL, size=5.8, color=GREY)
                val = c.text(x + 4, top + 18.5, value, face=VALUE, size=9.5)
                self.fields.append(Field(Box(c.index, label, lab), Box(c.index, value, val)))
                x = x1
            f.skip(FIELD_HEIGHT)
        f.skip(6)

    def _table(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[str]],
        widths: Sequence[float],
        *,
        numeric: Sequence[int] = (),
        bold_last: bool = False,
    ) -> tuple[tuple[Box, ...], list[tuple[Box, ...]]]:
        """A ruled grid: shaded header, one line per row, numbers right-aligned."""
        f, c = self.flow, self.canvas
        f.need(HEADER_ROW + TABLE_ROW * len(rows))
        edges = [LEFT]
        for width in widths:
            edges.append(RIGHT if width == 0 else edges[-1] + width)
        top = f.y
        bottom = top + HEADER_ROW + TABLE_ROW * len(rows)
        c.box((LEFT, top, RIGHT, top + HEADER_ROW), color=None, fill=SHADE)

        def row_boxes(cells: Sequence[str], baseline: float, face: str, size: float,
                      color: Color = BLACK) -> tuple[Box, ...]:
            boxes = []
            for k, cell in enumerate(cells):
                if not cell:
                    continue
                if k in numeric:
                    rect = c.text(edges[k + 1] - 4, baseline, cell, face=face, size=size,
                                  color=color, align="right")
                else:
                    rect = c.text(edges[k] + 4, baseline, cell, face=face, size=size,
                                  color=color)
                boxes.append(Box(c.index, cell, rect))
            return tuple(boxes)

        head = row_boxes(header, top + 11, "hebo", 7.5, NAVY)
        body = []
        for i, cells in enumerate(rows):
            y = top + HEADER_ROW + i * TABLE_ROW
            face = "hebo" if bold_last and i == len(rows) - 1 else LABEL
            body.append(row_boxes(cells, y + 10.5, face, 8.5))
            c.rule(LEFT, y, RIGHT, width=0.4)
        c.box((LEFT, top, RIGHT, bottom), width=0.7, color=RULE)
        for x in edges[1:-1]:
            c.page.draw_line((x, top), (x, bottom), color=RULE, width=0.4)
        f.skip(bottom - top + 6)
        return head, body

    def _question(self, number: str, text: str, answer: bool) -> Question:
        """A numbered question with Yes/No tick boxes on its first line, the answer marked."""
        f, c = self.flow, self.canvas
        f.need(2 * BODY_LEADING)
        baseline = f.y + font(BODY).ascender * BODY_SIZE
        c.text(LEFT, baseline, f"{number}.", face="hebo", size=8.5)
        para = f.paragraph(text, indent=QUESTION_INDENT, right=QUESTION_RIGHT, after=3)
        choices = []
        for x, word in ((YES_X, "Yes"), (NO_X, "No")):
            c.box((x, baseline - CHECKBOX + 0.5, x + CHECKBOX, baseline + 0.5), width=0.6,
                  color=BLACK)
            choices.append(Box(c.index, word, c.text(x + CHECKBOX + 3, baseline, word,
                                                     face=LABEL, size=8)))
        mark_x = (YES_X if answer else NO_X) + CHECKBOX / 2
        mark = Box(c.index, "X", c.text(mark_x, baseline - 0.5, "X", face="cobo", size=8.5,
                                        align="centre"))
        question = Question(number, para, answer, (choices[0], choices[1]), mark)
        self.questions.append(question)
        return question

    def _questions(self, items: Sequence[tuple[str, str]], answers: Sequence[bool], *,
                   first: int) -> None:
        """Numbered questions, then a ruled box with the details of every "Yes"."""
        details = []
        for k, ((text, detail), answer) in enumerate(zip(items, answers, strict=True)):
            self._question(str(first + k), text, answer)
            if answer:
                details.append(f"{first + k}. {detail.format_map(_fields_of(self.p))}")
        f, c = self.flow, self.canvas
        f.skip(2)
        f.need(3 * BODY_LEADING)
        c.text(LEFT, f.y + 7, w.DETAILS_LABEL, face=LABEL, size=7, color=GREY)
        f.skip(11)
        top = f.y
        f.skip(4)
        for line in details or ["None."]:
            self.details.append(f.paragraph(line, face=VALUE, size=8.5, leading=10.5, indent=6,
                                            right=6, hyphenate=False, after=1))
        f.skip(3)
        c.box((LEFT, top, RIGHT, f.y), width=0.5)
        f.skip(6)

    def _signature_block(
        self, role: Literal["applicant", "agent"],
        entries: Sequence[tuple[str, str, str, float, Color, float, float]],
    ) -> None:
        """Values (label, value, face, size, colour, x0, x1) on one line, labels right below."""
        f, c = self.flow, self.canvas
        f.need(34)
        baseline = f.y + 18
        values, labels = [], []
        for _label, value, face, size, color, x0, _x1 in entries:
            values.append(Box(c.index, value, c.text(x0 + 2, baseline, value, face=face,
                                                      size=size, color=color)))
        for label, _value, _face, _size, _color, x0, x1 in entries:
            c.rule(x0, baseline + SIGN_RULE_DROP, x1, width=0.7, color=BLACK)
            labels.append(Box(c.index, label, c.text(x0, baseline + SIGN_RULE_DROP +
                                                     SIGN_LABEL_DROP, label, face=LABEL,
                                                     size=7.5)))
        self.signatures.append(SignatureBlock(role, tuple(values), tuple(labels)))
        f.skip(34)


def _fields_of(profile: Profile) -> dict[str, object]:
    return {f.name: getattr(profile, f.name) for f in fields(profile)}
