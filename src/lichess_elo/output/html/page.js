/* lichess-elo page: sortable tables, game tables filled from the embedded data, the
   rating chart's hover/tap tooltip, keyboard steps and zoom. No network, no libraries. */
(function () {
  "use strict";
  var data = {};
  function get(id) {
    if (!(id in data)) data[id] = JSON.parse(document.getElementById(id).textContent);
    return data[id];
  }
  /* A count with thousands separators, as the text says it: 20,000. */
  function count(n) { return Number(n).toLocaleString("en-US"); }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }
  /* Sorting: numbers by value (the end of "a→b (c)"), other text in order; empty last. */
  function key(text) {
    var t = text.replace(/\u2212/g, "-").replace(/\u00bd/g, ".5").trim();
    if (!t || t === "-") return [2, 0];
    var arrow = t.indexOf("\u2192");
    var m = (arrow >= 0 ? t.slice(arrow + 1) : t).match(/^\s*([-+]?\d*\.?\d+)(?:[?%\u2020 ]|$)/);
    if (m) return [0, parseFloat(m[1])];
    return [1, t.toLowerCase()];
  }
  function cmp(a, b) {
    if (a[0] !== b[0]) return a[0] - b[0];
    return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
  }
  function sortBy(table, col) {
    var th = table.tHead.rows[0].cells[col];
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
      c.removeAttribute("aria-sort");
    });
    if (table.sortColumn) {
      if (table.sortColumn(col) !== dir) table.sortColumn(col);
      th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
      return;
    }
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.map.call(body.rows, function (r, i) {
      return { r: r, i: i, k: key(r.cells[col] ? r.cells[col].textContent : "") };
    });
    rows.sort(function (a, b) {
      var c = cmp(a.k, b.k);
      if (a.k[0] === 2 || b.k[0] === 2) return c || a.i - b.i;
      return dir * c || a.i - b.i;
    });
    var frag = document.createDocumentFragment();
    rows.forEach(function (x) { frag.appendChild(x.r); });
    body.appendChild(frag);
  }
  function sortable(table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.title = "Sort by " + th.textContent;
      th.addEventListener("click", function () { sortBy(table, col); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(table, col); }
      });
    });
  }
  /* A game table: its rows come from the embedded data, PAGE at a time, made when first
     opened; sorting sorts the data, so a long history never has thousands of rows. */
  var PAGE = 500;
  function gamesTable(table) {
    var d = get(table.dataset.data), align = d.align, link = d.link;
    var pageUrl = d.site ? d.site.url : "https://lichess.org/";
    var order = d.rows.map(function (_, i) { return i; }), page = 0, col = -1, dir = 1;
    var pager = document.createElement("div");
    pager.className = "controls pager";
    table.parentNode.parentNode.insertBefore(pager, table.parentNode.nextSibling);
    function render() {
      var pages = Math.max(1, Math.ceil(order.length / PAGE));
      page = Math.min(Math.max(0, page), pages - 1);
      var html = [], first = page * PAGE, last = Math.min(order.length, first + PAGE);
      for (var k = first; k < last; k++) {
        var row = d.rows[order[k]], cells = [];
        for (var j = 0; j < row.length; j++) {
          var c = row[j];
          var v = j === link ? '<a href="' + esc(pageUrl) + esc(c) + '">' + esc(c) + "</a>" : esc(c);
          cells.push(align[j] === "right" ? '<td class="r">' + v + "</td>" : "<td>" + v + "</td>");
        }
        html.push("<tr>" + cells.join("") + "</tr>");
      }
      table.tBodies[0].innerHTML = html.join("");
      pager.style.display = pages > 1 ? "" : "none";
      pager.innerHTML = '<span class="range">Games ' + count(first + 1) + "\u2013" + count(last) + " of " +
        count(order.length) + "</span> " +
        '<button type="button" data-page="first">First</button>' +
        '<button type="button" data-page="prev">Previous</button>' +
        '<button type="button" data-page="next">Next</button>' +
        '<button type="button" data-page="last">Last</button>';
    }
    pager.addEventListener("click", function (e) {
      var p = e.target.dataset && e.target.dataset.page;
      if (!p) return;
      page = { first: 0, prev: page - 1, next: page + 1, last: 1e9 }[p];
      render();
    });
    table.sortColumn = function (c) {
      dir = c === col ? -dir : 1;
      col = c;
      var keys = d.rows.map(function (r) { return key(r[c]); });
      order.sort(function (a, b) {
        var x = cmp(keys[a], keys[b]);
        if (keys[a][0] === 2 || keys[b][0] === 2) return x || a - b;
        return dir * x || a - b;
      });
      page = 0;
      render();
      return dir;
    };
    render();
  }
  function fillGames(table) {
    if (table.dataset.filled) return;
    table.dataset.filled = "1";
    gamesTable(table);
  }
  /* The chart: game i is drawn over [i, i+1] of n; the tooltip shows row i. */
  function chart(box) {
    var d = get(box.dataset.data), n = d.before.length, cols = d.cols;
    var plot = box.querySelector(".plot"), scroller = box.querySelector(".scroll");
    var tip = box.querySelector(".tip"), cursor = box.querySelector(".cursor");
    var dotL = box.querySelector(".dot.l"), dotF = box.querySelector(".dot.f");
    var svg = plot.querySelector("svg"), labels = plot.querySelectorAll(".xaxis span");
    var zoom = 1, pinned = false, current = -1;
    function y(v) { return (d.hi - v) / (d.hi - d.lo) * 100; }
    function cell(row, name) { return row[cols.indexOf(name)]; }
    var site = d.site || { name: "Lichess", col: "Lichess", change: "Lichess \u00b1", url: "https://lichess.org/" };
    function show(i, clientX, clientY) {
      current = i;
      var row = d.rows[i], x = (i + 0.5) / n * 100, h = svg.getBoundingClientRect().height;
      cursor.setAttribute("x1", x * 10); cursor.setAttribute("x2", x * 10);
      cursor.style.visibility = "visible";
      dotL.style.left = ((i + 1) / n * 100) + "%"; dotL.style.top = (y(d.after[i]) * h / 100) + "px";
      dotF.style.left = x + "%"; dotF.style.top = (y(d.fide[i]) * h / 100) + "px";
      dotL.style.visibility = dotF.style.visibility = "visible";
      var score = cell(row, "Result");
      var res = { "1": "won", "0": "lost", "\u00bd": "drew" }[score] || score;
      var title = cell(row, "Opponent"), id = cell(row, "Game");
      var siteBefore = cell(row, site.col) || "", siteChange = cell(row, site.change) || "";
      /* Every number says what it is: no bare 0 (a loss's score, an unchanged rating) and
         no bare E (FIDE's expected score). */
      tip.innerHTML =
        "<div><b>" + esc(cell(row, "Date (UTC)")) + " " + esc(cell(row, "Time")) + "</b> \u00b7 " +
        esc(d.periodName) + " " + esc(d.period[i]) + "</div>" +
        "<div>" + esc(cell(row, "Colour")) + " against " + esc(title) + " (rated " + esc(cell(row, "Opp rating")) + ")</div>" +
        '<div>Result: <b class="t-result">' + esc(res) + "</b> (score " + esc(score) + ", " + esc(cell(row, "Status")) + ")</div>" +
        '<div style="color:var(--lichess)">' + esc(site.name) + ': <span class="t-lichess">' + esc(siteBefore) +
        "</span> before, change " + (siteChange ? '<b class="t-lichess-change">' + esc(siteChange) + "</b>" :
        '<b class="t-lichess-change"></b>not shown') + "</div>" +
        '<div style="color:var(--fide)">FIDE rules: <span class="t-fide">' + esc(cell(row, "FIDE")) +
        '</span> before, change <b class="t-fide-change">' + esc(cell(row, "FIDE \u00b1")) + "</b></div>" +
        '<div class="muted">expected score <span class="t-expected">' + esc(cell(row, "E")) +
        '</span>, K <span class="t-k">' + esc(cell(row, "K")) + "</span>: change = K \u00d7 (score \u2212 expected)</div>" +
        (d.gap[i] ? '<div class="muted">' + esc(d.gap[i]) + "</div>" : "") +
        '<div><a class="t-link" href="' + esc(site.url) + esc(id) + '">Open game ' + esc(id) + " on " + esc(site.name) + "</a>" +
        (pinned ? "" : ' <span class="muted">(tap or click to keep)</span>') + "</div>";
      var br = box.getBoundingClientRect(), tw = tip.offsetWidth, th = tip.offsetHeight;
      var px = clientX - br.left + 14, py = clientY - br.top + 14;
      if (px + tw > br.width) px = Math.max(0, clientX - br.left - tw - 14);
      if (py + th > br.height) py = Math.max(0, clientY - br.top - th - 14);
      tip.style.left = px + "px"; tip.style.top = py + "px";
      tip.style.visibility = "visible";
    }
    function hide() {
      if (pinned) return;
      tip.style.visibility = cursor.style.visibility = "hidden";
      dotL.style.visibility = dotF.style.visibility = "hidden";
    }
    function at(e) {
      var r = plot.getBoundingClientRect();
      return Math.min(n - 1, Math.max(0, Math.floor((e.clientX - r.left) / r.width * n)));
    }
    plot.addEventListener("mousemove", function (e) { if (!pinned) show(at(e), e.clientX, e.clientY); });
    plot.addEventListener("mouseleave", hide);
    plot.addEventListener("click", function (e) {
      pinned = true; show(at(e), e.clientX, e.clientY); e.stopPropagation();
    });
    tip.addEventListener("click", function (e) { e.stopPropagation(); });
    document.addEventListener("click", function () { if (pinned) { pinned = false; hide(); } });
    plot.addEventListener("keydown", function (e) {
      var step = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 }[e.key];
      if (!step) { if (e.key === "Escape") { pinned = false; hide(); } return; }
      e.preventDefault();
      var i = Math.min(n - 1, Math.max(0, (current < 0 ? 0 : current + step)));
      var r = plot.getBoundingClientRect(), h = svg.getBoundingClientRect().height;
      pinned = true;
      show(i, r.left + (i + 0.5) / n * r.width, r.top + y(d.fide[i]) * h / 100);
    });
    function relabel() {
      var step = Math.max(1, Math.ceil(d.labelCount / (d.labelsWanted * zoom)));
      Array.prototype.forEach.call(labels, function (s) {
        s.style.display = (+s.dataset.k % step === 0) ? "" : "none";
      });
    }
    function setZoom(z) {
      var centre = (scroller.scrollLeft + scroller.clientWidth / 2) / plot.offsetWidth;
      zoom = Math.max(1, Math.min(d.maxZoom, z));
      plot.style.width = (zoom * 100) + "%";
      scroller.scrollLeft = centre * plot.offsetWidth - scroller.clientWidth / 2;
      relabel();
    }
    var controls = box.nextElementSibling;
    if (controls && controls.classList.contains("controls")) {
      controls.addEventListener("click", function (e) {
        var z = e.target.dataset && e.target.dataset.zoom;
        if (z === "in") setZoom(zoom * 2);
        else if (z === "out") setZoom(zoom / 2);
        else if (z === "fit") setZoom(1);
      });
    }
    relabel();
  }
  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("table.games"), function (t) {
      var det = t.closest("details");
      if (!det || det.open) fillGames(t);
      else det.addEventListener("toggle", function () { fillGames(t); });
    });
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), sortable);
    Array.prototype.forEach.call(document.querySelectorAll(".chart"), chart);
    window.addEventListener("beforeprint", function () {
      Array.prototype.forEach.call(document.querySelectorAll(".chart .plot"), function (p) {
        p.style.width = "100%";
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
