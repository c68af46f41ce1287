// The caption view: the photo's preview, the caption Sumi draws on it, dragged or moved with the
// arrow keys, and Render (docs/service.md, "The web editor").
import { $, run, form, showError, errorSlot, clearErrors, setBlobURL, setLink, dropZone } from "./service.js";

const ANCHORS = { "top-left": [0, 0], top: [0.5, 0], "top-right": [1, 0], left: [0, 0.5], center: [0.5, 0.5],
  right: [1, 0.5], "bottom-left": [0, 1], bottom: [0.5, 1], "bottom-right": [1, 1] };

const caption = {
  file: null,          // the photo as chosen (sent again, whole, on Render)
  frame: null,         // the preview's size in CSS pixels {width, height}
  offset: { x: 0, y: 0 }, // from the anchor, in preview pixels (what `place` takes)
  size: { width: 0, height: 0 }, // the caption label's size in preview pixels
  anchor: "center",    // the anchor the offset counts from
  wrap: null,          // the wrap width the shown caption was drawn with (preview pixels), or null
  labelRequest: 0,
  labelTimer: 0,
};

/** The wrap width the Width control asks for (preview pixels), or null for automatic. */
function chosenWidth() {
  const value = $("width").value.trim();
  return value === "" ? null : Number(value);
}

/** Automatic wrapping: the widest text whose box (padding and border on both sides) fits the photo. */
function automaticWidth() {
  if (!caption.frame) return null;
  const inset = 2 * ((Number($("padding").value) || 0) + (Number($("border").value) || 0));
  return Math.max(20, Math.floor(caption.frame.width - inset));
}

/** The caption's parameters from the controls (those both caption pipelines take). */
function styleParameters() {
  const p = {
    text: $("text").value, font: $("font").value, size: $("size").value, color: $("color").value,
    align: $("align").value, padding: $("padding").value, border: $("border").value,
    "border-color": $("border-color").value, "corner-radius": $("corner-radius").value,
    stroke: $("stroke").value, "stroke-color": $("stroke-color").value, shadow: $("shadow").value,
    background: $("fill").checked ? $("background").value : "#00000000",
  };
  return p;
}

/** The caption's top-left in the preview, from the anchor and offset. */
function captionPosition() {
  const [ux, uy] = ANCHORS[caption.anchor] || ANCHORS.center;
  const f = caption.frame;
  return { left: ux * f.width + caption.offset.x - ux * caption.size.width,
           top: uy * f.height + caption.offset.y - uy * caption.size.height };
}

/** Sets the offset so the caption's top-left is at (left, top), kept at least partly on the photo. */
function moveCaptionTo(left, top) {
  const f = caption.frame, s = caption.size, keep = 8;
  left = Math.min(Math.max(left, keep - s.width), f.width - keep);
  top = Math.min(Math.max(top, keep - s.height), f.height - keep);
  const [ux, uy] = ANCHORS[caption.anchor] || ANCHORS.center;
  caption.offset = { x: left - ux * f.width + ux * s.width, y: top - uy * f.height + uy * s.height };
  placeCaption();
}

function round(value) { return Math.round(value * 1000) / 1000; }

function placeCaption() {
  const element = $("caption");
  if (!caption.frame) return;
  const { left, top } = captionPosition();
  element.style.left = `${left}px`;
  element.style.top = `${top}px`;
  $("offset-x").value = round(caption.offset.x);
  $("offset-y").value = round(caption.offset.y);
}

/** Fits the preview (contain) into the stage: its box is exactly the photo as shown. */
export function layoutPreview() {
  const image = $("preview-image");
  if (!image.naturalWidth || $("view-caption").hidden) return;
  const stage = $("stage");
  const available = stage.clientWidth;
  const maxHeight = Math.max(200, Math.min(window.innerHeight * 0.7, 720));
  const scale = Math.min(available / image.naturalWidth, maxHeight / image.naturalHeight);
  const width = Math.max(1, Math.floor(image.naturalWidth * scale));
  const height = width * image.naturalHeight / image.naturalWidth;
  const old = caption.frame;
  if (old && old.width !== width) {
    caption.offset = { x: caption.offset.x * width / old.width, y: caption.offset.y * width / old.width };
    // Automatic wrapping follows the photo's width on screen.
    if (chosenWidth() === null) requestLabel();
  }
  caption.frame = { width, height };
  const preview = $("preview");
  preview.style.width = `${width}px`;
  preview.style.height = `${height}px`;
  placeCaption();
}

