"""The built-in rules, one module per family: `data` (DAT), `hygiene` (HYG), `operations`
(OPS), `security` (SEC); `registry` collects them."""
