"""What the topology view's test modules share: the parts of a `TopologyView` that are None
until it has drawn something, got as the drawn view has them (a test failing on the spot,
with a message, when the view has drawn nothing)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import networkx as nx

from iptoolkit.viewmodel.topology_data import ViewData
from iptoolkit.viewmodel.topology_levels import Neighbourhood

if TYPE_CHECKING:  # ipysigma is imported by the tests that skip without it
    from iptoolkit.widgets import TopologyView


def data_of(view: TopologyView) -> ViewData:
    """The view data drawn now."""
    data = view.data
    assert data is not None, "the view has drawn nothing"
    return data


def graph_of(view: TopologyView) -> nx.MultiDiGraph[Any]:
    """The estate graph whose overview is shown (typed as the view types it)."""
    graph = view.graph
    assert graph is not None, "the view has no estate graph"
    return graph


def sigma_of(view: TopologyView) -> Any:
    """The `ipysigma.Sigma` widget drawn now (ipysigma has no type information: Any)."""
    sigma = view.sigma
    assert sigma is not None, "the view has no canvas"
    return sigma


def around_of(view: TopologyView) -> Neighbourhood:
    """The neighbourhood shown now."""
    neighbourhood = view.neighbourhood
    assert neighbourhood is not None, "the view shows no neighbourhood"
    return neighbourhood
