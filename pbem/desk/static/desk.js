// The desk's page. It knows no rule: every pick offered, every note and every problem comes from
// the server, which asks the game's own code (pbem/desk/session.py). This file only builds the
// orders from the clicks, in the key order the game's clicking rules give.
"use strict";

const S = {
  desk: null,       // what api/desk said
  orders: [],       // this phase's orders
  next: null,       // the next phase's orders (null: none sent along)
  standing: {},     // standing answers changed by these orders
  draft: null,      // {spec, target, values}
  active: null,     // the field map clicks go to
  picks: {},        // field -> candidates (null: any hex)
  notes: [],
  problems: [],
  focus: null,      // where the keyboard goes after the next drawing: "field" (the active field's picks) or an id
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

let pending = 0;  // requests under way (the page's tests wait for none: body[data-busy="0"])

async function call(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  document.body.dataset.busy = String(++pending);
  try {
    const response = await fetch(path, options);
    const answer = await response.json();
    if (!response.ok || answer.error) throw new Error(answer.error || response.statusText);
    return answer;
  } finally {
    document.body.dataset.busy = String(--pending);
  }
}

function say(text) { $("status").textContent = text; }

// --- orders as text (for reading only: the file is written by the server) ---------------------
function flow(value) {
  if (Array.isArray(value)) return "[" + value.map(flow).join(", ") + "]";
  if (value !== null && typeof value === "object")
    return "{" + Object.entries(value).map(([k, v]) => k + ": " + flow(v)).join(", ") + "}";
  if (typeof value === "string" && /^[0-9]+$/.test(value)) return '"' + value + '"';
  return String(value);
}

// --- the draft: the order being built ----------------------------------------------------------
const MANY = new Set(["units", "path", "list", "points"]);
const POINT = new Set(["point", "points"]);  // positions on a table: [x, y] in whole table units

// A field named "a.b" is key b of the mapping under key a (wtj1916's air_strike: {at, facing}).
function put(order, name, value) {
  const [head, ...rest] = name.split(".");
  if (!rest.length) order[head] = value;
  else put(order[head] = order[head] || {}, rest.join("."), value);
}

function orderOf(draft) {
  const order = {};
  for (const field of draft.spec.fields) {
    const value = draft.values[field.name];
    if (field.type === "const") put(order, field.name, field.value);
    else if (field.type === "flag") { if (value) put(order, field.name, true); else if (field.keep_false) put(order, field.name, false); }
    else if (MANY.has(field.type)) {
      if (value && value.length) put(order, field.name, value.slice());
      else if (field.keep_empty) put(order, field.name, []);
    } else if (value !== undefined && value !== null) put(order, field.name, value);
  }
  return order;
}

function complete(draft) {
  return draft.spec.fields.every((f) => f.optional || f.type === "const" || f.type === "flag" ||
    (MANY.has(f.type) ? (draft.values[f.name] || []).length > 0 : draft.values[f.name] !== undefined));
}

function firstOpen(draft) {
  const open = draft.spec.fields.find((f) => !f.optional &&
    ["unit", "hex", "enum", "units", "path", "list", "point", "points"].includes(f.type) &&
    (MANY.has(f.type) ? !(draft.values[f.name] || []).length : draft.values[f.name] === undefined));
  return open ? open.name : null;
}

function startDraft(spec, target) {
  S.draft = {spec, target, values: {}};
  S.active = firstOpen(S.draft);
  S.focus = "field";
  refreshDraft();
}

function kindId(kind, target) { return `kind-${target === "next" ? "next-" : ""}${kind}`; }

function cancelDraft() {
  if (S.draft) S.focus = kindId(S.draft.spec.kind, S.draft.target);
  S.draft = null; S.active = null; S.picks = {}; S.notes = [];
  render();
}

async function refreshDraft() {
  if (!S.draft) return render();
  const draft = S.draft;
  if (draft.spec.auto && complete(draft)) return addOrder();
  try {
    const answer = await call("api/draft", {kind: draft.spec.kind, order: orderOf(draft), target: draft.target,
                                            orders: S.orders, next: S.next});
    if (S.draft !== draft) return;
    S.picks = answer.candidates; S.notes = answer.notes;
  } catch (error) { say(error.message); }
  render();
}

function pick(field, value) {
  const draft = S.draft;
  const values = draft.values;
  if (field.type === "list" && field.repeat) {  // a word may come again (bst's rounds: he, he, smoke)
    values[field.name] = (values[field.name] || []).concat([value]);
  } else if (field.type === "units" || field.type === "list") {
    const chosen = values[field.name] || [];
    values[field.name] = chosen.includes(value) ? chosen.filter((v) => v !== value) : chosen.concat([value]);
  } else if (field.type === "path" || field.type === "points") {
    values[field.name] = (values[field.name] || []).concat([value]);
  } else if (field.type === "flag") {
    values[field.name] = !values[field.name];
  } else {
    values[field.name] = values[field.name] === value ? undefined : value;
  }
  if (!MANY.has(field.type)) {
    // after a pick, map clicks go to the next field still open, else to the field the game names for them
    const many = draft.spec.fields.find((f) => f.clicks) || draft.spec.fields.find((f) => MANY.has(f.type));
    S.active = firstOpen(draft) || (many ? many.name : field.name);
    if (S.active !== field.name) S.focus = "field";
  }
  refreshDraft();
}

function typedPoint(field) {
  const words = ($("input-" + field.name).value.match(/-?[0-9]+/g) || []).map(Number);
  if (words.length !== 2) { say("type a point as two whole numbers: x y"); return; }
  pick(field, words);
}

function clearField(field) {
  S.draft.values[field.name] = undefined;
  refreshDraft();
}

function back(field) {
  const path = S.draft.values[field.name] || [];
  S.draft.values[field.name] = path.slice(0, -1);
  refreshDraft();
}

function addOrder() {
  const draft = S.draft;
  const order = orderOf(draft);
  if (draft.target === "next") S.next.push(order); else S.orders.push(order);
  const again = draft.spec.auto ? draft.spec : null;
  S.focus = kindId(draft.spec.kind, draft.target);
  S.draft = null; S.active = null; S.picks = {}; S.notes = [];
  say("added " + flow(order));
  if (again) startDraft(again, draft.target); else render();
  check();
}

function removeOrder(target, index) {
  if (target === "next") S.next.splice(index, 1); else S.orders.splice(index, 1);
  const left = target === "next" ? S.next.length : S.orders.length;
  S.focus = left ? `remove-${target}-${Math.min(index, left - 1)}` : "save";
  check();
}

// --- the check: pbem check's own, run by the server after every change --------------------------
async function check() {
  try {
    const answer = await call("api/check", {orders: S.orders, next: S.next, standing: S.standing});
    S.problems = answer.problems;
    say(answer.ok ? "no problem found: ready to save" : answer.problems.length + " problem(s)");
  } catch (error) { say(error.message); }
  render();
}

// --- drawing -------------------------------------------------------------------------------------
function fieldBox(field) {
  const draft = S.draft;
  const value = draft.values[field.name];
  const box = el("fieldset", {class: S.active === field.name ? "active" : "", id: "field-" + field.name});
  box.append(el("legend", {}, el("button", {type: "button", id: "focus-" + field.name, title: "map clicks go here",
    onclick: () => { S.active = field.name; render(); }}, field.label)));
  if (field.type === "flag") {
    box.append(el("button", {type: "button", id: "pick-" + field.name, "aria-pressed": String(!!value),
                             onclick: () => pick(field, true)}, value ? "yes" : "no"));
    return box;
  }
  if (field.type === "const") return box;
  box.append(el("div", {class: "value", id: "value-" + field.name},
                value === undefined || (Array.isArray(value) && !value.length) ? "(none)" : flow(value)));
  const choices = field.type === "enum" ? field.values : S.picks[field.name];
  const picks = el("div", {class: "picks"});
  if (POINT.has(field.type)) {
    picks.append(el("span", {}, "click a point on the table, or type x y: "),
                 el("input", {id: "input-" + field.name, size: "9", "aria-label": field.label + ": x y"}),
                 el("button", {type: "button", id: "set-" + field.name, onclick: () => typedPoint(field)},
                    field.type === "points" ? "add point" : "set"));
    if (field.optional && value !== undefined && !(Array.isArray(value) && !value.length))
      picks.append(el("button", {type: "button", id: "clear-" + field.name, onclick: () => clearField(field)}, "clear"));
  } else if (choices === null || choices === undefined) {
    picks.append(el("span", {}, "click a hex on the map"));
  } else {
    for (const choice of choices) {
      const chosen = Array.isArray(value) ? value.includes(choice) && field.type !== "path" && !field.repeat : value === choice;
      picks.append(el("button", {type: "button", id: "pick-" + field.name + "-" + choice, "aria-pressed": String(chosen),
                                 onclick: () => pick(field, choice)}, choice));
    }
    if (!choices.length) picks.append(el("span", {}, "nothing to pick now"));
  }
  if ((field.type === "path" || field.type === "points" || field.repeat) && (value || []).length)
    picks.append(el("button", {type: "button", id: "back-" + field.name, onclick: () => back(field)},
                    field.type === "path" ? "back one hex" : field.repeat ? "back one" : "back one point"));
  box.append(picks);
  return box;
}

function orderItem(order, index, target) {
  const mine = S.problems.filter((p) => target === "next"
    ? p.order === S.orders.length && p.nested === index
    : p.order === index && p.nested === null);
  const item = el("li", {class: "order-item"}, el("span", {class: "order"}, flow(order)), " ",
                  el("button", {type: "button", id: `remove-${target}-${index}`, "aria-label": "remove order " + (index + 1),
                                onclick: () => removeOrder(target, index)}, "remove"));
  for (const p of mine) item.append(el("div", {class: "problem"}, p.text));
  return item;
}

function kindButtons(kinds, target, box) {
  box.replaceChildren();
  for (const spec of kinds) {
    const pressed = S.draft && S.draft.spec.kind === spec.kind && S.draft.target === target;
    box.append(el("button", {type: "button", id: kindId(spec.kind, target),
                             "aria-pressed": String(!!pressed), title: "rule " + spec.section,
                             onclick: () => startDraft(spec, target)}, spec.label));
  }
}

// Drawing replaces the buttons, which would drop the keyboard's place on the page: after each drawing
// the focus goes where the last action asked (S.focus), else back to the button of the same id.
function render() {
  const was = document.activeElement && document.activeElement !== document.body ? document.activeElement.id : "";
  draw();
  const wanted = S.focus === "field" ? activePick() : S.focus ? $(S.focus) : was ? $(was) : null;
  S.focus = null;
  const target = wanted && !wanted.closest("[hidden]") ? wanted : (was && S.draft ? activePick() : null);
  if (target && target !== document.activeElement) target.focus();
}

function activePick() {
  if (!S.draft) return null;
  return document.querySelector(`#field-${CSS.escape(S.active || "")} .picks button`) ||
    document.querySelector("#fields .picks button") || ($("add").disabled ? $("cancel") : $("add"));
}

function draw() {
  const desk = S.desk;
  if (!desk || desk.mode !== "orders") return;
  kindButtons(desk.kinds, "main", $("kinds"));
  const draftBox = $("draft");
  draftBox.hidden = !S.draft;
  if (S.draft) {
    $("draft-title").textContent = S.draft.spec.label + " (rule " + S.draft.spec.section + ")" +
      (S.draft.target === "next" ? ", next phase" : "");
    $("fields").replaceChildren(...S.draft.spec.fields.map(fieldBox));
    $("notes").replaceChildren(...S.notes.map((n) => el("li", {}, n)));
    $("add").disabled = !complete(S.draft);
  }
  $("orders").replaceChildren(...S.orders.map((o, i) => orderItem(o, i, "main")));
  if (desk.next_phase) {
    $("next-pane").hidden = false;
    $("next-title").textContent = "Orders of the next phase (" + desk.next_phase.phase + ", rule " +
      desk.next_phase.section + "), sent along";
    $("next-toggle").textContent = S.next === null ? "Give them now" : "Send none";
    $("next-toggle").setAttribute("aria-pressed", String(S.next !== null));
    if (S.next === null) $("next-kinds").replaceChildren(); else kindButtons(desk.next_phase.kinds, "next", $("next-kinds"));
    $("next-orders").replaceChildren(...(S.next || []).map((o, i) => orderItem(o, i, "next")));
  }
  renderStanding(desk.standing);
  const placed = (p) => (p.order !== null && p.order < S.orders.length && p.nested === null) ||
    (S.next !== null && p.order === S.orders.length && p.nested !== null);
  $("general-problems").replaceChildren(...S.problems.filter((p) => !placed(p)).map((p) => el("li", {class: "problem"}, p.text)));
  markMap();
}

// A row is a topic answered by one word (toc's advance), or one key of a per-unit answer ("opfire.us1");
// the server nests the rows into the file's `standing:` block. A click on the word set takes it back.
function renderStanding(choices) {
  $("standing").replaceChildren(...choices.map((choice) => {
    const name = choice.name, set = S.standing[name];
    const box = el("fieldset", {id: "standing-" + name},
                   el("legend", {}, name + (choice.current !== null && choice.current !== undefined
                     ? " (now " + flow(choice.current) + ")" : "") + (set !== undefined ? ": " + flow(set) : "")));
    if (choice.key === null || choice.key === undefined || choice === choices.find((c) => c.topic === choice.topic))
      box.append(el("div", {}, choice.description));
    const answer = (value) => {
      if (JSON.stringify(S.standing[name]) === JSON.stringify(value)) delete S.standing[name]; else S.standing[name] = value;
      check();
    };
    for (const value of choice.values) {
      box.append(el("button", {type: "button", id: `standing-${name}-${value}`,
                               "aria-pressed": String(set === value), onclick: () => answer(value)}, value));
    }
    if (choice.number) {
      const n = choice.number, input = "standing-" + name + "-" + n.key;
      box.append(el("input", {id: input, type: "number", min: String(n.minimum ?? ""), max: String(n.maximum ?? ""),
                              size: "6", "aria-label": name + ": " + n.key}),
                 el("button", {type: "button", id: `standing-${name}-set`, onclick: () => {
                   const typed = $(input).value.trim();
                   if (!/^[0-9]+$/.test(typed)) { say("type " + n.key + " as a whole number"); return; }
                   S.standing[name] = {[n.key]: Number(typed)};
                   check();
                 }}, "set " + n.key));
    }
    return box;
  }));
}

// --- the map: clicks pick units and hexes; candidates and the path are marked ------------------
function markMap() {
  const svg = $("map").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".cand, .on-path").forEach((n) => n.classList.remove("cand", "on-path"));
  svg.querySelectorAll("#desk-path, .desk-planned").forEach((n) => n.remove());
  for (const order of S.orders.concat(S.next || [])) {  // the moves already ordered, drawn thin
    if (Array.isArray(order.path)) drawPath(svg, order.move, order.path, "desk-planned", null);
  }
  svg.querySelectorAll(".chosen").forEach((n) => n.classList.remove("chosen"));
  if (!S.draft) return;
  for (const f of S.draft.spec.fields) {  // the hexes and units already picked
    const value = S.draft.values[f.name];
    for (const item of (Array.isArray(value) ? value : value === undefined ? [] : [value])) {
      if (f.type === "hex") { const c = svg.querySelector(`.hex[data-hex="${CSS.escape(item)}"]`); if (c) c.classList.add("chosen"); }
      if (f.type === "unit" || f.type === "units") {
        const u = svg.querySelector(`[id="unit-${CSS.escape(item)}"], [id="base-${CSS.escape(item)}"]`);
        if (u) u.classList.add("chosen");
      }
    }
  }
  if (!S.active) return;
  const field = S.draft.spec.fields.find((f) => f.name === S.active);
  const choices = (field && S.picks[field.name]) || [];
  for (const choice of choices) {
    if (typeof choice !== "string") continue;
    const unit = svg.querySelector(`[id="unit-${CSS.escape(choice)}"], [id="base-${CSS.escape(choice)}"]`);
    if (unit) unit.classList.add("cand");
    svg.querySelectorAll(`[id^="base-"][data-unit="${CSS.escape(choice)}"]`).forEach((b) => b.classList.add("cand"));
    const cell = svg.querySelector(`.hex[data-hex="${CSS.escape(choice)}"]`);
    if (cell) cell.classList.add("cand");
  }
  const path = S.draft.values.path;
  if (field && field.type === "path" && path && path.length && typeof path[0] === "string") {
    path.forEach((h) => { const c = svg.querySelector(`.hex[data-hex="${CSS.escape(h)}"]`); if (c) c.classList.add("on-path"); });
    drawPath(svg, S.draft.values.move, path, null, "desk-path");
  }
}

