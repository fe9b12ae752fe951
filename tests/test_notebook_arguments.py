"""A wrong argument to a function a notebook calls is an error naming the function, the
argument and what was given, not an `AttributeError` from deep inside."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    return ipt.demo_estate(20)


def _any(value: Any) -> Any:
    """A wrong argument, on purpose: what a notebook passes by mistake."""
    return value


@pytest.mark.parametrize(
    ("call", "error", "said"),
    [
        (
            lambda e: e.subset(_any({"partners": ["Acme"]})),
            TypeError,
            r"Estate.subset: selection must be an ipt.Filter \(ipt.Filter\(\*\*fields\).* dict",
        ),
        (lambda e: ipt.Explorer(_any("x")), TypeError, "Explorer: estate must be .* not str"),
        (lambda e: ipt.demo_changes(_any("x")), TypeError, "demo_changes: estate .* not str"),
        (lambda e: ipt.demo_environment(_any(-1)), TypeError, "demo_environment: .* not int"),
        (lambda e: ipt.compare(e, e, rules=_any("x")), TypeError, "compare: rules .* not str"),
        (lambda e: ipt.compare(e, e, manual=_any([1])), TypeError, "compare: manual .* list"),
        (
            lambda e: ipt.plot_topology(e, findings=_any("yes")),
            TypeError,
            "plot_topology: findings must be True, False or findings, not str: 'yes'",
        ),
        (
            lambda e: ipt.plot_topology(e, findings=_any([1])),
            TypeError,
            "plot_topology: findings must hold Finding objects, not int: 1",
        ),
        (lambda e: ipt.plot_topology(e, ax=_any("x")), TypeError, "plot_topology: ax .* str"),
        (
            lambda e: ipt.demo_estate(_any("10")),
            TypeError,
            "demo_estate: n_profiles must be a whole number, not str: '10'",
        ),
        (lambda e: ipt.demo_estate(_any(None)), TypeError, "demo_estate: n_profiles .* None"),
        (lambda e: ipt.demo_estate(-1), ValueError, "demo_estate: n_profiles must be 0 or more"),
        (lambda e: ipt.show_topology(e, height=-1), ValueError, "show_topology: height .* -1"),
        (lambda e: ipt.show_topology(e, aspect=0), ValueError, "show_topology: aspect .* 0"),
        (lambda e: ipt.show_topology(e, aspect=-1), ValueError, "show_topology: aspect .* -1"),
        (lambda e: ipt.show_topology(e, aspect=math.nan), ValueError, "aspect .* nan"),
        (lambda e: ipt.show_topology(e, aspect=_any("1")), TypeError, "aspect .* str: '1'"),
        (lambda e: ipt.history(_any(None)), TypeError, "history: folder_or_paths .* None"),
        (lambda e: ipt.history(_any(5)), TypeError, "history: folder_or_paths .* int: 5"),
        (
            lambda e: ipt.history(_any([e, e])),
            TypeError,
            r"history: .* not a list holding Estate \(estate.save\(path\) writes one\)",
        ),
        (lambda e: ipt.history(_any(e)), TypeError, "history: .* not an Estate"),
    ],
)
def test_a_wrong_argument_is_named(
    estate: ipt.Estate, call: Any, error: type[Exception], said: str
) -> None:
    with pytest.raises(error, match=said):
        call(estate)


def test_what_was_right_before_still_is(estate: ipt.Estate, tmp_path: Path) -> None:
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots()
    found = ipt.findings(estate)
    assert ipt.plot_topology(estate, ax=ax, findings=iter(found)) is figure
    plt.close(figure)
    assert len(ipt.demo_estate(0)) == 0 and len(ipt.demo_changes(estate)) > 0
    estate.save(tmp_path / "a.json")
    assert len(ipt.history([str(tmp_path / "a.json")])) == 1
    assert len(ipt.history(tmp_path)) == 1
