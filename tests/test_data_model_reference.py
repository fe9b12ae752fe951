"""docs/data-model.md: generated from the models, complete, and never stale."""

from __future__ import annotations

import difflib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from iptoolkit import models
from iptoolkit.models import reference

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "data-model.md"


def test_the_committed_reference_is_what_the_models_give() -> None:
    fresh = reference.render()
    committed = DOC.read_text(encoding="utf-8")
    if committed != fresh:
        diff = difflib.unified_diff(
            committed.splitlines(), fresh.splitlines(), "committed", "models", lineterm="", n=1
        )
        shown = "\n".join(list(diff)[:30])
        pytest.fail(
            f"docs/data-model.md is stale: regenerate it with {reference.REGENERATE}\n{shown}"
        )


def sections(text: str) -> dict[str, str]:
    """Heading (### level) -> the text under it."""
    parts = re.split(r"^### (.+)$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_model_and_every_field_is_documented_with_both_names() -> None:
    documented = sections(reference.render())
    resource_models = [
        value
        for name in models.__all__
        if isinstance(value := getattr(models, name), type)
        and issubclass(value, models.ApiModel)
        and value not in (models.ApiModel, models.FallbackModel)
    ]
    assert len(resource_models) > 80
    for model in resource_models:
        text = documented[model.__name__]
        for attribute, info in model.model_fields.items():
            assert f"| `{info.alias or attribute}` | `{attribute}` |" in text, (model, attribute)


def test_every_member_of_every_family_is_listed_with_its_class() -> None:
    documented = sections(reference.render())
    families: dict[str, tuple[type[models.ApiModel], ...]] = {
        "InputAgentSettings": models.AGENT_TYPES,
        "Channel": models.CHANNEL_TYPES,
        "ProfileResponseUnit": models.RESPONSE_UNIT_TYPES,
        "ResponseContentType": models.CONTENT_TYPES,
        "ProfileIU": (models.XMLCreationIU, models.JsonCreationIU, models.EdifactCreationIU),
        "FileFormatMetadata": (models.CSVFileMetadata,),
    }
    assert [family.name for family in reference.families()] == sorted(
        families, key=models.__all__.index
    )
    for family, members in families.items():
        rows = re.findall(r"^\| `(core:\w+)` \| \[(\w+)\]", documented[family], re.M)
        assert rows == [(f"core:{m.__name__}", m.__name__) for m in members], family
        assert "| any other, or none | [Unknown" in documented[family]


def test_types_read_as_python_with_links_to_models_and_families() -> None:
    documented = sections(reference.render())
    profile = documented["IntegrationProfile"]
    assert "| `lastModifiedGUI` | `last_modified_gui` | I64 \\| None | optional |" in profile
    assert "[InputAgentSettings](#inputagentsettings) \\| None" in profile
    assert "| `timeout` | `timeout` | I32 \\| None |" in documented["KafkaAgentSettings"]
    assert "list[[Channel](#channel)] \\| None" in documented["AS2AgentSettings"]
    assert "| `from` | `from_` | str \\| None |" in documented["MailProfileResponseUnit"]
    links = set(re.findall(r"\]\(#([\w-]+)\)", reference.render()))
    anchors = {
        reference._anchor(heading) for heading in re.findall(r"^#+ (.+)$", DOC.read_text(), re.M)
    }
    assert links and links <= anchors, links - anchors


def test_the_command_writes_the_file_it_is_given(tmp_path: Path) -> None:
    out = tmp_path / "data-model.md"
    subprocess.run(
        [sys.executable, "-m", "iptoolkit.models.reference", str(out)], check=True, cwd=ROOT
    )
    assert out.read_text(encoding="utf-8") == reference.render()


def test_what_the_reference_says_of_a_dump_is_what_a_dump_does() -> None:
    """A key sent under its Python name comes back under its JSON name, and keys come back
    in the model's order (its fields, then unknown ones as sent), not the order sent: the
    reference once said a round trip "loses nothing", and a reader took it for the text."""
    said = " ".join(reference.render().split())
    assert "input may use either, a dump writes the JSON name" in said
    assert "The order of keys is the model's: its fields in the order of the table" in said
    sent = {"zzz": 1, "name": "Orders", "skip_mapping": True, "id": "P1", "aaa": 2}
    dumped = models.parse_profiles([sent])[0].to_json_dict()
    assert list(dumped) == ["id", "name", "skipMapping", "zzz", "aaa"]