/** Asks Sumi for the caption's drawing (debounced while typing). */
function requestLabel(delay) {
  clearTimeout(caption.labelTimer);
  caption.labelTimer = setTimeout(drawLabel, delay === undefined ? 250 : delay);
}

/** The caption drawn by Sumi (`caption-label`) as a decoded image, wrapped at `wrap` when given. */
async function fetchLabel(parameters, scale, wrap) {
  const fields = Object.assign({ scale }, parameters, wrap === null ? {} : { "label.width": wrap });
  const { blob } = await run("caption-label", form(fields));
  const url = URL.createObjectURL(blob);
  const image = new Image();
  image.src = url;
  await image.decode();
  return { url, image };
}

async function drawLabel() {
  const id = ++caption.labelRequest;
  const element = $("caption");
  element.classList.add("stale");
  const parameters = styleParameters();
  // Drawn for the screen's pixels (device pixel ratio), shown at its size in preview pixels.
  const scale = Math.min(4, Math.max(1, Math.round((window.devicePixelRatio || 1) * 100) / 100));
  try {
    // The Width control's value, or automatic: drawn unwrapped, and again wrapped at the photo's
    // width when that is wider than the photo (a wrap width widens the box to it, so short captions
    // are left as they are).
    let wrap = chosenWidth();
    let { url, image } = await fetchLabel(parameters, scale, wrap);
    const automatic = automaticWidth();
    if (wrap === null && automatic !== null && image.naturalWidth / scale > caption.frame.width && id === caption.labelRequest) {
      URL.revokeObjectURL(url);
      wrap = automatic;
      ({ url, image } = await fetchLabel(parameters, scale, wrap));
    }
    if (id !== caption.labelRequest) { URL.revokeObjectURL(url); return; }
    caption.wrap = wrap;
    // Keep the caption's anchor point where it was while the drawing changes size.
    caption.size = { width: image.naturalWidth / scale, height: image.naturalHeight / scale };
    const old = element.getAttribute("src");
    if (old && old.startsWith("blob:")) URL.revokeObjectURL(old);
    element.src = url;
    element.style.width = `${caption.size.width}px`;
    element.style.height = `${caption.size.height}px`;
    element.dataset.scale = String(scale);
    element.hidden = false;
    element.classList.remove("stale");
    delete element.dataset.error;
    clearErrors($("caption-form"));
    placeCaption();
    element.dataset.text = parameters.text;
    element.dataset.background = parameters.background;
    if (wrap === null) delete element.dataset.wrap; else element.dataset.wrap = String(wrap);
  } catch (error) {
    if (id !== caption.labelRequest) return;
    element.dataset.error = error.message;
    showError(errorSlot(error, "text-error"), error.message);
  }
}

async function choosePhoto(file) {
  if (!file) return;
  showError("photo-error", "");
  delete $("preview").dataset.photo;
  $("render").disabled = true;
  setLink($("download"), null);
  $("stage").setAttribute("aria-busy", "true");
  $("render-status").textContent = "Loading the photo…";
  try {
    const screen = Math.ceil(Math.max(window.screen.width, window.screen.height) * (window.devicePixelRatio || 1));
    const side = Math.min(2400, Math.max(1200, screen));
    const { blob } = await run("preview", file, { width: side, height: side });
    caption.file = file;
    const image = $("preview-image");
    setBlobURL(image, "src", blob);
    await image.decode();
    $("preview").hidden = false;
    $("stage-empty").hidden = true;
    caption.frame = null;
    caption.offset = { x: 0, y: 0 };
    layoutPreview();
    $("render").disabled = false;
    $("render-status").textContent = "";
    $("preview").dataset.photo = file.name;
    requestLabel(0);
  } catch (error) {
    $("render-status").textContent = "";
    showError("photo-error", error.message);
  } finally {
    $("stage").removeAttribute("aria-busy");
  }
}

