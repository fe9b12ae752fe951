"""Named views: a view saved in a notebook or the app reopens the same filter, drill level
and item in a new Explorer (an app restarted), by name and by `?view=NAME`; names are
hostile input kept only inside the JSON file."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

import iptoolkit as ipt
from iptoolkit.query.filters import Filter
from iptoolkit.viewmodel.saved_views import FOLDER_FILE, SavedView, SavedViews, views_file
from iptoolkit.widgets import Explorer

from .view_helpers import data_of

pytest.importorskip("ipysigma")

HOSTILE = '../../etc/passwd <script>alert(1)</script> "x" \u202e\x00'


def test_a_saved_view_reopens_after_a_restart(tmp_path):
    estate = ipt.demo_estate(n_profiles=300, seed=0)
    snapshot = tmp_path / "estate.json"
    estate.save(snapshot)
    path = views_file(snapshot)
    assert path is not None and path == tmp_path / "estate.views.json"
    first = Explorer(estate, folder=tmp_path, debounce=0, static_copy=False, views=path)
    first.filter = Filter(groups=["Finance"], active=True)
    group = next(iter(data_of(first.topology).members))  # a group of the drilled overview
    title = str(data_of(first.topology).graph.nodes[group].get("crumb"))
    first.topology.expand(group)
    first.show_detail("partner:1003")
    kept = first.save_view(HOSTILE)
    assert "\x00" not in kept and kept.startswith("../../etc/passwd <script>")
    saved_filter, drill = first.filter, first.drill
    assert drill == (title,)
    first.close()
    listed = sorted(p.name for p in tmp_path.iterdir())  # and the lock of writers saving
    assert listed == [".estate.views.json.lock", "estate.json", "estate.views.json"]
    document = json.loads(path.read_text(encoding="utf-8"))
    assert list(document["views"]) == [kept]

    # the app restarted: a new Explorer over the same files, opened by the address
    from iptoolkit.app.page import follow_address

    again = Explorer(estate, folder=tmp_path, debounce=0, static_copy=False, views=path)
    address, note = follow_address(again).children
    address.opened_with = "?view=" + quote(kept)
    assert note.value == ""
    assert again.filter == saved_filter and again.drill == drill
    assert again.item == "partner:1003"
    assert SavedViews(path).names() == [kept]
    again.close()


def test_views_refuse_what_they_cannot_keep(tmp_path):
    views = SavedViews(tmp_path / FOLDER_FILE)
    explorer = Explorer(ipt.demo_estate(40, seed=1), debounce=0, static_copy=False)
    with pytest.raises(ValueError, match="no file for views"):
        explorer.save_view("x")
    explorer.close()
    with pytest.raises(ValueError, match="needs a name"):
        views.save(" \x00 ", SavedView())
    (tmp_path / FOLDER_FILE).write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ValueError, match="not a views file"):
        views.names()
    assert views_file(None, tmp_path) == tmp_path / FOLDER_FILE and views_file(None) is None


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ({"drill": 5}, "drill is a list of group titles"),
        ({"drill": ["Finance", 3]}, "drill is a list of group titles"),
        ({"item": ["x"]}, "item is a node id"),
    ],
)
def test_a_hand_edited_view_of_the_wrong_shape_is_named_not_a_traceback(
    tmp_path, entry, said
) -> None:
    import json

    path = tmp_path / FOLDER_FILE
    path.write_text(json.dumps({"version": 1, "views": {"mine": entry}}), encoding="utf-8")
    with pytest.raises(ValueError, match=said) as caught:
        SavedViews(path).get("mine")
    assert str(path) in str(caught.value) and "'mine'" in str(caught.value)