function drawPath(svg, mover, path, className, id) {
  const start = pathStart(svg, mover);
  const points = (start ? [start] : []).concat(path.map((h) => centre(svg, h)).filter(Boolean));
  if (points.length < 2) return;
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  if (id) line.setAttribute("id", id);
  if (className) line.setAttribute("class", className);
  line.setAttribute("points", points.map((p) => p.join(",")).join(" "));
  svg.append(line);
}

function centre(svg, hex) {
  const cell = svg.querySelector(`.hex[data-hex="${CSS.escape(hex)}"]`);
  if (!cell) return null;
  const box = cell.getBBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

function pathStart(svg, mover) {
  const uid = Array.isArray(mover) ? mover[0] : mover;
  const counter = uid && svg.querySelector(`[id="unit-${CSS.escape(uid)}"]`);
  return counter && counter.dataset.hex ? centre(svg, counter.dataset.hex) : null;
}

function mapClick(event) {
  if (!S.draft) return;
  const fields = S.draft.spec.fields;
  const active = fields.find((f) => f.name === S.active);
  const counter = event.target.closest("[id^='unit-']") || event.target.closest("[id^='base-'][data-unit]");
  const cell = event.target.closest("[data-hex]");
  const pointField = active && POINT.has(active.type) ? active
    : fields.find((f) => POINT.has(f.type) && f.clicks) || fields.find((f) => POINT.has(f.type));
  if (pointField && !(counter && active && ["unit", "units"].includes(active.type))) {
    const point = tablePoint(event);
    if (point) { S.active = pointField.name; pick(pointField, point); }
    return;
  }
  // A counter picks a unit while a unit field is active; any other click on a hex goes to the
  // active hex field, or else to the first hex field still open (the path after the mover).
  const hexField = active && ["hex", "path"].includes(active.type) ? active
    : fields.find((f) => f.type === "hex" && S.draft.values[f.name] === undefined) || fields.find((f) => f.type === "path");
  let field = null, value = null;
  if (counter && active && ["unit", "units"].includes(active.type)) {
    // a table's base picks itself where bases are asked for (bst's `bases`), else the unit it belongs to
    const own = counter.id.slice(5), choices = S.picks[active.name] || [];
    field = active; value = counter.dataset.unit && !choices.includes(own) ? counter.dataset.unit : own;
  }
  else if (cell && hexField) { field = hexField; value = cell.dataset.hex; }
  if (field === null) return;
  const choices = S.picks[field.name];
  if (choices && !choices.includes(value)) { say(value + " cannot be picked for " + field.label + " now"); return; }
  S.active = field.name;
  pick(field, value);
}

// A table picture's grid lines carry the table units they stand at (pbem/render/table.py): two of each
// way give the scale, so a click becomes a point in whole table units. Reading a picture, not a rule.
function tablePoint(event) {
  const svg = $("map").querySelector("svg");
  const xs = [...svg.querySelectorAll("line.grid[data-x]")], ys = [...svg.querySelectorAll("line.grid[data-y]")];
  if (xs.length < 2 || ys.length < 2) return null;
  const at = svg.createSVGPoint();
  at.x = event.clientX; at.y = event.clientY;
  const p = at.matrixTransform(svg.getScreenCTM().inverse());
  const axis = (lines, coord, value) => {
    const [a, b] = [lines[0], lines[lines.length - 1]];
    const [va, vb] = [Number(a.dataset[coord]), Number(b.dataset[coord])];
    const [pa, pb] = [Number(a.getAttribute(coord + "1")), Number(b.getAttribute(coord + "1"))];
    return Math.round(va + (value - pa) * (vb - va) / (pb - pa));
  };
  return [axis(xs, "x", p.x), axis(ys, "y", p.y)];
}

// --- save, sign, armor ----------------------------------------------------------------------------
function show(answer) {
  const lines = [];
  if (answer.saved === false) lines.push("not saved: fix the problems first");
  if (answer.path) lines.push("wrote " + answer.path + (answer.answer ? " (answer: " + answer.answer + ")" : ""));
  if (answer.signature) lines.push("signed: " + answer.signature + " (send both to the referee)");
  if (answer.sign_command) lines.push("sign it with:\n" + answer.sign_command);
  if (answer.command) lines.push("armor it with:\n" + answer.command);
  if (answer.armor) lines.push(answer.armor);
  $("output").textContent = lines.join("\n");
}

async function save() {
  try {
    const answer = await call("api/save", {orders: S.orders, next: S.next, standing: S.standing});
    if (answer.problems) S.problems = answer.problems;
    show(answer);
    render();
  } catch (error) { say(error.message); }
}

async function armor() {
  try { show(await call("api/armor", {})); } catch (error) { $("output").textContent = error.message; }
}

// --- a decision request -----------------------------------------------------------------------------
function openDecision(desk) {
  $("decision-pane").hidden = false;
  $("report-pane").hidden = true;
  $("decision-title").textContent = `Decision for ${desk.side}: ${desk.topic} (rule ${desk.section})`;
  $("question").textContent = desk.text;
  $("options").replaceChildren(...desk.options.map((o) => el("button", {type: "button", id: "option-" + o.number,
    onclick: async () => {
      try { show(await call("api/answer", {number: o.number})); } catch (error) { $("output").textContent = error.message; }
    }}, `${o.number}: ${o.name || o.text}` + (o.name && o.name !== o.text ? ` (${o.text})` : ""))));
  $("decision-armor").addEventListener("click", armor);
}

// --- start ------------------------------------------------------------------------------------------
async function start() {
  const desk = S.desk = await call("api/desk");
  $("title").textContent = `${desk.game}: ${desk.side}`;
  if (desk.deadline) $("deadline").textContent = "deadline " + desk.deadline;
  if ((desk.warnings || []).length) $("output").textContent = desk.warnings.map((w) => "warning: " + w).join("\n");
  if (desk.mode === "decision") {
    $("phase").textContent = `decision request of adjudication ${desk.seq}`;
    openDecision(desk);
    document.body.dataset.ready = "yes";
    return;
  }
  $("phase").textContent = `orders for seq ${desk.seq}, phase ${desk.phase} (awaiting ${desk.awaiting.join(", ")})`;
  $("report").textContent = desk.report;
  if (desk.svg) {
    $("map").innerHTML = desk.svg;  // drawn by pbem render from this view alone
    $("map").querySelector("svg").addEventListener("click", mapClick);  // hexes are named by data-hex
  }
  $("orders-pane").hidden = false;
  if (!desk.gives_orders) {
    $("no-orders").hidden = false;
    $("no-orders").textContent = `${desk.side} gives no orders in this phase: Save sends orders: [] (an acknowledgement).`;
  } else if (!desk.kinds.length) {
    $("no-orders").hidden = false;
    $("no-orders").textContent = "This game has no clicking rules yet: " + desk.template.join(" | ");
  }
  $("add").addEventListener("click", addOrder);
  $("cancel").addEventListener("click", cancelDraft);
  $("save").addEventListener("click", save);
  $("armor").addEventListener("click", armor);
  $("next-toggle").addEventListener("click", () => { S.next = S.next === null ? [] : null; if (S.draft && S.draft.target === "next") S.draft = null; check(); });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && S.draft) cancelDraft(); });
  render();
  await check();
  document.body.dataset.ready = "yes";
}

start().catch((error) => { say(error.message); $("output").textContent = error.message; });
