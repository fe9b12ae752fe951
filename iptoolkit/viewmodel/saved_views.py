"""Named views: the Explorer's filter, topology drill level and item saved under a name,
kept in one JSON file, opened again by name (in the app: `?view=NAME`).

The file sits beside the snapshot (`acme.json` -> `acme.views.json`) or, given a folder
(`iptoolkit explore --views DIR`), is `DIR/iptoolkit-views.json`: its name never comes
from a view's name, which is hostile input and lives only inside the JSON (written with
the json module, read back checked). A file that cannot be read is an error naming it and
what is wrong, never silently replaced.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..query.filters import Filter
from ..support.printable import drop_unprintable

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
    is given, else beside the snapshot (`<name>.views.json`); None for neither."""
    if folder is not None:
        return Path(folder) / FOLDER_FILE
    if snapshot is None:
        return None
    path = Path(snapshot)
    stem = path.name.removesuffix(".gz").removesuffix(".json")
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
        """Save `view` as `name` (replacing one of that name); the name as kept."""
        kept = view_name(name)
        views = self._read()
        views[kept] = {
            "filter": json.loads(view.filter.to_json()),
            "drill": list(view.drill),
            "item": view.item,
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"version": _VERSION, "views": views}, indent=2, ensure_ascii=False)
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(text + "\n", encoding="utf-8")
        partial.replace(self.path)  # a reader never sees half a file
        return kept

    def _read(self) -> dict[str, dict[str, Any]]:
        if not self.path.exists():
            return {}
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{self.path}: the saved views cannot be read: {exc}") from None
        views = document.get("views") if isinstance(document, dict) else None
        if not isinstance(views, dict) or not all(isinstance(v, dict) for v in views.values()):
            raise ValueError(f"{self.path}: not a views file (no 'views' object of objects)")
        return dict(views)
