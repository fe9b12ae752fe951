"""The widgets' styles: the Explorer's (its panes, the findings, the details) and the
topology view's (its canvas, breadcrumb and legend), each scoped by the class its root
widget carries (`ipt-explorer`, `ipt-topology`) and placed inside that widget as an
`HTML` child, so that they apply wherever the widget is shown and nowhere else."""

from __future__ import annotations

import ipywidgets as W

from ..viewmodel.explorer_html import HIDE_FALLBACK_CSS

__all__ = ["EXPLORER_CSS", "TOPOLOGY_CSS", "explorer_style", "topology_style"]


EXPLORER_CSS = """<style>
.ipt-explorer .ipt-counts {font-size: 1.3em; font-weight: 600;}
.ipt-explorer .ipt-description {color: var(--jp-ui-font-color2, #616161); margin-top: 2px;}
.ipt-explorer .ipt-busy {color: var(--jp-ui-font-color2, #757575); font-size: 0.9em;
  margin-left: 8px;}
.ipt-explorer .ipt-header {margin: 2px 0 8px 0;}
.ipt-explorer .ipt-title {font-weight: 600; margin: 10px 0 4px 0;}
.ipt-explorer .ipt-none {color: var(--jp-ui-font-color2, #757575);}
.ipt-explorer .ipt-note {font-size: 0.9em; color: #8a5a00; margin-top: 6px;}
.ipt-explorer .ipt-error {color: #b00020;}
.ipt-explorer .ipt-dead-end {background: #fff4e5; border-left: 4px solid #e08a00;
  color: #5c3b00; padding: 6px 12px; margin: 0 0 8px 0; border-radius: 2px;}
.ipt-explorer .ipt-dead-end ul {margin: 2px 0; padding-left: 20px;}
.ipt-explorer .ipt-dead-end-tail {font-size: 0.92em;}
.ipt-explorer table.ipt-fields {border-collapse: collapse; font-size: 0.92em;}
.ipt-explorer table.ipt-fields th {text-align: left; padding: 2px 12px 2px 0;
  vertical-align: top; white-space: nowrap; font-weight: 600;}
.ipt-explorer table.ipt-fields td {padding: 2px 0; word-break: break-word;}
.ipt-explorer table.ipt-fields th.ipt-long {white-space: normal; overflow-wrap: anywhere;
  width: 40%;}
.ipt-explorer .ipt-detail-body ul {margin: 0 0 4px 0; padding-left: 20px;}
.ipt-explorer .ipt-more summary {cursor: pointer; color: var(--jp-content-link-color,
  #1976d2); margin: 0 0 4px 20px;}
.ipt-explorer .widget-html-content {line-height: 1.45;}
.ipt-explorer .ipt-header .widget-html-content {line-height: 1.3;}
.ipt-explorer .ipt-partner-search {margin-bottom: 2px;}
.ipt-explorer a {color: var(--jp-content-link-color, #1976d2); text-decoration: underline;}
.ipt-explorer .widget-select-multiple select {font-size: 0.92em;}
/* the filters' labels name their lists and fields for screen readers; the bold titles
   above them show the same words */
.ipt-explorer .ipt-filters .widget-inline-hbox > .widget-label {position: absolute;
  width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;}
/* the tabs not shown: 4.45:1 in JupyterLab's grey, short of 4.5:1 */
.ipt-explorer .widget-tab > .lm-TabBar .lm-TabBar-tab:not(.lm-mod-current) {
  color: var(--jp-ui-font-color1, #212121);}
.ipt-explorer .ipt-f-active .widget-toggle-button {padding: 0 2px; margin: 0 3px 0 0;
  font-size: 0.88em; flex: 1 1 auto; min-width: 0; white-space: nowrap;}
.ipt-explorer .ipt-f-active > div {display: flex; flex-wrap: nowrap; width: 100%;}
.ipt-explorer a.ipt-link {cursor: pointer;}
.ipt-explorer a.ipt-link:focus-visible {outline: 2px solid var(--jp-brand-color1, #1976d2);
  outline-offset: 1px;}
.ipt-explorer a.ipt-outside {color: var(--jp-ui-font-color2, #616161);
  text-decoration-style: dotted;}
.ipt-explorer .ipt-outside-note {color: #8a5a00; margin: 2px 0;}
.ipt-explorer .ipt-findings-body ul {margin: 0 0 6px 0; padding-left: 20px;
  max-height: 420px; overflow-y: auto;}
.ipt-explorer .ipt-findings-body summary {cursor: pointer; margin: 6px 0 4px 0;}
.ipt-explorer .ipt-findings-body li {margin-bottom: 3px;}
.ipt-explorer .ipt-finding-items {font-size: 0.92em;}
.ipt-explorer .ipt-sev {display: inline-block; min-width: 52px; padding: 0 6px;
  border-radius: 3px; font-size: 0.8em; font-weight: 600; text-align: center;
  color: #fff; margin-right: 4px;}
.ipt-explorer .ipt-sev-error {background: #b00020;}
.ipt-explorer .ipt-sev-warning {background: #a15c00;}
.ipt-explorer .ipt-sev-info {background: #546e7a;}
.ipt-explorer .ipt-code {font-weight: 600; margin-right: 4px; cursor: help;}
.ipt-explorer .ipt-rule-help {margin: 0 0 4px 20px; font-size: 0.9em;
  color: var(--jp-ui-font-color1, #424242); max-width: 70em;}
</style>"""

TOPOLOGY_CSS = """<style>
.ipt-topology .ipysigma-layout-controls, .ipt-topology .ipysigma-graph-description,
.ipt-topology .ipysigma-download-gexf-button, .ipt-topology .ipysigma-download-json-button,
.ipt-topology .ipysigma-information-shadow-display {display: none !important;}
.ipt-topology .ipt-topology-below {font-size: 0.9em; margin-top: 4px;}
.ipt-topology .ipt-topology-legend {list-style: none; margin: 0; padding: 0; display: flex;
  flex-wrap: wrap; gap: 2px 16px;}
.ipt-topology .ipt-topology-legend li {display: flex; align-items: center; gap: 6px;
  line-height: 1.4;}
.ipt-topology .ipt-swatch {display: inline-block; flex: none; width: 11px; height: 11px;
  border-radius: 50%; box-sizing: border-box;}
.ipt-topology .ipt-swatch.ipt-line {width: 22px; border-radius: 0;}
.ipt-topology .ipt-topology-title {font-weight: 600;}
.ipt-topology .ipt-topology-info {word-break: break-word;}
.ipt-topology .ipt-topology-hint {color: var(--jp-ui-font-color2, #616161);}
.ipt-topology .ipt-crumb {border: none; background: none; color: var(--jp-content-link-color,
  #1976d2); text-decoration: underline; padding: 0 2px; min-width: 0;}
.ipt-topology .ipt-crumb-sep {color: var(--jp-ui-font-color2, #616161); margin: 0 4px;}
.ipt-topology .ipt-crumb-here {font-weight: 600;}
.ipt-topology .ipt-glyph {display: inline-block; width: 14px; text-align: center;
  font-size: 13px; line-height: 1;}
</style>"""


def explorer_style() -> W.HTML:
    """The Explorer's styles as the child its root widget carries (with the rule that hides
    the static fallback once the live widget draws)."""
    return W.HTML(EXPLORER_CSS + HIDE_FALLBACK_CSS)


def topology_style() -> W.HTML:
    """The topology view's styles as the child its root widget carries."""
    return W.HTML(TOPOLOGY_CSS + HIDE_FALLBACK_CSS)
