// The phone menu (a <details> in the header) closes with Escape, when focus moves out of it
// and on a click outside it, so that its open panel never hides the link that has focus.
// The menu works without this script: it only opens and closes by its button then.
(() => {
  "use strict";
  for (const menu of document.querySelectorAll("details.nav-menu")) {
    const button = menu.querySelector("summary");
    menu.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !menu.open) return;
      menu.open = false;
      button.focus();
    });
    menu.addEventListener("focusout", (event) => {
      if (menu.open && event.relatedTarget && !menu.contains(event.relatedTarget)) menu.open = false;
    });
    document.addEventListener("click", (event) => {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    });
  }
})();
