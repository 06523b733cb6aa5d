"""File ▸ Export: which outputs to write, and where (by default beside the citations file)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..state.exports import ExportTargets

# (key, label, default name after the citations file's stem, file filter)
OUTPUTS = (
    ("pdf", "Annotated PDF", ".annotated.pdf", "PDF (*.pdf)"),
    ("html", "HTML report", ".report.html", "HTML (*.html *.htm)"),
    ("csv", "CSV table", ".csv", "CSV (*.csv)"),
    ("annotations", "W3C Web Annotations", ".annotations.jsonld", "JSON-LD (*.jsonld *.json)"),
)
# With several documents the annotated copies go to a folder of this name's form.
COPIES_FOLDER = "{stem}-annotated"


AskSave = Callable[[str, Path, str], Path | None]  # (title, proposed, filter) → chosen


def default_choice(citations: Path, *, documents: int) -> ExportTargets:
    """Every output, each beside the citations file under its name."""
    stem, folder = citations.stem, citations.parent
    paths = {key: folder / f"{stem}{suffix}" for key, _, suffix, _ in OUTPUTS}
    if documents > 1:
        paths["pdf"] = folder / COPIES_FOLDER.format(stem=stem)
    return ExportTargets(**paths)


class ExportDialog(QDialog):
    """A row per output: whether to write it, and its path with a button to choose one."""

    def __init__(self, proposed: ExportTargets, *, several_documents: bool,
                 ask_save: AskSave | None = None, parent: QWidget | None = None,
                 encrypted: Sequence[str] = ()) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export the review")
        self._ask_save = ask_save or self._ask
        self._several = several_documents
        grid = QGridLayout()
        self.boxes: dict[str, QCheckBox] = {}
        self.paths: dict[str, QLineEdit] = {}
        for row, (key, label, _, filters) in enumerate(OUTPUTS):
            box = QCheckBox(label + (" (one per document, in a folder)"
                                     if key == "pdf" and several_documents else ""))
            path = getattr(proposed, key)
            box.setChecked(path is not None)
            edit = QLineEdit(str(path or ""))
            edit.setMinimumWidth(320)
            browse = QPushButton("Choose…")
            browse.setAccessibleName(f"Choose where the {label} goes")
            browse.clicked.connect(lambda _c=False, k=key, t=label, f=filters:
                                   self._choose(k, t, f))
            box.toggled.connect(self._update)
            edit.textChanged.connect(self._update)
            grid.addWidget(box, row, 0)
            grid.addWidget(edit, row, 1)
            grid.addWidget(browse, row, 2)
            self.boxes[key], self.paths[key] = box, edit
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.export_button = self.buttons.addButton(
            "Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Write the review, with its decisions, as:"))
        layout.addLayout(grid)
        layout.addWidget(QLabel("The original PDFs are never changed."))
        self.encrypted_note: QLabel | None = None
        if encrypted:  # the one output that keeps a password is the annotated copy
            self.encrypted_note = note = QLabel(
                f"{', '.join(encrypted)} {'is' if len(encrypted) == 1 else 'are'} "
                "password-protected: the HTML report, the CSV table and the Web Annotations "
                "hold its words and page pictures unencrypted, readable by anyone who has "
                "the file. The annotated PDF stays encrypted.")
            note.setWordWrap(True)
            layout.addWidget(note)
        layout.addWidget(self.buttons)
        self._update()

    def choice(self) -> ExportTargets:
        """What is ticked, at the paths given."""
        paths = {k: Path(self.paths[k].text()).expanduser()
                 for k, box in self.boxes.items()
                 if box.isChecked() and self.paths[k].text().strip()}
        return ExportTargets(**paths)

    def _update(self) -> None:
        self.export_button.setEnabled(self.choice().any())

    def _choose(self, key: str, title: str, filters: str) -> None:
        chosen = self._ask_save(title, Path(self.paths[key].text()), filters)
        if chosen is not None:
            self.paths[key].setText(str(chosen))
            self.boxes[key].setChecked(True)

    def _ask(self, title: str, proposed: Path, filters: str) -> Path | None:
        if self._several and title == OUTPUTS[0][1]:
            chosen = QFileDialog.getExistingDirectory(self, title, str(proposed.parent))
        else:
            chosen, _ = QFileDialog.getSaveFileName(self, title, str(proposed), filters)
        return Path(chosen) if chosen else None
