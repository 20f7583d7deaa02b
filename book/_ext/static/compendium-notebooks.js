/* The download menu's notebooks are downloads, not pages to open: a browser
   shows an .ipynb link as text (JSON) unless the link says "download".  The
   notebook to run is named <name>-quick.ipynb (compendium.py). */
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll("a.btn-download-student-button, a.btn-download-executed-button").forEach(function (a) {
      a.setAttribute("download", "");
      a.removeAttribute("target");
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mark);
  } else {
    mark();
  }
})();
