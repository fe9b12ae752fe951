/* iptoolkit's offline topology view: draws the levels the toolkit laid out (one payload,
   see iptoolkit/offline/levels.py) on a 2D canvas, with zoom, pan, search, drill-down and
   the details of a clicked item. No network, no library. Every name is written with
   textContent, never as HTML.

   Ready for more: `view.fade(fn)` fades what fn(node) says is off (a path view), and
   `view.rings` / `view.badges` / `view.tips` / `view.detailParts` / `view.legendParts`
   take functions that ring a node in a colour, write a short text under its label (a
   group's news in a diff), add words to its hover tip, to an item's details and to the
   legend (findings on the map). An add-on (findings.js, paths.js, changes.js in an HTML
   file; changes.js in the docs site) is a function of the view, pushed on
   `IptTopology.addons` before the view is made. For tests: `view.faded()`, the nodes of
   the level shown that the fade leaves faint; `view.keyed`, the node the keyboard is on.

   Everything works by keyboard too: Tab reaches the map, whose arrow keys move from node
   to node (the nearest one that way), Enter or Space does what a click does (a group
   opens, an item shows its details), Backspace or Escape goes a level up; the search
   lists groups with the items, and an answer opens the group, or shows the item on the
   map with its details. */
(function () {
  "use strict";
  var FONT = "12px DejaVu Sans, Verdana, sans-serif";
  var api = window.IptTopology = window.IptTopology || {};
  var PORT = api.PORT = 5;  /* a port's kind (`levels.KINDS`), for add-ons too */
  var LONG_NAME = 28;  /* a field's name past which it wraps: explorer_html.LONG_NAME */
  var MAX_SPREAD = 2;  /* columns at most twice as far apart as laid out: edges stay legible */

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function button(cls, text, title, onClick) {
    var node = el("button", cls, text);
    node.type = "button";
    if (title) node.title = title;
    node.addEventListener("click", onClick);
    return node;
  }

  function plural(n, word) {
    return n.toLocaleString("en") + " " + word + (n === 1 ? "" : "s");
  }

  function View(root, data) {
    this.root = root;
    this.data = data;
    this.S = function (index) { return index >= 0 ? data.strings[index] : ""; };
    this.trail = [0];
    this.zoom = 1;
    this.panX = 0;
    this.panY = 0;
    this.picked = -1;
    this.hovered = -1;
    this.keyed = -1;
    this.history = [];
    this.item = null;
    this.rings = [];
    this.badges = [];
    this.tips = [];
    this.detailParts = [];
    this.legendParts = [];
    this.fadeOff = null;
    this.said = "";
    this.parents = null;
    this.where = null;
    this.build();
    var self = this;
    (api.addons || []).forEach(function (addon) { addon(self, el, button); });
    this.show(0, true);
  }

  View.prototype.build = function () {
    var self = this, data = this.data, root = this.root;
    root.textContent = "";
    if (data.title) {  /* a page of its own; a docs page has its heading already */
      var head = el("div", "ipt-head");
      head.appendChild(el("h1", "ipt-title", data.title));
      data.lines.forEach(function (line, i) {
        head.appendChild(el("div", i === 0 ? "ipt-counts" : "ipt-source", line));
      });
      root.appendChild(head);
    }
    var bar = this.bar = el("div", "ipt-bar");
    this.back = button("ipt-back", "\u2190 Back", "one level up", function () { self.up(); });
    bar.appendChild(this.back);
    this.crumbs = el("nav", "ipt-crumbs");
    this.crumbs.setAttribute("aria-label", "levels opened");
    bar.appendChild(this.crumbs);
    var find = el("div", "ipt-find");
    this.search = el("input", "ipt-search");
    this.search.type = "search";
    this.search.placeholder = "find a profile, channel or partner";
    this.search.setAttribute("aria-label", "find an item");
    this.results = el("ul", "ipt-results");
    this.search.addEventListener("input", function () { self.suggest(); });
    this.search.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        var first = self.results.querySelector("button");
        if (first) first.click();
      } else if (event.key === "Escape") {
        self.results.textContent = "";
      } else if (event.key === "ArrowDown") {
        var top = self.results.querySelector("button");
        if (top) { top.focus(); event.preventDefault(); }
      }
    });
    /* up and down the answers with the arrows; Escape goes back to the box */
    this.results.addEventListener("keydown", function (event) {
      var buttons = Array.prototype.slice.call(self.results.querySelectorAll("button"));
      var at = buttons.indexOf(document.activeElement);
      if (at < 0) return;
      if (event.key === "ArrowDown" && at < buttons.length - 1) buttons[at + 1].focus();
      else if (event.key === "ArrowUp") (at > 0 ? buttons[at - 1] : self.search).focus();
      else if (event.key === "Escape") { self.results.textContent = ""; self.search.focus(); }
      else return;
      event.preventDefault();
    });
    find.appendChild(this.search);
    find.appendChild(this.results);
    bar.appendChild(find);
    bar.appendChild(button("ipt-zoom", "+", "zoom in", function () { self.zoomBy(1.4); }));
    bar.appendChild(button("ipt-zoom", "\u2212", "zoom out", function () { self.zoomBy(1 / 1.4); }));
    bar.appendChild(button("ipt-fit", "Fit", "the whole level", function () { self.fit(); self.draw(); }));
    root.appendChild(bar);
    this.status = el("div", "ipt-status");
    this.status.setAttribute("role", "status");
    root.appendChild(this.status);
    var body = el("div", "ipt-body");
    this.wrap = el("div", "ipt-canvas");
    this.canvas = el("canvas");
    this.canvas.setAttribute("role", "img");
    this.canvas.tabIndex = 0;
    this.wrap.appendChild(this.canvas);
    this.tip = el("div", "ipt-tip");
    this.wrap.appendChild(this.tip);
    body.appendChild(this.wrap);
    this.side = el("aside", "ipt-details");
    this.side.setAttribute("aria-label", "details");
    body.appendChild(this.side);
    root.appendChild(body);
    this.legend = el("ul", "ipt-legend");
    root.appendChild(this.legend);
    this.placeholder();
    this.listen();
  };

  /* -- levels ------------------------------------------------------------------------ */

  View.prototype.level = function () {
    return this.data.levels[this.trail[this.trail.length - 1]];
  };

  View.prototype.show = function (index, first) {
    if (!first) this.trail.push(index);
    this.picked = -1;
    this.hovered = -1;
    this.keyed = -1;
    this.tip.style.display = "none";
    this.said = "";
    this.size();
    this.fit();
    this.chrome();
    this.draw();
  };

  View.prototype.up = function () {
    if (this.trail.length > 1) this.goTo(this.trail.length - 2);
  };

  View.prototype.goTo = function (depth) {
    this.trail.length = depth + 1;
    this.show(this.trail[depth], true);
  };

  View.prototype.chrome = function () {
    var self = this, level = this.level();
    this.crumbs.textContent = "";
    this.trail.forEach(function (index, depth) {
      var title = self.S(self.data.levels[index].title);
      if (depth > 0) self.crumbs.appendChild(el("span", "ipt-sep", "\u203a"));
      if (depth === self.trail.length - 1) {
        self.crumbs.appendChild(el("span", "ipt-here", title));
      } else {
        self.crumbs.appendChild(button("ipt-crumb", title, "back to " + title, function () {
          self.goTo(depth);
        }));
      }
    });
    this.back.disabled = this.trail.length < 2;
    this.legend.textContent = "";
    var entries = JSON.parse(this.S(level.legend));
    this.legendParts.forEach(function (part) { entries = entries.concat(part(level)); });
    entries.forEach(function (entry) {
      var li = el("li"), swatch = el("span", entry[4] ? "ipt-swatch ipt-line" : "ipt-swatch");
      swatch.style.background = entry[1];
      if (entry[4]) swatch.style.height = Math.max(2, Math.round(entry[5])) + "px";
      else if (entry[3]) swatch.style.border = (entry[6] || 1) + "px solid " + entry[2];
      li.appendChild(swatch);
      li.appendChild(el("span", null, entry[0]));
      self.legend.appendChild(li);
    });
    this.canvas.setAttribute("aria-label", "Topology: " + this.title());
    this.sayStatus();
  };

  View.prototype.title = function () {
    var level = this.level(), count = 0;
    level.nodes.forEach(function (node) { if (node[8] !== PORT) count += 1; });
    var how = level.by ? "grouped by " + level.by : "node by node";
    return count.toLocaleString("en") + " items, " + how;
  };

  View.prototype.sayStatus = function () {
    var level = this.level(), what = this.trail.length > 1 ? this.S(level.title) + ": " : "";
    var hint = level.by ? "click a group to open it" : "click a node for its details";
    this.status.textContent = "";
    this.status.appendChild(el("strong", "ipt-what", what + this.title()));
    this.status.appendChild(el("span", "ipt-hint",
      " \u00b7 scroll to zoom, drag to pan, " + hint + " (keys: arrows, Enter)" +
      (this.said ? " \u00b7 " + this.said : "")));
  };

  /* -- geometry ------------------------------------------------------------------------ */

  View.prototype.size = function () {
    var level = this.level(), width = Math.max(this.wrap.clientWidth, 200);
    var base = Math.min(1, width / level.frame[2]);
    var tall = Math.max(360, Math.min(level.frame[3], this.data.canvas[1]) * base);
    this.base = base;
    /* a canvas wider than the level was laid out for: its columns move apart to use it
       (names get the room, see `labels`); nodes, type and rows keep their size */
    this.spread = Math.min(MAX_SPREAD, Math.max(1, width / level.frame[2]));
    this.width = width;
    this.height = Math.round(tall);
    var ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(this.height * ratio);
    this.canvas.style.width = width + "px";
    this.canvas.style.height = this.height + "px";
  };

  View.prototype.fit = function () {
    var frame = this.level().frame;
    this.zoom = 1;
    this.panX = 0;
    this.panY = 0;
    var scale = this.base;
    if (frame[3] * scale > this.height) this.panY = frame[3] * scale / 2 - this.height / 2;
  };

  View.prototype.scale = function () { return this.base * this.zoom; };

  /* pixels a unit of the layout takes across: the scale, and the spread of the columns */
  View.prototype.across = function () { return this.scale() * this.spread; };

  View.prototype.screen = function (x, y) {
    var frame = this.level().frame, s = this.scale();
    return [(x - frame[0]) * this.across() + this.width / 2 + this.panX,
      (y - frame[1]) * s + this.height / 2 + this.panY];
  };

  View.prototype.radius = function (r) {
    var s = this.scale();
    return r * (s <= 1 ? s : Math.sqrt(s));
  };

  View.prototype.fontPx = function () { return 12 * Math.min(1, this.scale()); };

  /* Labels cut to fit the canvas (`level.uncut`: node, label uncut, its column's pixels)
     drawn longer as the zoom or a wide canvas gives them room: the type stays 12 px while
     the columns move apart, so a column's room grows with `across`. Node -> text drawn. */
  View.prototype.labels = function () {
    var self = this, level = this.level(), s = this.across(), memo = this.fitted;
    if (memo && memo.level === level && memo.s === s) return memo.texts;
    var texts = {}, ctx = this.canvas.getContext("2d");
    if (s > 1 && level.uncut) {
      ctx.font = FONT;
      level.uncut.forEach(function (entry) {
        var drawn = self.S(level.nodes[entry[0]][6]);
        texts[entry[0]] = refit(ctx, self.S(entry[1]), drawn, entry[2] * s - 2);
      });
    }
    this.fitted = {level: level, s: s, texts: texts};
    return texts;
  };

  View.prototype.labelOf = function (i) {
    var text = this.labels()[i];
    return text !== undefined ? text : this.S(this.level().nodes[i][6]);
  };

  /* `whole` in `room` pixels: whole when it fits, else as the toolkit cut it (`drawn`)
     with more of its beginning: what follows its "…" (the count, or where namesakes
     differ) stays as it is. */
  function refit(ctx, whole, drawn, room) {
    if (ctx.measureText(whole).width <= room) return whole;
    var cut = drawn.indexOf("\u2026");
    if (cut < 0) return drawn;
    var tail = drawn.slice(cut + 1), kept = tail.replace(/\u2026$/, "");
    var end = kept ? whole.lastIndexOf(kept) : whole.length;
    var low = cut, high = end - 1, best = drawn;  /* the longest head that fits */
    while (low <= high) {
      var k = (low + high) >> 1, text = whole.slice(0, k).replace(/\s+$/, "") + "\u2026" + tail;
      if (ctx.measureText(text).width <= room) { best = text; low = k + 1; } else high = k - 1;
    }
    return best.length >= drawn.length ? best : drawn;
  }

  View.prototype.zoomBy = function (factor, at) {
    var x = at ? at[0] : this.width / 2, y = at ? at[1] : this.height / 2;
    var zoom = Math.min(40, Math.max(0.05, this.zoom * factor));
    factor = zoom / this.zoom;
    this.panX = x - (x - this.width / 2 - this.panX) * factor - this.width / 2;
    this.panY = y - (y - this.height / 2 - this.panY) * factor - this.height / 2;
    this.zoom = zoom;
    this.draw();
  };

  /* -- drawing ------------------------------------------------------------------------- */

  View.prototype.fade = function (off) {
    this.fadeOff = off || null;
    this.draw();
  };

  View.prototype.faded = function () {
    var self = this, level = this.level(), out = [];
    if (this.fadeOff) level.nodes.forEach(function (node, i) { if (self.fadeOff(node, i, level)) out.push(i); });
    return out;
  };

  View.prototype.draw = function () {
    var self = this, level = this.level(), ctx = this.canvas.getContext("2d");
    var palette = this.data.palette, ratio = window.devicePixelRatio || 1;
    var nodes = level.nodes, at = new Array(nodes.length), s = this.scale();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    nodes.forEach(function (node, i) { at[i] = self.screen(node[0], node[1]); });
    var off = this.fadeOff ? nodes.map(function (node, i) { return self.fadeOff(node, i, level); }) : null;
    ctx.lineCap = "butt";
    level.edges.forEach(function (edge) {
      var a = at[edge[0]], b = at[edge[1]];
      ctx.globalAlpha = off && (off[edge[0]] || off[edge[1]]) ? 0.12 : 1;
      ctx.strokeStyle = palette[edge[2]];
      ctx.lineWidth = Math.max(0.5, edge[3] * (s <= 1 ? s : Math.sqrt(s)));
      ctx.beginPath();
      ctx.moveTo(a[0], a[1]);
      ctx.lineTo(b[0], b[1]);
      ctx.stroke();
    });
    var font = this.fontPx(), labels = font >= 4.5, S = this.S, texts = this.labels();
    ctx.font = font >= 11.9 ? FONT : font.toFixed(2) + "px DejaVu Sans, Verdana, sans-serif";
    ctx.textBaseline = "alphabetic";
    nodes.forEach(function (node, i) {
      if (node[8] === PORT) return;
      var p = at[i], r = self.radius(node[2]);
      if (p[0] < -300 || p[0] > self.width + 20 || p[1] < -20 || p[1] > self.height + 20) return;
      ctx.globalAlpha = off && off[i] ? 0.15 : 1;
      ctx.beginPath();
      ctx.arc(p[0], p[1], Math.max(r, 1), 0, 2 * Math.PI);
      ctx.fillStyle = palette[node[3]];
      ctx.fill();
      ctx.lineWidth = Math.max(1, r * 0.15);
      ctx.strokeStyle = palette[node[4]];
      ctx.stroke();
      self.rings.forEach(function (ring) {
        var colour = ring(node, i, level);
        if (!colour) return;
        ctx.beginPath();
        ctx.arc(p[0], p[1], Math.max(r, 1) + 3, 0, 2 * Math.PI);
        ctx.lineWidth = 2.5;
        ctx.strokeStyle = colour;
        ctx.stroke();
      });
      if (i === self.picked || i === self.hovered) {
        ctx.beginPath();
        ctx.arc(p[0], p[1], Math.max(r, 1) + (i === self.picked ? 6 : 4), 0, 2 * Math.PI);
        ctx.lineWidth = 2;
        ctx.strokeStyle = i === self.picked ? "#0072B2" : "#8C959F";
        ctx.stroke();
      }
      if (i === self.keyed) {  /* the keyboard's place: a dashed ring, as the focus outline */
        ctx.beginPath();
        ctx.arc(p[0], p[1], Math.max(r, 1) + 9, 0, 2 * Math.PI);
        ctx.lineWidth = 2;
        ctx.setLineDash([4, 3]);
        ctx.strokeStyle = "#0969da";
        ctx.stroke();
        ctx.setLineDash([]);
      }
      var text = texts[i] !== undefined ? texts[i] : S(node[6]);
      if (labels && text) {
        ctx.fillStyle = palette[node[5]];
        ctx.fillText(text, p[0] + r + 3 * Math.min(1, s), p[1] + font / 3);
      }
      if (labels) self.badges.forEach(function (badge) {  /* [text, colour] under the label */
        var said = badge(node, i, level);
        if (!said) return;
        ctx.fillStyle = said[1];
        ctx.fillText(said[0], p[0] + r + 3 * Math.min(1, s), p[1] + font / 3 + font * 1.15);
      });
    });
    ctx.globalAlpha = 1;
    if (!api.firstDraw) api.firstDraw = performance.now();  /* ms since the page began */
  };

  /* -- pointing ------------------------------------------------------------------------ */

  View.prototype.nodeAt = function (x, y) {
    var self = this, level = this.level(), best = -1, bestDistance = Infinity;
    var ctx = this.canvas.getContext("2d"), font = this.fontPx();
    ctx.font = FONT;
    level.nodes.forEach(function (node, i) {
      if (node[8] === PORT) return;
      var p = self.screen(node[0], node[1]), r = Math.max(self.radius(node[2]), 4);
      var dx = x - p[0], dy = y - p[1], distance = Math.sqrt(dx * dx + dy * dy);
      if (distance <= r + 3 && distance < bestDistance) {
        best = i;
        bestDistance = distance;
      } else if (font >= 4.5 && node[6] >= 0 && dx > r && Math.abs(dy) <= font * 0.6 && bestDistance > r) {
        var wide = ctx.measureText(self.labelOf(i)).width * font / 12;
        if (dx <= r + 3 + wide) { best = i; bestDistance = r + 1; }
      }
    });
    return best;
  };

  View.prototype.listen = function () {
    var self = this, canvas = this.canvas, down = null;
    function where(event) {
      var box = canvas.getBoundingClientRect();
      return [event.clientX - box.left, event.clientY - box.top];
    }
    canvas.addEventListener("wheel", function (event) {
      event.preventDefault();
      self.zoomBy(Math.exp(-event.deltaY * 0.0015), where(event));
    }, { passive: false });
    canvas.addEventListener("mousedown", function (event) {
      down = { at: where(event), panX: self.panX, panY: self.panY, moved: false };
    });
    window.addEventListener("mouseup", function (event) {
      if (down && !down.moved && event.target === canvas) self.click(self.nodeAt.apply(self, where(event)));
      down = null;
    });
    canvas.addEventListener("mousemove", function (event) {
      var p = where(event);
      if (down) {
        var dx = p[0] - down.at[0], dy = p[1] - down.at[1];
        if (Math.abs(dx) + Math.abs(dy) > 3) down.moved = true;
        if (down.moved) {
          self.panX = down.panX + dx;
          self.panY = down.panY + dy;
          self.draw();
        }
        return;
      }
      var hit = self.nodeAt(p[0], p[1]);
      if (hit !== self.hovered) {
        self.hovered = hit;
        canvas.style.cursor = hit >= 0 ? "pointer" : "grab";
        self.hover(hit, p);
        self.draw();
      }
    });
    canvas.addEventListener("mouseleave", function () {
      self.hovered = -1;
      self.tip.style.display = "none";
      self.draw();
    });
    canvas.addEventListener("keydown", function (event) {
      var step = ARROWS[event.key];
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === "+" || event.key === "=") self.zoomBy(1.4);
      else if (event.key === "-") self.zoomBy(1 / 1.4);
      else if (event.key === "Backspace" || event.key === "Escape") self.up();
      else if (step) self.keyTo(self.nextNode(step));
      else if (event.key === "Home") self.keyTo(self.nextNode(null));
      else if ((event.key === "Enter" || event.key === " ") && self.keyed >= 0) self.click(self.keyed);
      else return;
      event.preventDefault();
    });
    canvas.addEventListener("blur", function () {
      if (self.keyed < 0) return;
      self.tip.style.display = "none";
    });
    if (window.ResizeObserver) {
      new ResizeObserver(function () {
        if (Math.abs(self.wrap.clientWidth - self.width) > 1) {
          var zoom = self.zoom, panX = self.panX, panY = self.panY;
          self.size();
          self.zoom = zoom; self.panX = panX; self.panY = panY;
          self.draw();
        }
      }).observe(this.wrap);
    }
  };

  /* the tip of node `index`: below right of the pointer at `p`; for the keyboard's node
     (`beside`), on its row after its label (in the last column, over the label it says
     again), so that the node an arrow goes to next, up or down, stays in sight */
  View.prototype.hover = function (index, p, beside) {
    if (index < 0) { this.tip.style.display = "none"; return; }
    var node = this.level().nodes[index], group = this.level().groups[index];
    var text = this.S(node[7]) || this.S(node[6]);
    if (group) text += " \u00b7 " + plural(group[0], "item");
    var level = this.level();
    this.tips.forEach(function (tip) {  /* an add-on's words after the name */
      var more = tip(node, index, level);
      if (more) text += " \u00b7 " + more;
    });
    this.tip.textContent = text;
    this.tip.style.display = "block";
    var left = p[0] + 14, top = p[1] + 14;
    if (beside) {
      var ctx = this.canvas.getContext("2d"), r = Math.max(this.radius(node[2]), 4);
      ctx.font = FONT;
      left = p[0] + r + 15 + ctx.measureText(this.labelOf(index)).width * this.fontPx() / 12;
      top = p[1] - this.tip.offsetHeight / 2;
      if (left + this.tip.offsetWidth > this.width) {  /* the last column: over its label */
        left = Math.max(p[0] + r + 3, this.width - this.tip.offsetWidth - 4);
      }
    }
    this.tip.style.left = Math.min(left, this.width - 40) + "px";
    this.tip.style.top = top + "px";
  };

  /* -- the keyboard on the map --------------------------------------------------------- */

  var ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

  /* the node an arrow `step` leads to from the node the keyboard is on: the nearest one
     that way, a node straight ahead before one off to the side; from none (or `step`
     null), the first: the top of the leftmost column (the diagram reads left to right) */
  View.prototype.nextNode = function (step) {
    var self = this, nodes = this.level().nodes, best = -1, bestScore = Infinity;
    var from = this.keyed >= 0 && step ? this.screen(nodes[this.keyed][0], nodes[this.keyed][1]) : null;
    nodes.forEach(function (node, i) {
      if (node[8] === PORT || i === self.keyed) return;
      var p = self.screen(node[0], node[1]), score;
      if (!from) {
        score = p[0] * 10000 + p[1];
      } else {
        var dx = p[0] - from[0], dy = p[1] - from[1];
        var ahead = dx * step[0] + dy * step[1], aside = Math.abs(dx * step[1] - dy * step[0]);
        if (ahead <= 0.5) return;
        score = ahead + 3 * aside;
      }
      if (score < bestScore) { best = i; bestScore = score; }
    });
    return best < 0 ? this.keyed : best;
  };

  /* put the keyboard on node `index`: ringed, in sight, its name in the tip and said on
     the status line (which assistive technology reads out) */
  View.prototype.keyTo = function (index) {
    if (index < 0) return;
    var level = this.level(), node = level.nodes[index], group = level.groups[index];
    this.keyed = index;
    var p = this.screen(node[0], node[1]);
    if (p[0] < 20 || p[0] > this.width - 60 || p[1] < 20 || p[1] > this.height - 20) {
      this.panX += this.width / 2 - p[0];
      this.panY += this.height / 2 - p[1];
      p = this.screen(node[0], node[1]);
    }
    var name = this.S(node[7]) || this.S(node[6]);
    var opens = group && group[3] >= 0 ? "Enter opens the group" : "Enter shows its details";
    this.said = name + ": " + opens;
    this.sayStatus();
    this.hover(index, p, true);
    this.draw();
  };

  View.prototype.click = function (index) {
    if (index < 0) return;
    var level = this.level(), node = level.nodes[index], group = level.groups[index];
    if (group && group[3] >= 0) {
      this.show(group[3]);
      return;
    }
    this.picked = index;
    if (group) {
      this.said = group[3] === -2
        ? "this group was left out of the file (too big): export it on its own with a filter"
        : "";
      this.sayStatus();
      this.groupDetails(node, group);
    } else if (node[9] >= 0) {
      this.open(node[9], false);
    }
    this.draw();
  };

  /* -- search -------------------------------------------------------------------------- */

  View.prototype.suggest = function () {
    var self = this, typed = this.search.value.toLowerCase().trim();
    var words = typed.split(/\s+/).filter(Boolean), found = [];
    this.results.textContent = "";
    if (!words.length) return;
    /* every word in its name or id; a name that is what was typed, then one starting with
       it, come first (a partner's name before the profiles named after it) */
    for (var i = 0; i < this.data.items.length && found.length < 500; i += 1) {
      var item = this.data.items[i], name = item[2].toLowerCase(), text = name + " " + item[0].toLowerCase();
      if (words.every(function (word) { return text.indexOf(word) >= 0; })) {
        found.push([name === typed ? 0 : name.indexOf(typed) === 0 ? 1 : 2, i]);
      }
    }
    this.groupNames().forEach(function (group, g) {  /* groups first among equals */
      var name = group[0].toLowerCase();
      if (words.every(function (word) { return name.indexOf(word) >= 0; })) {
        found.push([name === typed ? 0 : name.indexOf(typed) === 0 ? 1 : 2, -1 - g]);
      }
    });
    found.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    found.slice(0, 20).forEach(function (hit) {
      var li = el("li");
      if (hit[1] < 0) {
        var group = self.groupNames()[-1 - hit[1]];
        li.appendChild(button("ipt-result ipt-result-group", group[0] + " (" + group[1] + ")",
          "open the group", function () { self.openGroup(group); }));
      } else {
        var item = self.data.items[hit[1]];
        li.appendChild(button("ipt-result", item[2] + " (" + item[1] + ")", item[0], function () {
          self.find(hit[1]);
        }));
      }
      self.results.appendChild(li);
    });
    if (!found.length) this.results.appendChild(el("li", "ipt-none", "nothing named so"));
  };

  View.prototype.find = function (index) {
    this.results.textContent = "";
    this.search.value = this.data.items[index][2];
    this.locate(index);
    this.open(index, false);
    this.canvas.focus({ preventScroll: true });  /* the answer is gone: on from the map */
  };

  /* the groups a reader can open, by name: [name, what it holds, level it opens], each
     level once (the name its breadcrumb shows) */
  View.prototype.groupNames = function () {
    if (this.groupList) return this.groupList;
    var self = this, seen = {}, list = this.groupList = [];
    this.data.levels.forEach(function (level) {
      Object.keys(level.groups).forEach(function (i) {
        var group = level.groups[i], child = group[3];
        if (child < 0 || seen[child]) return;
        seen[child] = true;
        var kind = self.data.kinds[level.nodes[i][8]] || "item";
        list.push([self.S(self.data.levels[child].title), "group of " + plural(group[0], kind), child]);
      });
    });
    /* a name several groups share (a partner's profiles under each group and channel
       type) says where each one is, as its breadcrumb does: else the answers read alike */
    var named = {};
    list.forEach(function (entry) { named[entry[0]] = (named[entry[0]] || 0) + 1; });
    list.forEach(function (entry) {
      if (named[entry[0]] < 2) return;
      var within = self.ancestry(entry[2]).slice(1, -1).map(function (number) {
        return self.S(self.data.levels[number].title);
      });
      if (within.length) entry[1] += ", in " + within.join(" \u203a ");
    });
    return list;
  };

  View.prototype.openGroup = function (group) {
    this.results.textContent = "";
    this.search.value = group[0];
    this.openLevel(group[2]);
    this.canvas.focus({ preventScroll: true });
  };

  View.prototype.index = function () {
    if (this.where) return;
    var self = this, levels = this.data.levels;
    this.where = {};
    this.parents = { 0: -1 };
    levels.forEach(function (level, number) {
      Object.keys(level.groups).forEach(function (key) {
        var child = level.groups[key][3];
        if (child >= 0 && !(child in self.parents)) self.parents[child] = number;
      });
      level.nodes.forEach(function (node, i) {
        if (node[9] >= 0 && node[8] !== 1 && node[8] !== 2 && !(node[9] in self.where)) {
          self.where[node[9]] = [number, i];
        }
      });
    });
  };

  View.prototype.locate = function (item) {
    this.index();
    var level = this.level(), here = -1;
    level.nodes.forEach(function (node, i) { if (node[9] === item && here < 0 && node[8] !== 1 && node[8] !== 2) here = i; });
    if (here < 0 && this.where[item]) {
      this.openLevel(this.where[item][0]);
      here = this.where[item][1];
    }
    if (here < 0) {
      this.said = "not drawn in this file's levels";
      this.sayStatus();
      return;
    }
    var node = this.level().nodes[here], p = this.screen(node[0], node[1]);
    this.panX = this.keptIn(this.panX + this.width / 2 - p[0], this.level().frame[2] * this.across(), this.width);
    this.panY = this.keptIn(this.panY + this.height / 2 - p[1], this.level().frame[3] * this.scale(), this.height);
    this.picked = here;
    this.draw();
  };

  /* A pan that centres the item found, moved back as far as it takes to keep its level
     in view: a level smaller than the canvas stays whole on it, a bigger one covers it
     (no edge of the level pulled in past the canvas's). */
  View.prototype.keptIn = function (pan, extent, room) {
    var slack = Math.abs(extent - room) / 2;
    return Math.max(-slack, Math.min(slack, pan));
  };

  View.prototype.ancestry = function (number) {
    this.index();
    var path = [];
    for (var at = number; at >= 0; at = this.parents[at]) path.unshift(at);
    return path;
  };

  View.prototype.openLevel = function (number) {
    var path = this.ancestry(number);
    this.trail = path;
    this.show(number, true);
  };

  /* -- details ------------------------------------------------------------------------- */

  View.prototype.placeholder = function () {
    this.side.textContent = "";
    this.side.appendChild(el("p", "ipt-none",
      "Click an item for its details, or find one by name above."));
  };

  View.prototype.open = function (item, back) {
    if (!back && this.item !== null && this.item !== item) this.history.push(this.item);
    this.item = item;
    var self = this, data = this.data, side = this.side, row = data.items[item];
    side.textContent = "";
    var tools = el("div", "ipt-detail-tools");
    var previous = button("ipt-detail-back", "\u2190 Back", "the item shown before", function () {
      if (self.history.length) self.open(self.history.pop(), true);
    });
    previous.disabled = !this.history.length;
    tools.appendChild(previous);
    tools.appendChild(button("ipt-show", "Show on map", "the level that draws it", function () {
      self.locate(item);
      self.canvas.focus({ preventScroll: true });  /* on from the map, the keys' place */
      self.canvas.scrollIntoView({ block: "nearest" });  /* above details stacked under it */
    }));
    side.appendChild(tools);
    side.appendChild(el("h2", "ipt-detail-name", row[2]));
    side.appendChild(el("div", "ipt-detail-id", row[1] + " \u00b7 " + row[0]));
    this.detailParts.forEach(function (part) {  /* an add-on's part: above the sections */
      var extra = part(item);
      if (extra) side.appendChild(extra);
    });
    (data.details[item] || []).forEach(function (section) { side.appendChild(self.section(section)); });
    this.reveal();
  };

  /* a narrow window stacks the details under the map (the style's 1,100 px): an item
     opened from the map or the search brings them into sight, else nothing seemed to
     happen; details already in sight (beside the map, or a link followed in them) stay */
  View.prototype.reveal = function () {
    if (this.side.getBoundingClientRect().top > window.innerHeight - 80) {
      this.side.scrollIntoView({ block: "nearest" });
    }
  };

  View.prototype.link = function (entry) {
    var self = this;
    if (typeof entry !== "number") return el("span", null, this.S(entry[0]));
    return button("ipt-link", this.data.items[entry][2], this.data.items[entry][0], function () {
      self.open(entry, false);
    });
  };

  View.prototype.section = function (section) {
    var self = this, S = this.S, box = el("section", "ipt-section"), title = S(section.t);
    if (section.p !== undefined) {
      if (title) box.appendChild(el("h3", null, title));
      box.appendChild(el("p", S(section.c), S(section.p)));
      return box;
    }
    if (section.f) {
      if (title) box.appendChild(el("h3", null, title));
      var table = el("table", "ipt-fields");
      section.f.forEach(function (row) {
        var pair = JSON.parse(S(row)), tr = el("tr");
        /* a name as long as a JSON path (a diff's change) wraps, leaving its value room */
        tr.appendChild(el("th", pair[0].length > LONG_NAME ? "ipt-long" : null, pair[0]));
        tr.appendChild(el("td", null, pair[1]));
        table.appendChild(tr);
      });
      section.l.forEach(function (row) {
        var tr = el("tr"), td = el("td");
        tr.appendChild(el("th", null, S(row[0])));
        td.appendChild(self.link(row[1]));
        tr.appendChild(td);
        table.appendChild(tr);
      });
      box.appendChild(table);
      return box;
    }
    var heading = el("h3", null, title + " (" + section.n.toLocaleString("en") + ")");
    if (section.note !== undefined) heading.appendChild(el("span", "ipt-none", " " + S(section.note)));
    box.appendChild(heading);
    if (!section.n) { box.appendChild(el("p", "ipt-none", "none")); return box; }
    var list = el("ul");
    section.i.forEach(function (entry) {
      var li = el("li");
      li.appendChild(self.link(entry));
      list.appendChild(li);
    });
    box.appendChild(list);
    if (section.n > section.i.length) {
      box.appendChild(el("p", "ipt-none", "\u2026 and " +
        (section.n - section.i.length).toLocaleString("en") + " more (the Explorer lists them all)"));
    }
    return box;
  };

  View.prototype.groupDetails = function (node, group) {
    var self = this, side = this.side;
    side.textContent = "";
    side.appendChild(el("h2", "ipt-detail-name", this.S(node[7]) || this.S(node[6])));
    var kind = this.data.kinds[node[8]];
    side.appendChild(el("div", "ipt-detail-id", "a group of " + kind + "s"));
    var table = el("table", "ipt-fields");
    [["items", group[0]], ["inactive", group[1]], ["profiles reaching it", group[2]]].forEach(function (row) {
      var tr = el("tr");
      tr.appendChild(el("th", null, row[0]));
      tr.appendChild(el("td", null, row[1].toLocaleString("en")));
      table.appendChild(tr);
    });
    side.appendChild(table);
    if (group[3] === -2) side.appendChild(el("p", "ipt-none", self.said));
    this.reveal();
  };

  /* -- start --------------------------------------------------------------------------- */

  var registry = {};
  api.views = api.views || [];
  api.View = View;
  api.mount = function (root, payload) {
    var view = new View(root, payload);
    api.views.push(view);
    return view;
  };
  /* a docs page's data file calls this: its payload, by the file's address */
  api.receive = function (payload) {
    var script = document.currentScript;
    if (script) registry[script.src] = payload;
  };

  function start() {
    document.querySelectorAll("script.ipt-view-data").forEach(function (script) {
      var root = script.previousElementSibling;
      if (!root || !root.classList.contains("ipt-view")) return;
      if (script.dataset.encoding !== "gzip") {
        api.mount(root, JSON.parse(script.textContent));
        return;
      }
      /* gzip in base64 (a tenth of the JSON): the browser's own decompressor, no library */
      var bytes = Uint8Array.from(atob(script.textContent.trim()), function (c) { return c.charCodeAt(0); });
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      new Response(stream).text().then(function (text) { api.mount(root, JSON.parse(text)); });
    });
    document.querySelectorAll("div.ipt-view img").forEach(function (img) {
      var source = img.getAttribute("src") || "";
      if (!/\.svg$/.test(source)) return;
      var script = document.createElement("script");
      script.src = source.replace(/\.svg$/, ".view.js");
      script.onload = function () {
        var payload = registry[script.src];
        if (!payload) return;
        var holder = img.closest("div.ipt-view"), root = el("div", "ipt-view-live");
        holder.insertBefore(root, holder.firstChild);
        holder.classList.add("ipt-view-drawn");
        api.mount(root, payload);
      };
      document.body.appendChild(script);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
