"""The app's view in its page address (`app/address.py`), the page following it
(`page.follow_address`), and the app's Voila (`app/server.py`): the session cap's count
and page, the options `explore` hands Voila. The browser half (a link opens the same view,
closed tabs free their kernels) is tests/browser/test_app_team_browser.py."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.app import runner as voila
from iptoolkit.app.address import PARAMETERS, PageView, query_of, view_of
from iptoolkit.cli import main
from iptoolkit.query.filters import Filter

from .factories import known_partner

pytest.importorskip("voila")


def test_a_view_round_trips_through_its_address() -> None:
    chosen = Filter(
        partners=["Mosel Retail", "17"],
        channel_types=["IntegrationPartnerChannelAS2"],
        agent_types=["SFTPAgentSettings"],
        groups=["Finance/AP"],
        tags=["edi"],
        channels=["channel:40003"],
        active=False,
        text="invoice & co",
    )
    query = query_of(chosen, "channel:40003")
    assert query.startswith("partner=Mosel+Retail&partner=17&agent-type=SFTP&channel-type=AS2")
    assert "item=channel:40003" in query and query.endswith("&inactive")
    view = view_of("?" + query)
    assert view.item == "channel:40003" and view.problems == ()
    # types come back as the lists name them, which the filter reads as the same types
    assert (
        view.filter.model_copy(
            update={"agent_types": chosen.agent_types, "channel_types": chosen.channel_types}
        )
        == chosen
    )
    assert view.filter.channel_types == ["AS2"] and view.filter.agent_types == ["SFTP"]
    assert query_of(Filter()) == "" and view_of("") == PageView()


def test_the_issues_example_address_reads_as_the_command_line_would() -> None:
    view = view_of("?partner=Mosel+Retail&channel-type=AS2&item=channel:40003")
    assert view.filter == Filter(partners=["Mosel Retail"], channel_types=["AS2"])
    assert view.item == "channel:40003"
    assert view_of("active").filter.active is True


def test_parameters_are_the_command_lines_filter_options(runner: Any) -> None:
    help_text = runner.invoke(main, ["summary", "--help"]).output
    for name in [*PARAMETERS, "active", "inactive", "text"]:
        assert f"--{name}" in help_text, name


def test_an_unknown_parameter_is_said_not_dropped() -> None:
    view = view_of("partner=Acme&colour=red")
    assert view.filter == Filter(partners=["Acme"])
    [problem] = view.problems
    assert "'colour'" in problem and "partner" in problem


def test_the_printed_token_is_the_servers_not_a_parameter_the_app_cannot_read() -> None:
    """`iptoolkit explore` prints its address with `?token=`: the first visit showed
    "address parameter 'token' is not one the app reads" until this was known."""
    view = view_of("token=abc&partner=Acme")
    assert view.problems == () and view.filter == Filter(partners=["Acme"])


def test_the_page_applies_the_address_and_keeps_it_in_step(tmp_path) -> None:
    from iptoolkit.app.page import follow_address
    from iptoolkit.widgets import Explorer

    estate = ipt.demo_estate(n_profiles=40, seed=3)
    explorer = Explorer(estate, folder=tmp_path, debounce=0, static_copy=False)
    bar = follow_address(explorer)
    address, note = bar.children
    channel = next(iter(explorer.model.graph.nodes))
    address.opened_with = f"?group=Finance&channel-type=AS2&item={channel}&colour=red"
    assert explorer.filter.groups == ["Finance"]
    assert explorer.panel.channel_types.value == ("IntegrationPartnerChannelAS2",)
    assert explorer.item == channel and "colour" in note.value
    assert address.query == query_of(explorer.filter, channel)
    explorer.filter = Filter(active=True)  # a change in the page: the address follows
    assert address.query.startswith("item=") and address.query.endswith("&active")
    explorer.close()


def test_copy_link_adds_the_apps_token_which_the_command_hands_its_kernels(
    tmp_path, monkeypatch
) -> None:
    """A colleague given a link without the token meets only the refusal page: "Copy link"
    adds the token the command gave the kernels (the address bar keeps it out)."""
    from iptoolkit.app import runner
    from iptoolkit.app.page import follow_address
    from iptoolkit.support import env
    from iptoolkit.widgets import Explorer

    handed: dict[str, str] = {}

    class _Popen:
        def __init__(self, args: list[str], *, env: dict[str, str], **_: Any) -> None:
            handed.update(env)
            raise OSError("not started")  # the command line is all this test wants

    monkeypatch.setattr(subprocess, "Popen", _Popen)  # the subprocess the runner starts with
    with pytest.raises(OSError):
        runner.start(runner.check_port(0), {"PATH": "/bin"})
    token = handed[env.APP_TOKEN]
    assert len(token) >= 40 and handed["PATH"] == "/bin"

    monkeypatch.setenv(env.APP_TOKEN, token)
    explorer = Explorer(ipt.demo_estate(n_profiles=20, seed=3), folder=tmp_path, debounce=0)
    address, _ = follow_address(explorer).children
    assert address.token == token
    assert "token" in address._esm and "Copy link" in address._esm
    explorer.close()
    monkeypatch.delenv(env.APP_TOKEN)
    explorer = Explorer(ipt.demo_estate(n_profiles=20, seed=3), folder=tmp_path, debounce=0)
    assert follow_address(explorer).children[0].token == ""  # a notebook, Binder: none
    explorer.close()


def _acme_estate() -> ipt.Estate:
    """Demo profiles, the first partner renamed `Acme Tools`."""
    raw = [dict(profile) for profile in ipt.demo_estate(n_profiles=60, seed=3).raw_profiles]
    first = ipt.Estate.from_raw(raw)
    partners = [known_partner(first, key) for key in first.partners]
    old = sorted(partners, key=lambda p: str(p.model_dump().get("name")))[0]
    name = old.model_dump(by_alias=True)["name"]
    text = json.dumps(raw).replace(json.dumps(name), json.dumps("Acme Tools"))
    return ipt.Estate.from_raw(json.loads(text))


def test_an_address_that_matches_nothing_says_so_at_the_top(tmp_path) -> None:
    """`?partner=Acme+Tols&channel-type=AS9`: no quiet empty page. The Explorer's message
    names each value that matched nothing, with the command line's did-you-mean."""
    from iptoolkit.app.page import follow_address
    from iptoolkit.widgets import Explorer

    explorer = Explorer(_acme_estate(), folder=tmp_path, debounce=0, static_copy=False)
    address, _ = follow_address(explorer).children
    assert explorer.message.value == ""
    address.opened_with = "?partner=Acme+Tols&channel-type=AS9"
    assert explorer.counts.startswith("0 of 60 profiles")
    said = explorer.message.value
    assert "Nothing selected" in said
    assert "partner &#x27;Acme Tols&#x27; matches no profile" in said
    assert "did you mean &#x27;Acme Tools&#x27;?" in said
    assert "channel type &#x27;AS9&#x27; matches no profile (did you mean" in said
    assert "&#x27;AS2&#x27;" in said
    page = list(explorer.widget.children)  # at the top: just under the counts, above the panes
    counts = next(row for row in page if explorer.header in getattr(row, "children", ()))
    assert page.index(explorer.message) == page.index(counts) + 1
    explorer.close()


