"""The MCP server over a `Store`: `build_server`, the resources, and strict tool arguments.

`build_server` makes a `StrictArgumentsServer` (the SDK's `MCPServer`, refusing arguments a
tool does not take), registers the tools (`tools.add_tools`, one method of `tools.Tools`
each) and the resources (the summary, the audit rules, the data model). Nothing here
changes an estate or the platform.

Secrets: a profile's JSON is masked field by field (`redact_fields`) where it is read,
and every string of every answer passes `redact_text` on its way out, so a URL carrying a
password or a token shows the mask instead; error messages too.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from pydantic import ValidationError

from .._version import __version__
from ..auditing import BUILTIN_RULES
from ..support.redact import redact_text
from . import answers, datamodel
from .store import Store
from .tools import add_tools, tool_error, tool_result

__all__ = ["build_server", "INSTRUCTIONS", "StrictArgumentsServer"]

INSTRUCTIONS = """\
Answers questions about an integration platform's estate: integration profiles (each
receives data through an input agent listening on partner channels, and delivers along
response paths), channels and the partners owning them. Start with `summary`. Items are
named by node id (`profile:P1`, `channel:40003`, `partner:1017`, `agent:P1`,
`response:P1:0`); `get_item` and the graph tools also take a bare id or a name. Lists
come a page at a time: pass `next_cursor` back as `cursor`. Read-only."""


class StrictArgumentsServer(MCPServer):
    """An MCP server whose tools refuse arguments they do not take.

    The SDK ignores an unknown argument: `find_profiles(partner="X")` (the field is
    `filter.partners`) would answer every profile as if unfiltered, and an assistant would
    read "300 profiles use X". Here it is a tool error naming the arguments the tool takes,
    and each tool's input schema says `additionalProperties: false`."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            known = tool.parameters.get("properties", {})
            unknown = sorted(str(key) for key in arguments if key not in known)
            if unknown:
                raise ToolError(unknown_arguments(name, unknown, list(known)))
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            # the SDK's own refusals (an argument of the wrong type or out of range) quote
            # the argument as given: masked and cut as the tools' own errors are
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise tool_error(ValueError(argument_errors(name, cause))) from None
            raise tool_error(exc) from None


def argument_errors(tool: str, error: ValidationError) -> str:
    """The SDK's refusal of a tool's arguments as one line each (`severity: input should be
    'breaking', 'notable' or 'cosmetic', not 'fatal'`), without pydantic's class names and
    links, which tell an assistant nothing."""
    lines = []
    for problem in error.errors(include_url=False):
        where = ".".join(str(part) for part in problem["loc"]) or "arguments"
        given = problem.get("input")
        said = problem["msg"][:1].lower() + problem["msg"][1:]
        shown = f", not {given!r:.200}" if isinstance(given, str | int | float) else ""
        lines.append(f"{where}: {said}{shown}")
    return f"{tool}: " + "; ".join(lines)


def unknown_arguments(tool: str, unknown: list[str], known: list[str]) -> str:
    """The tool error for arguments a tool does not take, naming those it does."""
    names = ", ".join(repr(redact_text(key[:100])) for key in unknown[:10])
    takes = ", ".join(known) if known else "no argument"
    return f"{tool} takes no argument {names}; it takes: {takes}"


def build_server(store: Store) -> MCPServer:
    """The MCP server over `store`'s estates (run it with `.run()` or `.run_streamable...`)."""
    server = StrictArgumentsServer(
        "iptoolkit",
        title="iptoolkit: integration estate",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    add_tools(server, store)
    for tool in server._tool_manager.list_tools():
        tool.parameters["additionalProperties"] = False
    _add_resources(server, store)
    return server


def _add_resources(server: MCPServer, store: Store) -> None:
    @server.resource(
        "iptoolkit://summary",
        name="summary",
        description="The current snapshot's counts (as the summary tool answers), JSON.",
        mime_type="application/json",
    )
    def summary_resource() -> str:
        answer = tool_result(lambda: answers.summary(store.current, store.names))
        return json.dumps(answer.structured_content, ensure_ascii=False, indent=1)

    @server.resource(
        "iptoolkit://rules/{code}",
        name="rule",
        description="One audit rule by code (SEC006): its title, default severity, why it "
        "matters and the remedy.",
        mime_type="text/markdown",
    )
    def rule_resource(code: str) -> str:
        rule = next((one for one in BUILTIN_RULES if one.code == code.upper()), None)
        if rule is None:
            raise ResourceNotFoundError(f"no audit rule {code!r}")
        return (
            f"# {rule.code}: {rule.title}\n\nName `{rule.name}`, default severity "
            f"{rule.severity}.\n\n{rule.rationale}\n\nRemedy: {rule.remedy}\n"
        )

    @server.resource(
        "iptoolkit://data-model",
        name="data-model",
        description="The API's data model: what holds for every type, and the list of types "
        "(each one's fields at iptoolkit://data-model/{name}).",
        mime_type="text/markdown",
    )
    def data_model() -> str:
        return datamodel.contents()

    @server.resource(
        "iptoolkit://data-model/{name}",
        name="data-model-type",
        description="One type of the data model (IntegrationProfile, SFTPAgentSettings, "
        "Channel, ...): its fields with JSON and Python names, types, where it is used.",
        mime_type="text/markdown",
    )
    def data_model_type(name: str) -> str:
        try:
            return datamodel.section(name)
        except ValueError as exc:
            raise ResourceNotFoundError(str(exc)) from None
