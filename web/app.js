// Sumi's caption editor and page builder: a client of `sumi serve` (docs/service.md), no framework.
// What the preview shows is Sumi's own drawing: the caption is the `caption-label` pipeline's PNG,
// drawn at one pixel per preview pixel, and Render sends the preview's size as `frame` and the
// caption's place as `anchor` + `offset` to the `caption` pipeline, which maps them to the photo.
import { $ } from "./service.js";
import { layoutPreview, setupCaption } from "./caption.js";
import { setupPage } from "./page.js";

const tabs = [$("tab-caption"), $("tab-page")];
function showView(tab) {
  for (const t of tabs) {
    const selected = t === tab;
    t.setAttribute("aria-selected", String(selected));
    t.tabIndex = selected ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !selected;
  }
  if (tab === tabs[0]) layoutPreview();
}
for (const tab of tabs) {
  tab.addEventListener("click", () => showView(tab));
  tab.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const other = tabs[(tabs.indexOf(tab) + 1) % tabs.length];
    showView(other);
    other.focus();
    event.preventDefault();
  });
}

setupCaption();
setupPage();
