"""The built-in rules, one module per family: `data` (DAT), `hygiene` (HYG), `operations`
(OPS), `security` (SEC), `configuration` (CFG, the audit's own).

Importing this package registers every one of them: `@rule` registers the rule it makes
(`rule.registered`), so a rule added to a family module runs with no list to edit;
`registry.BUILTIN_RULES` reads them back in a fixed order."""

from . import configuration, data, hygiene, operations, security

__all__ = ["configuration", "data", "hygiene", "operations", "security"]
