"""Named views: the Explorer's filter, topology drill level and item saved under a name,
kept in one JSON file, opened again by name (in the app: `?view=NAME`).

The file sits beside the snapshot (`acme.json` -> `acme.views.json`) or, given a folder
(`iptoolkit explore --views DIR`), is `DIR/iptoolkit-views.json`: its name never comes
from a view's name, which is hostile input and lives only inside the JSON (written with
the json module, read back checked). A file that cannot be read is an error naming it and
what is wrong, never silently replaced: bad JSON, a key given twice, nesting too deep
(`models.jsontext`), a version this toolkit does not know.

Two app tabs (two kernels) may save at the same moment, and each save rewrites the whole
file. So a save holds a lock (`fcntl.flock` on `.<file>.lock` beside it: the standard
library, Linux and macOS, and the kernel drops it when a writer dies, so a crash leaves no
stale lock), reads the file again under it (a view another tab saved meanwhile is kept),
writes a temporary file of its own in the same folder and moves it over the file
(`os.replace`): a reader sees the old file or the new one, never half of one, and a writer
killed mid-write leaves only its temporary file, which the next save removes.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..models.jsontext import ParseError, loads_json
from ..query.filters import Filter
from ..support.printable import drop_unprintable
from ..support.replacing import replaced_when_written

__all__ = ["SavedView", "SavedViews", "views_file", "FOLDER_FILE", "MAX_NAME"]

FOLDER_FILE = "iptoolkit-views.json"
"""The file's name in a folder given for views."""
MAX_NAME = 120
"""Characters a view's name may have."""
_VERSION = 1


@dataclass(frozen=True)
class SavedView:
    """What a view restores: the filter, the topology's groups opened, the item shown."""

    filter: Filter = field(default_factory=Filter)
    drill: tuple[str, ...] = ()
    item: str | None = None


def views_file(
    snapshot: str | os.PathLike[str] | None, folder: str | os.PathLike[str] | None = None
) -> Path | None:
    """Where the views of `snapshot` are kept: `folder/iptoolkit-views.json` when a folder
    is given, else beside the snapshot (`<name>.views.json`; an archive's too, whose
    views `iptoolkit explore --archive` keeps); None for neither."""
    if folder is not None:
        return Path(folder) / FOLDER_FILE
    if snapshot is None:
        return None
    path = Path(snapshot)
    stem = path.name.removesuffix(".duckdb").removesuffix(".gz").removesuffix(".json")
    return path.with_name(f"{stem}.views.json")


def view_name(name: str) -> str:
    """A view's name as kept: printable, trimmed, 1 to `MAX_NAME` characters."""
    cleaned = drop_unprintable(str(name)).strip()
    if not cleaned:
        raise ValueError("a view needs a name")
    if len(cleaned) > MAX_NAME:
        raise ValueError(f"a view's name has at most {MAX_NAME} characters, not {len(cleaned)}")
    return cleaned


class SavedViews:
    """The named views of one file (`path`), read on each call (another session may have
    saved one meanwhile) and written whole."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def names(self) -> list[str]:
        """The views' names, in the order saved."""
        return list(self._read())

    def get(self, name: str) -> SavedView | None:
        """The view saved as `name` (None: no such view)."""
        entry = self._read().get(view_name(name))
        if entry is None:
            return None
        where = f"{self.path}: view {name!r}"
        try:
            chosen = Filter.model_validate(entry.get("filter") or {})
        except ValidationError as exc:
            raise ValueError(f"{where}: {exc.errors()[0]['msg']}") from None
        drill, item = entry.get("drill") or [], entry.get("item")
        if not isinstance(drill, list) or not all(isinstance(title, str) for title in drill):
            raise ValueError(f"{where}: drill is a list of group titles, not {drill!r:.40}")
        if item is not None and not isinstance(item, str):
            raise ValueError(f"{where}: item is a node id (text), not {item!r:.40}")
        return SavedView(chosen, tuple(drill), item or None)

    def save(self, name: str, view: SavedView) -> str:
        """Save `view` as `name` (replacing one of that name), keeping every view saved
        meanwhile by another writer; the name as kept."""
        kept = view_name(name)
        entry = {
            "filter": json.loads(view.filter.to_json()),
            "drill": list(view.drill),
            "item": view.item,
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._locked():
            views = self._read()  # under the lock: what another writer saved is in it
            views[kept] = entry
            text = json.dumps({"version": _VERSION, "views": views}, indent=2, ensure_ascii=False)
            self._replace(text + "\n")
        return kept

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the views file's lock (one writer at a time)."""
        import fcntl  # Linux and macOS; the lock is released when its holder dies

        lock = self.path.with_name(f".{self.path.name}.lock")
        handle = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            temporary = re.compile(rf"{re.escape(self._temporary_prefix)}[^.]*\.tmp")
            for left in self.path.parent.iterdir():
                if temporary.fullmatch(left.name):  # a killed writer's: we hold the lock
                    left.unlink(missing_ok=True)
            yield
        finally:
            os.close(handle)  # and so the lock

    def _replace(self, text: str) -> None:
        """Write `text` to a temporary file of this writer's own beside the file, then move
        it over the file: a reader sees the old views or the new, whole."""
        durably = replaced_when_written(self.path, prefix=self._temporary_prefix, durable=True)
        with durably as part:
            part.write_text(text, encoding="utf-8")

    @property
    def _temporary_prefix(self) -> str:
        """How a writer's temporary file is named: this, a random part, `.tmp`."""
        return f".{self.path.name}.saving-"

    def _read(self) -> dict[str, dict[str, Any]]:
        if not self.path.exists():
            return {}
        try:
            document = loads_json(self.path.read_bytes())
        except (OSError, ParseError) as exc:
            said = " ".join(str(exc).split())
            raise ValueError(f"{self.path}: the saved views cannot be read: {said}") from None
        if not isinstance(document, dict) or not isinstance(document.get("views"), dict):
            raise ValueError(f"{self.path}: not a views file (no 'views' object of objects)")
        version = document.get("version")
        if type(version) is not int or version != _VERSION:
            said = "no version" if version is None else f"version {json.dumps(version):.20}"
            raise ValueError(
                f"{self.path}: a views file of {said}, which this iptoolkit cannot read "
                f"(it reads version {_VERSION})"
            )
        unknown = sorted(set(document) - {"version", "views"})
        if unknown:
            raise ValueError(f"{self.path}: unknown key {unknown[0]!r} in the views file")
        views = document["views"]
        if not all(isinstance(v, dict) for v in views.values()):
            raise ValueError(f"{self.path}: not a views file (no 'views' object of objects)")
        return dict(views)
