/* A table wider than the page says so: a line above it names how many of its
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
  function mark() {
    document.querySelectorAll(".table-scroll").forEach(function (box) {
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
      var n = columnsShown(box);
      hint.textContent = "\u2194 " + n[0] + " of " + n[1] + " columns show: scroll the table sideways for the rest" +
        " (its first column stays in place).";
    });
  }
  var timer = null;
  window.addEventListener("resize", function () { clearTimeout(timer); timer = setTimeout(mark, 150); });
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", mark); } else { mark(); }
  window.addEventListener("load", mark);
})();
