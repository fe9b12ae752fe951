/* Findings on the map of an offline view (an add-on of topology.js, in an HTML file): a
   "Findings" toggle that rings each node in the colour of the worst severity of the
   audit's findings on it (a group: the worst of its members'), a legend line per severity
   the level shows, and an item's findings with their codes in its details. The data is the
   payload's `findings` and each level's `marks` (iptoolkit/offline/findings_data.py);
   every text is set as text. For tests: `view.findings.rung(level)`, the colour each node
   of a level is ringed in (null: none), and `view.findings.on`. */
(function () {
  "use strict";
  var api = window.IptTopology = window.IptTopology || {};
  api.addons = api.addons || [];

  api.addons.push(function (view, el, button) {
    var found = view.data.findings;
    if (!found) return;
    var S = view.S, severities = found.severities, cache = new Map();
    var state = view.findings = { on: false };

    function marks(level) {  /* node index -> severity index */
      if (!cache.has(level)) {
        var byNode = {};
        (level.marks || []).forEach(function (mark) { byNode[mark[0]] = mark[1]; });
        cache.set(level, byNode);
      }
      return cache.get(level);
    }

    function ring(node, i, level) {
      if (!state.on) return null;
      var severity = marks(level)[i];
      return severity === undefined ? null : severities[severity][1];
    }

    state.rung = function (number) {
      var level = view.data.levels[number];
      return level.nodes.map(function (node, i) { return ring(node, i, level); });
    };

    var toggle = button("ipt-findings-toggle", "Findings",
      "ring each item by the worst severity of the audit's findings on it", function () {
        state.on = !state.on;
        toggle.setAttribute("aria-pressed", String(state.on));
        view.chrome();
        view.draw();
      });
    toggle.setAttribute("aria-pressed", "false");
    view.bar.insertBefore(toggle, view.bar.querySelector(".ipt-zoom"));
    view.rings.push(ring);

    view.legendParts.push(function (level) {
      if (!state.on) return [];
      var shown = {};
      Object.keys(marks(level)).forEach(function (i) { shown[marks(level)[i]] = true; });
      return severities.filter(function (s, index) { return shown[index]; }).map(function (s) {
        return [s[2], "#ffffff", s[1], true, false, 0, 2.5];
      });
    });

    view.detailParts.push(function (item) {
      var listed = found.items[item];
      if (!listed) return null;
      var total = found.n[item] || listed.length, box = el("section", "ipt-section ipt-findings");
      box.appendChild(el("h3", null, "Findings (" + total.toLocaleString("en") + ")"));
      var list = el("ul");
      listed.forEach(function (entry) {
        var li = el("li"), severity = severities[entry[1]];
        var badge = el("span", "ipt-sev", severity[0]);
        badge.style.borderColor = severity[1];  /* the ring's colour; the words in ink: the
          amber ring colour is 2.4:1 on white, too faint for text (WCAG 1.4.3) */
        li.appendChild(badge);
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("code", "ipt-code", S(entry[0])));
        li.appendChild(document.createTextNode(" " + S(entry[2])));
        list.appendChild(li);
      });
      box.appendChild(list);
      if (total > listed.length) {
        box.appendChild(el("p", "ipt-none", "\u2026 and " + (total - listed.length).toLocaleString("en") +
          " more (the audit's report lists them all)"));
      }
      return box;
    });
  });
})();
