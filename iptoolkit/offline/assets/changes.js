/* A diff on the map of an offline view (an add-on of topology.js, in an HTML file written
   for a diff): the nodes and links come coloured by what happened to them (see
   iptoolkit/offline/changes_data.py); this rings what a breaking change names in its
   colour, writes a group's news under its label where the rows leave room for a second
   line ("+2 \u22121 ~3 !1": added, removed, changed, breaking) and in its hover tip, and
   adds a "Changes only" toggle that fades every node that neither changed nor touches a
   change. For tests: `view.changes.status(level)`, each node's status name (null: a port
   or a node without news), and `view.changes.only`. */
(function () {
  "use strict";
  var api = window.IptTopology = window.IptTopology || {};
  api.addons = api.addons || [];

  api.addons.push(function (view, el, button) {
    var found = view.data.changes;
    if (!found) return;
    var S = view.S, statuses = found.statuses, news = new Map(), gaps = new Map(), near = new Map();
    var state = view.changes = { only: false };

    function newsOf(level) {  /* node index -> [status index, breaking, news text index] */
      if (!news.has(level)) {
        var byNode = {};
        (level.changes || []).forEach(function (entry) { byNode[entry[0]] = entry.slice(1); });
        news.set(level, byNode);
      }
      return news.get(level);
    }

    function rowGap(level) {  /* the least distance between two rows of one column */
      if (!gaps.has(level)) {
        var byColumn = {}, least = Infinity;
        level.nodes.forEach(function (node) {
          if (node[8] === api.PORT) return;  /* a port */
          (byColumn[node[0]] = byColumn[node[0]] || []).push(node[1]);
        });
        Object.keys(byColumn).forEach(function (x) {
          var ys = byColumn[x].sort(function (a, b) { return a - b; });
          for (var i = 1; i < ys.length; i++) least = Math.min(least, ys[i] - ys[i - 1]);
        });
        gaps.set(level, least);
      }
      return gaps.get(level);
    }

    state.status = function (number) {
      var level = view.data.levels[number], byNode = newsOf(level);
      return level.nodes.map(function (node, i) {
        return byNode[i] ? statuses[byNode[i][0]][0] : null;
      });
    };

    view.rings.push(function (node, i, level) {
      var entry = newsOf(level)[i];
      return entry && entry[1] > 0 ? found.breaking : null;
    });

    view.badges.push(function (node, i, level) {
      var entry = newsOf(level)[i];
      if (!entry || entry[2] < 0 || !S(entry[2])) return null;
      var font = view.fontPx();
      if (rowGap(level) * view.scale() < font * 2.4) return null;  /* no room below the label */
      return [S(entry[2]), entry[1] > 0 ? found.breaking : "#57606A"];
    });

    view.tips.push(function (node, i, level) {
      var entry = newsOf(level)[i];
      if (!entry) return null;
      var text = S(entry[2]);
      return text ? statuses[entry[0]][0] + ": " + text : statuses[entry[0]][0];
    });

    function around(level) {  /* what "Changes only" leaves: written per level (`near`) */
      if (!near.has(level)) {
        var set = {};
        (level.near || []).forEach(function (i) { set[i] = true; });
        near.set(level, set);
      }
      return near.get(level);
    }

    var toggle = button("ipt-changes-toggle", "Changes only",
      "fade everything that neither changed nor is linked to a change", function () {
        state.only = !state.only;
        toggle.setAttribute("aria-pressed", String(state.only));
        view.fade(state.only ? function (node, i, level) { return !around(level)[i]; } : null);
      });
    toggle.setAttribute("aria-pressed", "false");
    view.bar.insertBefore(toggle, view.bar.querySelector(".ipt-zoom"));
  });
})();
