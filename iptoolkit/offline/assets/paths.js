/* How does A reach B, in an offline view (an add-on of topology.js, in an HTML file):
   "Paths from here" in one item's details, "Paths to here" in another's, and the view
   shows the deepest level that holds both (the node-by-node level around them when they
   share one) with everything off the paths faded, and the details list the paths. The file has no kernel, so the paths are found
   here, over the payload's `graph` (iptoolkit/offline/item_graph.py), as ipt.paths finds
   them (iptoolkit/query/paths.py): every simple path, edges followed either way, shortest
   first, at most `limit` paths of at most `cutoff` steps, saying which bound it met; and a
   search of more than BUDGET steps stops and says so, so a tab never hangs. For tests:
   `view.paths.between(a, b, limit, cutoff)` (the paths as node ids, `ids`) and
   `view.paths.show(a, b)`, a and b indices of the file's items. */
(function () {
  "use strict";
  var api = window.IptTopology = window.IptTopology || {};
  var BUDGET = 2000000;
  var KIND_PROFILE = 0, KIND_AGENT = 1, KIND_RESPONSE = 2;
  api.addons = api.addons || [];

  function Graph(data) {
    var nodes = data.graph.nodes, edges = data.graph.edges, n = nodes.length / 3, i;
    this.nodes = nodes;
    this.n = n;
    this.adjacent = [];
    this.relation = new Map();
    for (i = 0; i < n; i += 1) this.adjacent.push([]);
    for (i = 0; i < edges.length; i += 3) {
      this.adjacent[edges[i]].push(edges[i + 1]);
      this.adjacent[edges[i + 1]].push(edges[i]);
      this.relation.set(edges[i] * n + edges[i + 1], edges[i + 2]);
    }
    this.adjacent.forEach(function (list, k, all) {  /* in the graph's order, once each */
      list.sort(function (a, b) { return a - b; });
      all[k] = list.filter(function (v, j) { return j === 0 || v !== list[j - 1]; });
    });
    this.ofItem = {};
    for (i = 0; i < n; i += 1) {
      var kind = nodes[3 * i];
      if (kind !== KIND_AGENT && kind !== KIND_RESPONSE && nodes[3 * i + 1] >= 0) this.ofItem[nodes[3 * i + 1]] = i;
    }
  }

  /* steps from `start` to each node within `most` steps (-1: farther), edges either way */
  Graph.prototype.distances = function (start, most) {
    var seen = new Int32Array(this.n).fill(-1), frontier = [start], self = this;
    seen[start] = 0;
    for (var depth = 1; depth <= most && frontier.length; depth += 1) {
      var next = [];
      frontier.forEach(function (node) {
        self.adjacent[node].forEach(function (other) {
          if (seen[other] < 0) { seen[other] = depth; next.push(other); }
        });
      });
      frontier = next;
    }
    return seen;
  };

  /* every simple path from a to b of `length` steps, at most `want` (fewer when the
     budget runs out: `out.stopped`) */
  Graph.prototype.walk = function (a, b, length, toB, want, out) {
    var self = this, path = [a], on = new Uint8Array(this.n);
    on[a] = 1;
    function step(node) {
      if (out.found.length >= want || out.left <= 0) { out.stopped = out.left <= 0; return; }
      out.left -= 1;
      if (node === b) { if (path.length - 1 === length) out.found.push(path.slice()); return; }
      self.adjacent[node].forEach(function (other) {
        if (on[other] || toB[other] < 0 || path.length + toB[other] > length) return;
        on[other] = 1;
        path.push(other);
        step(other);
        path.pop();
        on[other] = 0;
      });
    }
    step(a);
  };

  /* the paths between graph nodes a and b, as ipt.paths gives them */
  Graph.prototype.paths = function (a, b, limit, cutoff) {
    var result = { paths: [], more: false, longer: false, stopped: false };
    if (a === b) { result.paths = [[a]]; return result; }
    var toB = this.distances(b, cutoff + 2);
    if (toB[a] < 0) {  /* nothing within reach: a longer path, or none at all? */
      result.longer = this.distances(a, this.n)[b] >= 0;
      return result;
    }
    var out = { found: [], left: BUDGET, stopped: false };
    for (var length = toB[a]; length <= cutoff && out.found.length <= limit && !out.stopped; length += 1) {
      this.walk(a, b, length, toB, limit + 1, out);
    }
    result.stopped = out.stopped;
    result.more = out.found.length > limit;
    result.paths = out.found.slice(0, limit);
    if (!result.more && !out.stopped) {
      var beyond = { left: BUDGET, stopped: false };
      result.longer = this.beyond(a, b, cutoff, toB, beyond);
      result.stopped = beyond.stopped;
    }
    return result;
  };

  /* is there a simple path from a to b longer than `cutoff` among the nodes on some walk
     of at most cutoff + 2 steps (the nodes ipt.paths searches, whose next path after
     those within the cutoff says `longer`)? */
  Graph.prototype.beyond = function (a, b, cutoff, toB, out) {
    var self = this, fromA = this.distances(a, cutoff + 2), on = new Uint8Array(this.n);
    function near(node) { return fromA[node] >= 0 && toB[node] >= 0 && fromA[node] + toB[node] <= cutoff + 2; }
    function step(node, depth) {
      if (out.left <= 0) { out.stopped = true; return false; }
      out.left -= 1;
      if (node === b) return depth > cutoff;
      on[node] = 1;
      var found = self.adjacent[node].some(function (other) {
        return !on[other] && near(other) && step(other, depth + 1);
      });
      on[node] = 0;
      return found;
    }
    return step(a, 0);
  };

  /* a step's relation and its direction, as query/paths.py's Step prints it */
  Graph.prototype.step = function (u, v, S) {
    var forward = this.relation.get(u * this.n + v), back = this.relation.get(v * this.n + u);
    return forward !== undefined ? "-" + S(forward) + "->" : "<-" + S(back) + "-";
  };

  api.addons.push(function (view, el, button) {
    if (!view.data.graph) return;
    var data = view.data, S = view.S, graph = new Graph(data), limits = data.limits || [20, 8];
    var state = view.paths = { from: null, shown: null };
    var members = new Map();

    function nodeId(g) {  /* the graph node's id, as the toolkit names it */
      var kind = graph.nodes[3 * g], item = data.items[graph.nodes[3 * g + 1]];
      if (kind !== KIND_AGENT && kind !== KIND_RESPONSE) return item[0];
      var key = item[0].slice("profile:".length);
      return kind === KIND_AGENT ? "agent:" + key : "response:" + key + ":" + graph.nodes[3 * g + 2];
    }

    function stands(level, i) {  /* the graph nodes a level's node stands for */
      if (!members.has(level)) members.set(level, (level.g || []).map(function (entry) {
        if (typeof entry === "number") return entry >= 0 ? [entry] : [];
        var at = 0;
        return entry.map(function (delta) { at += delta; return at; });
      }));
      return members.get(level)[i] || [];
    }

    function holds(number, g) {
      var level = data.levels[number];
      return level.nodes.some(function (node, i) { return stands(level, i).indexOf(g) >= 0; });
    }

    /* the deepest level that holds both ends: down the levels above the one that draws an
       end as a node, the last that holds the other end too (two items of one group: the
       node-by-node level around them) */
    function levelFor(a, b) {
      var best = 0, depth = 0;
      view.index();
      [[a, b], [b, a]].forEach(function (ends) {
        var place = view.where[graph.nodes[3 * ends[0] + 1]];
        var chain = view.ancestry(place ? place[0] : 0);
        for (var k = chain.length - 1; k >= 0; k -= 1) {
          if (!holds(chain[k], ends[1]) || !holds(chain[k], ends[0])) continue;
          if (k > depth) { depth = k; best = chain[k]; }
          break;
        }
      });
      return best;
    }

    function name(g) {  /* an item links to its details; an agent or unit names its profile */
      var kind = graph.nodes[3 * g], item = graph.nodes[3 * g + 1];
      if (kind !== KIND_AGENT && kind !== KIND_RESPONSE) return view.link(item);
      var part = el("span", "ipt-path-part", kind === KIND_AGENT ? "input agent of "
        : "response unit " + graph.nodes[3 * g + 2] + " of ");
      part.appendChild(view.link(item));
      return part;
    }

    function listed(result, a, b) {
      var box = el("section", "ipt-section ipt-paths");
      var head = el("div", "ipt-detail-tools");
      head.appendChild(button("ipt-paths-clear", "Clear paths", "show every item again", function () {
        state.clear();
      }));
      box.appendChild(head);
      var count = result.paths.length;
      box.appendChild(el("h2", "ipt-detail-name", (count === 1 ? "1 path" : count.toLocaleString("en") + " paths") +
        " from " + data.items[a][2] + " to " + data.items[b][2]));
      box.appendChild(el("p", "ipt-none", "shortest first, edges followed either way" + bounds(result)));
      var list = el("ol", "ipt-path-list");
      result.paths.forEach(function (path) {
        var li = el("li");
        path.forEach(function (g, k) {
          if (k > 0) li.appendChild(el("span", "ipt-path-step", " " + graph.step(path[k - 1], g, S) + " "));
          li.appendChild(name(g));
        });
        list.appendChild(li);
      });
      box.appendChild(list);
      return box;
    }

    function bounds(result) {
      var said = [];
      if (result.more) said.push("more than " + result.limit + " paths; the first " + result.limit + " are shown");
      if (result.longer) said.push("longer paths than " + result.cutoff + " steps are left out");
      if (result.stopped) said.push("the search stopped early: too many ways to look through");
      return said.length ? "; " + said.join("; ") : "";
    }

    /* the paths between items a and b (indices of the file's items), with node ids */
    state.between = function (a, b, limit, cutoff) {
      var result = graph.paths(graph.ofItem[a], graph.ofItem[b], limit || limits[0], cutoff || limits[1]);
      result.limit = limit || limits[0];
      result.cutoff = cutoff || limits[1];
      result.ids = result.paths.map(function (path) { return path.map(nodeId); });
      return result;
    };

    /* show the paths from item a to item b (indices of the file's items) */
    state.show = function (a, b) {
      var ga = graph.ofItem[a], gb = graph.ofItem[b];
      state.from = null;
      var result = state.between(a, b);
      if (!result.paths.length) {
        view.said = "no path between " + data.items[a][2] + " and " + data.items[b][2] +
          (result.longer ? " of at most " + result.cutoff + " steps" : "");
        view.sayStatus();
        return result;
      }
      var on = new Uint8Array(graph.n);
      result.paths.forEach(function (path) { path.forEach(function (g) { on[g] = 1; }); });
      state.shown = { result: result, a: a, b: b, on: on };
      var target = levelFor(ga, gb);
      if (target !== view.trail[view.trail.length - 1]) view.openLevel(target);
      else view.fit();  /* the whole level again, the paths in it */
      view.fade(function (node, i, level) {
        return !stands(level, i).some(function (g) { return on[g]; });
      });
      view.said = result.paths.length + " path" + (result.paths.length === 1 ? "" : "s") +
        " from " + data.items[a][2] + " to " + data.items[b][2] + ", the rest faded";
      view.sayStatus();
      view.item = null;
      view.side.textContent = "";
      view.side.appendChild(listed(result, a, b));
      return result;
    };

    state.clear = function () {
      state.shown = null;
      view.fade(null);
      view.said = "";
      view.sayStatus();
      view.placeholder();
    };

    view.detailParts.push(function (item) {
      var g = graph.ofItem[item];
      if (g === undefined) return null;
      var box = el("div", "ipt-detail-tools ipt-path-tools");
      box.appendChild(button("ipt-paths-from", "Paths from here", "pick another item, then 'Paths to here'", function () {
        state.from = item;
        view.said = "paths from " + data.items[item][2] + ": pick another item, then 'Paths to here'";
        view.sayStatus();
        view.open(item, true);
      }));
      if (state.from !== null && state.from !== item) {
        box.appendChild(button("ipt-paths-to", "Paths to here", "the paths from " + data.items[state.from][2] +
          " to this item", function () { state.show(state.from, item); }));
      }
      if (state.shown) {
        box.appendChild(button("ipt-paths-clear", "Clear paths", "show every item again", function () {
          state.clear();
        }));
      }
      return box;
    });
  });
})();