def test_a_value_matching_nothing_beside_others_is_said_and_none_when_fixed(tmp_path) -> None:
    from iptoolkit.widgets import Explorer

    explorer = Explorer(_acme_estate(), folder=tmp_path, debounce=0, static_copy=False)
    explorer.filter = Filter(partners=["Acme Tools", "Acme Tols"])
    assert not explorer.counts.startswith("0 of")
    said = explorer.message.value
    assert "Part of the filter matches nothing" in said and "Acme Tols" in said
    assert "partner &#x27;Acme Tools&#x27;" not in said
    explorer.filter = Filter(partners=["Acme Tools"])
    assert explorer.message.value == ""
    group = next(iter(explorer.model.facets.groups))
    inactive_group = Filter(groups=[group], text="no such words anywhere at all")
    explorer.filter = inactive_group
    assert "text" in explorer.message.value and "no such words" in explorer.message.value
    explorer.close()


def test_values_that_match_only_apart_are_said_to_match_none_together(tmp_path) -> None:
    from iptoolkit.widgets import Explorer

    explorer = Explorer(_acme_estate(), folder=tmp_path, debounce=0, static_copy=False)
    facets = explorer.model.facets
    group = min(facets.groups, key=lambda name: facets.groups[name])
    explorer.filter = Filter(groups=[group])
    selected = explorer._selection.facets
    assert selected is not None
    counts = selected.agent_types
    other = next(kind for kind, count in counts.items() if count == 0)
    explorer.filter = Filter(groups=[group], agent_types=[other])  # from code: not refused
    assert explorer.counts.startswith("0 of")
    assert "no profile matches them all together" in explorer.message.value
    explorer.close()


