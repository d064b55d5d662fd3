"""The Nu HTML checker (vnu.jar), run once over many files, its messages as values."""

import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

# Warnings about the document's language: never allowed.
_LANGUAGE = re.compile(r"appears to be written in|\blang\b|“lang”|lang=", re.IGNORECASE)


@dataclass(frozen=True)
class Message:
    """One message: the file, where in it, its kind (error, warning, info) and its text."""

    file: Path
    line: int
    column: int
    kind: str
    text: str
    extract: str

    @property
    def is_language_warning(self) -> bool:
        return self.kind == "warning" and bool(_LANGUAGE.search(self.text))

    def describe(self, root: Path | None = None) -> str:
        file = self.file.relative_to(root) if root and self.file.is_relative_to(root) else self.file
        extract = " ".join(self.extract.split())
        if len(extract) > 120:
            extract = extract[:117] + "..."
        where = f"{file}:{self.line}:{self.column}"
        return f"{where}: {self.kind}: {self.text}" + (f"\n    at: {extract}" if extract else "")


def check(java: Path, vnu_jar: Path, files: list[Path]) -> list[Message]:
    """Checks `files` as HTML and returns every message, in file order."""
    result = subprocess.run(
        [str(java), "-jar", str(vnu_jar), "--format", "json", "--exit-zero-always", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    try:
        report = json.loads(result.stderr)
    except json.JSONDecodeError as error:
        raise RuntimeError(f"the Nu checker did not answer in JSON ({error}): {result.stderr[:2000]}") from error
    messages = []
    for item in report.get("messages", []):
        kind = item.get("type", "")
        if kind == "info" and item.get("subType") == "warning":
            kind = "warning"
        elif kind == "non-document-error":
            kind = "error"
        url = item.get("url", "")
        file = Path(unquote(urlsplit(url).path)) if url else Path("?")
        messages.append(
            Message(
                file=file,
                line=int(item.get("lastLine", item.get("firstLine", 0)) or 0),
                column=int(item.get("firstColumn", item.get("lastColumn", 0)) or 0),
                kind=kind,
                text=item.get("message", ""),
                extract=item.get("extract", ""),
            )
        )
    return messages
