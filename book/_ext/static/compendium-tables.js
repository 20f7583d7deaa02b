/* A table wider than the page (ours, .table-scroll, or a csv-table in the theme's
   .pst-scrollable-table-container) says so: a line above it names how many of its
   columns show and that the others scroll sideways (its first column stays in
   place, compendium-tables.css).  Rewritten when the window is resized. */
(function () {
  "use strict";
  function columnsShown(box) {
    var row = box.querySelector("tr");
    if (!row) { return [0, 0]; }
    var right = box.getBoundingClientRect().right + 1, shown = 0;
    for (var i = 0; i < row.cells.length; i++) {
      if (row.cells[i].getBoundingClientRect().right <= right) { shown++; }
    }
    return [shown, row.cells.length];
  }
  // The leading label columns (a compendium table's cells without "num", e.g. torus and curve) stay in
  // place too, as long as together they take less than 45% of the visible width.
  function pinLabels(box) {
    var table = box.querySelector("table.compendium-table");
    if (!table || !table.rows.length) { return; }
    var head = table.rows[0].cells, widths = [], total = 0;
    for (var i = 0; i < head.length && i < 3 && !head[i].classList.contains("num"); i++) {
      widths.push(head[i].getBoundingClientRect().width);
      total += widths[i];
    }
    while (widths.length > 1 && total > 0.45 * box.clientWidth) { total -= widths.pop(); }
    for (var r = 0; r < table.rows.length; r++) {
      var left = 0;
      for (var c = 0; c < widths.length && c < table.rows[r].cells.length; c++) {
        var cell = table.rows[r].cells[c];
        cell.classList.add("pin");
        cell.style.left = left + "px";
        left += widths[c];
      }
    }
  }
  function mark() {
    document.querySelectorAll(".table-scroll, .pst-scrollable-table-container").forEach(function (box) {
      var hint = box.previousElementSibling;
      if (!hint || !hint.classList.contains("table-scroll-hint")) { hint = null; }
      var wide = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("is-wide", wide);
      if (!wide) { if (hint) { hint.remove(); } return; }
      if (!hint) {
        hint = document.createElement("p");
        hint.className = "table-scroll-hint";
        box.parentNode.insertBefore(hint, box);
      }
      pinLabels(box);
      var n = columnsShown(box);
      hint.textContent = "\u2194 " + n[0] + " of " + n[1] + " columns show: scroll the table sideways for the rest" +
        " (the row labels stay in place).";
    });
  }
  var timer = null;
  window.addEventListener("resize", function () { clearTimeout(timer); timer = setTimeout(mark, 150); });
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", mark); } else { mark(); }
  window.addEventListener("load", mark);
})();