def _finance_estate() -> Any:
    """150 demo profiles, one in two moved under `Finance/` (its own group a subgroup):
    an overview grouped by group, and `Finance` opening on subgroups."""
    raw = [dict(profile) for profile in ipt.demo_estate(n_profiles=150, seed=3).raw_profiles]
    for number, profile in enumerate(raw):
        if number % 2:
            profile["group"] = f"Finance/{profile.get('group') or 'General'}"
    return ipt.Estate.from_raw(raw)


def test_the_drill_level_round_trips_through_the_address() -> None:
    query = query_of(Filter(active=True), drill=("Finance/AP", "AS2 profiles & more"))
    assert query == "drill=Finance/AP&drill=AS2+profiles+%26+more&active"
    view = view_of("?" + query)
    assert view.drill == ("Finance/AP", "AS2 profiles & more") and view.problems == ()
    assert view.filter == Filter(active=True)
    assert view_of("?drill=&drill=%20").drill == ()


def test_a_drilled_view_opens_from_its_address_and_the_address_follows(tmp_path) -> None:
    from iptoolkit.app.page import follow_address
    from iptoolkit.widgets import Explorer

    explorer = Explorer(_finance_estate(), folder=tmp_path, debounce=0, static_copy=False)
    address, note = follow_address(explorer).children
    address.opened_with = "?drill=Finance/Logistics"
    # Overview > Finance > Finance/Logistics: the subgroup opened through its parent
    assert [level.title for level in explorer.topology.trail] == ["Finance", "Finance/Logistics"]
    assert explorer.drill == ("Finance/Logistics",) and note.value == ""
    assert address.query == "drill=Finance/Logistics"
    explorer.topology.back()  # a click on "up": the address follows
    assert address.query == "drill=Finance"
    explorer.topology.go_to(0)
    assert address.query == ""
    explorer.close()


def test_a_drill_level_not_in_the_view_is_said_and_the_view_kept(tmp_path) -> None:
    from iptoolkit.app.page import follow_address
    from iptoolkit.widgets import Explorer

    explorer = Explorer(_finance_estate(), folder=tmp_path, debounce=0, static_copy=False)
    address, note = follow_address(explorer).children
    address.opened_with = "?drill=Finance&drill=Nowhere"
    assert explorer.drill == ("Finance",) and address.query == "drill=Finance"
    assert "drill" in note.value and "Nowhere" in note.value
    assert "Overview &gt; Finance" in note.value
    explorer.close()


# -- the app's Voila ------------------------------------------------------------------------


class _Pooled:
    """A finished future of Voila's kernel pool."""

    def __init__(self, kernel_id: str) -> None:
        self.kernel_id = kernel_id

    def done(self) -> bool:
        return True

    def cancelled(self) -> bool:
        return False

    def exception(self) -> None:
        return None

    def result(self) -> dict[str, str]:
        return {"kernel_id": self.kernel_id}


class _Manager:
    def __init__(self, kernels: list[str], pooled: list[str]) -> None:
        self._kernels = kernels
        self._pools = {"explorer.ipynb": [_Pooled(k) for k in pooled]}

    def list_kernel_ids(self) -> list[str]:
        return list(self._kernels)


def test_sessions_leave_out_the_kernels_kept_warm() -> None:
    from iptoolkit.app.server import busy_page, sessions_in_use

    assert sessions_in_use(_Manager(["a", "b", "warm"], ["warm"])) == 2
    assert sessions_in_use(_Manager([], [])) == 0
    page = busy_page(3)
    assert "at most 3 sessions" in page and "try again" in page.lower()


class _Started(Exception):
    pass