async function render(event) {
  event.preventDefault();
  if (!caption.file || !caption.frame) { showError("render-error", "Choose a photo first."); return; }
  const button = $("render"), progress = $("render-progress"), link = $("download");
  clearErrors($("caption-form"));
  setLink(link, null);
  button.disabled = true;
  progress.hidden = false;
  $("render-status").textContent = "Rendering at full size…";
  const parameters = Object.assign(styleParameters(), caption.wrap === null ? {} : { "label.width": caption.wrap }, {
    frame: `${round(caption.frame.width)}x${round(caption.frame.height)}`,
    offset: `${round(caption.offset.x)},${round(caption.offset.y)}`,
    anchor: caption.anchor,
  });
  try {
    const { blob, report } = await run("caption", form(parameters, [["input", caption.file]]));
    const stem = (caption.file.name || "photo").replace(/\.[^.]*$/, "");
    setLink(link, blob, `${stem}-caption.jpg`);
    const out = report && report.outputs && report.outputs[0];
    link.dataset.frame = parameters.frame;
    link.dataset.offset = parameters.offset;
    $("render-status").textContent = out ? `Ready: ${out.width} × ${out.height} pixels.` : "Ready.";
    link.focus();
  } catch (error) {
    $("render-status").textContent = "";
    showError(errorSlot(error, "render-error"), error.message);
  } finally {
    button.disabled = false;
    progress.hidden = true;
  }
}

export function setupCaption() {
  caption.anchor = $("anchor").value;
  $("photo").addEventListener("change", (event) => choosePhoto(event.target.files[0]));
  dropZone($("photo-drop"), (files) => choosePhoto(files[0]));
  $("caption-form").addEventListener("submit", render);
  for (const id of ["text", "font", "size", "color", "align", "width", "fill", "background", "padding", "border", "border-color",
    "corner-radius", "stroke", "stroke-color", "shadow"]) {
    $(id).addEventListener("input", () => { setLink($("download"), null); requestLabel(); });
  }
  $("anchor").addEventListener("change", () => {
    // The caption stays where it is; its offset is now counted from the new anchor.
    if (!caption.frame) { caption.anchor = $("anchor").value; return; }
    const { left, top } = captionPosition();
    caption.anchor = $("anchor").value;
    moveCaptionTo(left, top);
  });
  for (const axis of ["x", "y"]) {
    $(`offset-${axis}`).addEventListener("change", (event) => {
      const value = Number(event.target.value);
      if (!Number.isFinite(value)) { showError("offset-error", "Give a number of preview pixels."); return; }
      showError("offset-error", "");
      caption.offset[axis] = value;
      placeCaption();
    });
  }

  const element = $("caption");
  let drag = null;
  element.addEventListener("pointerdown", (event) => {
    if (!caption.frame) return;
    const { left, top } = captionPosition();
    drag = { id: event.pointerId, x: event.clientX, y: event.clientY, left, top };
    element.setPointerCapture(event.pointerId);
    element.classList.add("dragging");
    element.focus({ preventScroll: true });
    event.preventDefault();
  });
  element.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    moveCaptionTo(drag.left + event.clientX - drag.x, drag.top + event.clientY - drag.y);
  });
  const end = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    drag = null;
    element.classList.remove("dragging");
  };
  element.addEventListener("pointerup", end);
  element.addEventListener("pointercancel", end);
  element.addEventListener("keydown", (event) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const step = steps[event.key];
    if (!step || !caption.frame) return;
    const by = event.shiftKey ? 10 : 1;
    const { left, top } = captionPosition();
    moveCaptionTo(left + step[0] * by, top + step[1] * by);
    event.preventDefault();
  });
  new ResizeObserver(() => layoutPreview()).observe($("stage"));
  requestLabel(0);
}
