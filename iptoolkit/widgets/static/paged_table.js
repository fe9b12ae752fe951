// The Explorer's table: draws the one page the kernel sent (`view`) and sends back what the
// analyst asks for (sort, page, page size, a row). No data lives here: see table_pages.py.

function button(text, key, label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.dataset.key = key;
  if (label) {
    b.setAttribute("aria-label", label);
    b.title = label;
  }
  b.addEventListener("click", onClick);
  return b;
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "ipt-pt";
  el.appendChild(root);

  function ask(message) {
    root.classList.add("ipt-pt-waiting");
    model.send({ ...message, version: model.get("view").version });
  }

  function header(view) {
    const row = document.createElement("tr");
    view.columns.forEach((name) => {
      const th = document.createElement("th");
      th.scope = "col";
      const sorted = view.sort === name;
      th.setAttribute("aria-sort", sorted ? (view.ascending ? "ascending" : "descending") : "none");
      const sort = () => ask({ action: "sort", column: name });
      const b = button("", "sort:" + name, null, (event) => {
        event.stopPropagation();
        sort();
      });
      b.className = "ipt-pt-sort";
      b.title = `sort by ${name}` + (sorted ? " (again: the other way)" : "");
      const text = document.createElement("span");
      text.className = "ipt-pt-name";
      text.textContent = name;
      const arrow = document.createElement("span");
      arrow.className = "ipt-pt-arrow";
      arrow.textContent = sorted ? (view.ascending ? "▲" : "▼") : "";
      arrow.setAttribute("aria-hidden", "true");
      b.append(text, arrow);
      th.appendChild(b);
      th.addEventListener("click", sort); // the cell's edge too: anywhere on the header
      if (sorted) th.classList.add("ipt-pt-sorted");
      row.appendChild(th);
    });
    return row;
  }

  function body(view) {
    const tbody = document.createElement("tbody");
    view.rows.forEach((item) => {
      const tr = document.createElement("tr");
      tr.tabIndex = 0;
      tr.dataset.at = item.at;
      tr.dataset.key = "row:" + item.at;
      if (item.at === view.picked) tr.classList.add("ipt-pt-picked");
      item.cells.forEach((text, index) => {
        const td = document.createElement("td");
        td.textContent = text;
        const title = item.titles && item.titles[String(index)];
        if (title) td.title = title;
        tr.appendChild(td);
      });
      const pick = () => ask({ action: "pick", at: item.at });
      tr.addEventListener("click", pick);
      tr.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          pick();
        }
      });
      tbody.appendChild(tr);
    });
    return tbody;
  }

  function navigation(view) {
    const nav = document.createElement("div");
    nav.className = "ipt-pt-nav";
    const last = view.pages - 1;
    const go = (page) => () => ask({ action: "page", page });
    const first = button("«", "first", "first page", go(0));
    const prev = button("‹", "prev", "previous page", go(view.page - 1));
    const next = button("›", "next", "next page", go(view.page + 1));
    const end = button("»", "last", "last page", go(last));
    first.disabled = prev.disabled = view.page <= 0;
    next.disabled = end.disabled = view.page >= last;
    const where = document.createElement("span");
    where.className = "ipt-pt-label";
    where.textContent = view.label;
    where.setAttribute("aria-live", "polite");
    const page = document.createElement("span");
    page.className = "ipt-pt-page";
    page.textContent = `page ${(view.page + 1).toLocaleString("en")} of ${view.pages.toLocaleString("en")}`;
    const sizeLabel = document.createElement("label");
    sizeLabel.className = "ipt-pt-size";
    const select = document.createElement("select");
    select.dataset.key = "size";
    view.sizes.forEach((size) => {
      const option = document.createElement("option");
      option.value = String(size);
      option.textContent = String(size);
      option.selected = size === view.size;
      select.appendChild(option);
    });
    select.addEventListener("change", () => ask({ action: "size", size: Number(select.value) }));
    sizeLabel.append(select, document.createTextNode(" rows a page"));
    nav.append(first, prev, where, next, end, page, sizeLabel);
    return nav;
  }

  function draw() {
    const view = model.get("view");
    if (!view || !view.columns) return;
    const active = root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const scroll = root.querySelector(".ipt-pt-scroll");
    const keepScroll = scroll ? scroll.scrollLeft : 0;
    root.replaceChildren();
    root.classList.remove("ipt-pt-waiting");
    const box = document.createElement("div");
    box.className = "ipt-pt-scroll";
    const table = document.createElement("table");
    const thead = document.createElement("thead");
    thead.appendChild(header(view));
    table.append(thead, body(view));
    box.appendChild(table);
    root.append(box, navigation(view));
    box.scrollLeft = keepScroll;
    if (active) {
      const again = root.querySelector(`[data-key="${CSS.escape(active)}"]`);
      if (again) again.focus();
    }
  }

  model.on("change:view", draw);
  draw();
  return () => model.off("change:view", draw);
}

export default { render };