def test_explore_hands_voila_the_cap_culling_and_warm_kernels(
    runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}

    def fake_start(port: int, environ: dict[str, str], **options: Any) -> voila.App:
        seen.update(options)
        raise _Started

    monkeypatch.setattr(voila, "start", fake_start)
    result = runner.invoke(main, ["explore", "--no-browser", "--port", "0", "--max-sessions", "4"])
    assert isinstance(result.exception, _Started)
    assert seen == {"max_sessions": 4, "free_after": voila.FREE_AFTER}
    result = runner.invoke(main, ["explore", "--no-browser", "--port", "0", "--free-after", "9"])
    assert isinstance(result.exception, _Started) and seen["free_after"] == 9
    # a cap unless told: a loop over a shared link must not start kernels without end
    assert seen["max_sessions"] == voila.MAX_SESSIONS == 20
    line = voila.command(8123, max_sessions=4)
    assert line[1:3] == ["-m", "iptoolkit.app.server"]
    assert "--max-sessions=4" in line and "--preheat_kernel=True" in line
    idle, interval = voila.cull_timings(voila.FREE_AFTER)
    assert f"--MappingKernelManager.cull_idle_timeout={idle}" in line
    assert f"--MappingKernelManager.cull_interval={interval}" in line
    assert "--MappingKernelManager.cull_connected=False" in line
    assert idle + interval <= voila.FREE_AFTER <= 60  # a lost tab is freed within a minute


def test_cull_timings_free_a_lost_tab_in_time() -> None:
    for free_after in (3, 10, 45, 60, 61, 600):
        idle, interval = voila.cull_timings(free_after)
        assert idle > 0 and interval > 0 and idle + interval <= free_after
        assert idle >= 2 * interval  # idle long enough that a blip does not cost a session
    with pytest.raises(ValueError, match="at least 3 seconds"):
        voila.cull_timings(2)


def test_the_page_template_asks_no_cdn() -> None:
    from iptoolkit.app.server import TEMPLATE_DIR

    text = (TEMPLATE_DIR / "index.html.j2").read_text()
    assert "extends 'lab/index.html.j2'" in text and "cdn.jsdelivr.net" in text  # removed


def test_voila_takes_the_max_sessions_option() -> None:
    from iptoolkit.app.server import ExplorerVoila

    app = ExplorerVoila()
    app.parse_command_line(["--max-sessions=5", "x.ipynb"])
    assert app.max_sessions == 5


def test_the_log_drops_voilas_placeholder_address_and_the_trust_warning() -> None:
    import logging

    from iptoolkit.app.server import QuietLog

    def record(msg: str, *args: Any) -> logging.LogRecord:
        return logging.LogRecord("ExplorerVoila", logging.INFO, __file__, 1, msg, args, None)

    quiet = QuietLog()
    assert not quiet.filter(record("Voilà is running at:\n%s", "http://127.0.0.1:1/?token=..."))
    assert not quiet.filter(record("Notebook %s is not trusted", "explorer.ipynb"))
    assert quiet.filter(record("Kernel started: %s", "abc"))
    assert quiet.filter(record("iptoolkit: first view drawn in %.1f s", 1.0))


def test_the_dead_end_message_escapes_what_the_address_says(tmp_path) -> None:
    from iptoolkit.app.page import follow_address
    from iptoolkit.widgets import Explorer

    explorer = Explorer(_acme_estate(), folder=tmp_path, debounce=0, static_copy=False)
    address, _ = follow_address(explorer).children
    address.opened_with = "?partner=%3Cimg+src%3Dx+onerror%3Dalert(1)%3E"
    said = explorer.message.value
    assert "<img" not in said and "&lt;img src=x onerror=alert(1)&gt;" in said
    explorer.close()


def test_voila_waits_for_a_slow_cells_output_instead_of_dropping_it() -> None:
    """nbclient drops a cell's output that comes over 4 s after the cell ran; on a busy
    machine that was the Explorer itself, and its page showed nothing."""
    import nbformat
    from voila.execute import VoilaExecutor

    from iptoolkit.app.server import ExplorerVoila

    app = ExplorerVoila()
    app.parse_command_line(voila.command(8123)[3:])
    executor = VoilaExecutor(nbformat.v4.new_notebook(), km=None, config=app.config)
    assert executor.iopub_timeout == voila.IOPUB_WAIT >= 60
