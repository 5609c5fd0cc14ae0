/*
 * The dice panel: a Golden Layout pane of Evennia's web client (storyteller_dice).
 *
 * Fed by the server's out-of-band messages, never by polling:
 *   dice_panel {sheet: ...}    the puppet's sheet (typeclasses/panel.py)
 *   dice_panel {odds: ...}     the exact odds of the pool being built, as +odds gives them
 *   dice_panel {rolls: [...]}  the room's recent rolls; {roll: ...} one more as it is shown,
 *                              with its `card` (the stored dice), drawn under its line in the output
 *   dice_panel {actions: [...]} what the game offers now (V5: the Willpower reroll, whose dice
 *                              the player may pick on the roll's card; a contest
 *                              waiting: Answer, with the pool built here, Decline, Withdraw)
 *   dice_panel {cleared: true} the player left the character (ooc): no sheet until the next puppet
 *   char_vitals {...}          the trackers, the same gauges GMCP clients get
 * It asks with the inputfunc `dice_panel` ({hello}, {odds: "<pool> vs <n>"}, {actions}), and
 * rolls by sending the very `+roll ...` line a player types, under the key the game gives
 * our +roll (the sheet's `keys`: DICE_COMMAND_KEYS may rename it; null when it is left out,
 * and then the panel offers no Roll and no Verify: the name would reach the host's command).
 *
 * It also reports the width of the output pane in columns (`client_options` screenwidth), on
 * login and whenever the window or the layout changes size, so the server wraps lines for the
 * window as NAWS does for telnet.
 *
 * Until a character is played (before login, or after `ooc`) the panel is inert: it says so and
 * offers nothing, since every line it sends needs a character.
 *
 * Everything a player or the server wrote (names, traits, comments, summaries) goes into the
 * page as text (textContent), never as HTML.
 */
let dice_panel = (function () {
    "use strict";

    var state = {sheet: null, vitals: null, rolls: [], actions: [], oddsFor: null, width: null};
    var root = null;       // the panel's element
    var body = null;       // what collapses
    var parts = {};        // named elements inside the panel
    var glItem = null;     // the panel's Golden Layout item
    var oddsTimer = null;
    var widthTimer = null;
    var actionTimer = null;
    var MAX_ROLLS = 10;

    // ------------------------------------------------------------ building elements

    function el(tag, attrs, text) {
        var node = document.createElement(tag);
        for (var key in (attrs || {})) {
            if (key === "className") { node.className = attrs[key]; }
            else { node.setAttribute(key, attrs[key]); }
        }
        if (text !== undefined && text !== null) { node.textContent = String(text); }
        return node;
    }

    function button(label, onClick, attrs) {
        var node = el("button", Object.assign({type: "button", className: "dp-btn"}, attrs || {}), label);
        node.addEventListener("click", onClick);
        return node;
    }

    function clear(node) {
        while (node.firstChild) { node.removeChild(node.firstChild); }
    }

    function words(key) {
        var text = String(key).replace(/_/g, " ");
        return text.charAt(0).toUpperCase() + text.slice(1);
    }

    function send(cmdname, kwargs) {
        if (window.Evennia && window.Evennia.isConnected()) {
            window.Evennia.msg(cmdname, [], kwargs);
        }
    }

    function sendLine(line) {
        if (window.Evennia && window.Evennia.isConnected()) {
            window.Evennia.msg("text", [line], {});
        }
    }

    // ------------------------------------------------------------ the panel

    function build() {
        root = el("section", {className: "dice-panel", "aria-label": "Dice"});
        var header = el("div", {className: "dp-header"});
        header.appendChild(el("h2", {className: "dp-title", id: "dp-title"}, "Dice"));
        parts.toggle = button("Hide", toggle, {"aria-expanded": "true", "aria-controls": "dp-body",
                                                "aria-label": "Hide the dice panel", className: "dp-btn dp-toggle"});
        header.appendChild(parts.toggle);
        root.appendChild(header);

        body = el("div", {className: "dp-body", id: "dp-body"});
        parts.notice = el("p", {className: "dp-empty dp-notice"}, "Log in and play a character to roll from this panel.");
        body.appendChild(parts.notice);
        parts.live = el("div", {className: "dp-live"});
        body.appendChild(parts.live);
        parts.actions = el("div", {className: "dp-actions", "aria-live": "polite"});
        parts.live.appendChild(parts.actions);
        // the system's own rolls (V5: Rouse, Remorse, Frenzy), from the sheet message
        parts.tools = el("div", {className: "dp-tools", role: "group", "aria-label": "Other rolls"});

        var form = el("form", {className: "dp-pool", "aria-label": "Roll"});
        form.addEventListener("submit", function (evnt) { evnt.preventDefault(); roll(); });
        var poolLabel = el("label", {"for": "dp-pool", className: "dp-pool-label"}, "Pool");
        parts.pool = el("input", {id: "dp-pool", type: "text", autocomplete: "off", className: "dp-input",
                                  placeholder: "click traits"});
        parts.joiner = el("label", {"for": "dp-target", className: "dp-joiner"}, "vs");
        parts.target = el("input", {id: "dp-target", type: "text", autocomplete: "off", className: "dp-input dp-short"});
        var commentLabel = el("label", {"for": "dp-comment"}, "#");
        parts.comment = el("input", {id: "dp-comment", type: "text", autocomplete: "off", className: "dp-input",
                                     placeholder: "comment", "aria-label": "Comment"});
        parts.clear = button("Clear", function () { parts.pool.value = ""; changed(); parts.pool.focus(); });
        parts.roll = el("button", {type: "submit", className: "dp-btn dp-roll"}, "Roll");
        // the "#" stays with its field when the form wraps (a phone)
        var commentField = el("span", {className: "dp-comment-field"});
        commentField.appendChild(commentLabel);
        commentField.appendChild(parts.comment);
        [poolLabel, parts.pool, parts.joiner, parts.target, commentField, parts.clear, parts.roll]
            .forEach(function (node) { form.appendChild(node); });
        parts.pool.addEventListener("input", changed);
        parts.target.addEventListener("input", changed);
        parts.live.appendChild(form);
        parts.live.appendChild(parts.tools);

        parts.odds = el("div", {className: "dp-odds", "aria-live": "polite", "aria-label": "Odds"});
        parts.live.appendChild(parts.odds);
        // The pool, its odds and the traits first: on a phone a trait and Roll show without
        // scrolling; the trackers and the room's rolls follow.
        parts.sheet = el("div", {className: "dp-sheet"});
        parts.live.appendChild(parts.sheet);
        parts.trackers = el("div", {className: "dp-trackers", "aria-label": "Trackers", role: "group"});
        parts.live.appendChild(parts.trackers);

        parts.live.appendChild(el("h3", {className: "dp-subtitle"}, "Recent rolls"));
        parts.rolls = el("ol", {className: "dp-rolls", "aria-live": "polite"});
        parts.live.appendChild(parts.rolls);
        root.appendChild(body);
        // The web client sends every Enter to the game and moves every other key to its input
        // line (default_in.js, on the document): keys typed in the panel stay in the panel, so
        // its fields take text, Enter presses a button or rolls, and Tab moves through it.
        ["keydown", "keyup"].forEach(function (name) {
            root.addEventListener(name, function (evnt) { evnt.stopPropagation(); });
        });
        drawAll();
        placed();
        return root;
    }

    // Under the output (a narrow window: a phone) or beside it: the trackers lead a panel
    // beside the output; under it, the pool, Roll and the traits come first.
    function placed() {
        if (root) { root.classList.toggle("dp-under", window.innerWidth < 700); }
    }

    function toggle() {
        var open = body.hidden;
        body.hidden = !open;
        parts.toggle.textContent = open ? "Hide" : "Show";
        parts.toggle.setAttribute("aria-expanded", open ? "true" : "false");
        parts.toggle.setAttribute("aria-label", (open ? "Hide" : "Show") + " the dice panel");
        root.classList.toggle("dp-collapsed", !open);
        fitLayout(open);
    }

    // A collapsed panel gives its room back to the other panes (its header stays); opened
    // again, it takes the share it had.
    // `keepHigh`: the pixels kept under the output (64: the header; more for the line that
    // says to log in); `columnOnly`: leave a panel beside the output as it is.
    function fitLayout(open, keepHigh, columnOnly) {
        var slot = glItem;
        while (slot && slot.parent && slot.parent.type !== "row" && slot.parent.type !== "column") { slot = slot.parent; }
        if (!slot || !slot.parent || !slot.parent.element) { return; }
        var parent = slot.parent;
        var dimension = parent.type === "column" ? "height" : "width";
        if (columnOnly && dimension !== "height") { return; }
        try {
            if (!open) {
                // hidden while inert (or the other way round): the share to go back to is kept
                if (!state.shrunk) { state.openShare = slot.config[dimension]; }
                state.shrunk = true;
                var whole = dimension === "height" ? parent.element.height() : parent.element.width();
                var keep = (dimension === "height" ? keepHigh || 64 : 140) / Math.max(whole, 1) * 100;
                share(parent, dimension, Math.min(state.openShare || 100, keep));
            } else {
                state.shrunk = false;
                share(parent, dimension, state.openShare || (dimension === "height" ? 45 : 25));
            }
        } catch (err) { /* a layout the user rearranged: the body is hidden all the same */ }
        widthChanged();
    }

    function drawAll() {
        drawSheet();
        drawTrackers();
        drawActions();
        drawRolls();
        drawOdds(null);
    }

    // ------------------------------------------------------------ sheet and pool

    function drawSheet() {
        if (!parts.sheet) { return; }
        var focused = focusKey();
        state.drawing = true;
        try { clear(parts.sheet); } finally { state.drawing = false; }
        var sheet = state.sheet;
        // Inert until a character is played: nothing to click that would only be refused.
        parts.live.hidden = !sheet;
        parts.notice.hidden = !!sheet;
        inertRoom();
        drawTools();
        if (!sheet) { return; }
        parts.joiner.textContent = sheet.joiner.trim() || sheet.joiner || "target";
        var hint = String(sheet.hint || "").replace(/[<>]/g, "");
        parts.target.setAttribute("placeholder", hint);
        // wide enough for its whole placeholder ("difficulty", "(face,count)")
        parts.target.style.flexBasis = "calc(" + (hint.length + 2) + "ch + 0.8em)";
        parts.target.setAttribute("aria-label", "Target " + String(sheet.hint || "").replace(/[<>]/g, ""));
        parts.target.hidden = !sheet.joiner;
        parts.joiner.hidden = !sheet.joiner;
        parts.roll.hidden = !rollKey();
        var who = el("p", {className: "dp-who"}, sheet.name + " (" + sheet.title + ") ");
        if ("approved" in sheet) {
            who.appendChild(el("span", {className: "dp-approval", "data-approved": sheet.approved ? "yes" : "no"},
                               sheet.approved ? "approved" : "not approved yet"));
        }
        parts.sheet.appendChild(who);
        var edit = editOffer();
        // editing ends with the offer (an approved sheet) and with the character (another played)
        if (!edit || state.editingFor !== sheet.name) { state.editing = false; }
        parts.sheet.classList.toggle("dp-editing", !!state.editing);
        if (edit) { parts.sheet.appendChild(editBar(edit)); }
        var specialties = {};
        (sheet.specialties || []).forEach(function (pair) {
            (specialties[pair[0]] = specialties[pair[0]] || []).push(pair[1]);
        });
        var labels = {};  // trait -> its label on the sheet, for the Specialty form
        sheet.sections.forEach(function (section) {
            if (section.kind === "columns") {
                var box = el("div", {className: "dp-section", role: "group", "aria-label": section.title});
                box.appendChild(el("h3", {className: "dp-subtitle"}, section.title));
                var groups = el("div", {className: "dp-groups"});
                section.rows.forEach(function (row) {
                    var group = el("div", {className: "dp-group"});
                    group.appendChild(el("h4", {className: "dp-group-title"}, row[0]));
                    row[1].forEach(function (trait) {
                        var name = trait[0], value = trait[1], key = name.toLowerCase();
                        labels[key] = name;
                        var editing = state.editing && edit.traits.indexOf(key) >= 0;
                        group.appendChild(editing ? traitEditor(edit, key, name, value) : traitChip(name, value));
                        (specialties[key] || []).forEach(function (specialty) {
                            group.appendChild(editing ? specialtyEditor(edit, key, name, specialty)
                                                      : specialtyChip(name, specialty));
                        });
                    });
                    groups.appendChild(group);
                });
                box.appendChild(groups);
                parts.sheet.appendChild(box);
            } else {
                var line = el("p", {className: "dp-line"});
                line.appendChild(el("strong", {}, section.title + ": "));
                line.appendChild(document.createTextNode((section.boxes ? section.boxes + " " : "") + section.text));
                parts.sheet.appendChild(line);
            }
        });
        if (state.editing && edit.specialty) { parts.sheet.appendChild(specialtyForm(edit, labels)); }
        refocus(focused);
    }

    function traitChip(name, value) {
        return button(name + " " + value, function () { addTrait(name); },
                      {className: "dp-btn dp-trait", "aria-label": "Add " + name + " (" + value + ") to the pool",
                       "data-trait": name.toLowerCase()});
    }

    function specialtyChip(name, specialty) {
        return button("\u21b3 " + specialty, function () { addTrait(name, specialty); },
            {className: "dp-btn dp-trait dp-specialty", "data-trait": name.toLowerCase(),
             "data-specialty": specialty,
             "aria-label": "Add " + name + " with the " + specialty + " Specialty to the pool"});
    }

    // ------------------------------------------------------------ setting the sheet

    // What the player may still set from here (the sheet's `edit`: null once it is approved,
    // or where the game has no +stat for them). Every control sends the `+stat` line a player
    // types, under the key the game gives it: its rules, ranges and refusals are the command's,
    // and its answer shows in the output.
    function editOffer() {
        var edit = state.sheet && state.sheet.edit;
        return edit && edit.command && edit.traits ? edit : null;
    }

    var MAX_TYPED = 80;  // characters of a value or a Specialty's name sent from the panel

    // One line of text as typed: no control characters (no second line), trimmed, bounded.
    function typed(text) {
        return String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ").trim().slice(0, MAX_TYPED);
    }

    function editBar(edit) {
        var bar = el("div", {className: "dp-edit-bar"});
        var hint = el("p", {className: "dp-edit-hint"});
        var said = state.editing
            ? ["Set a trait with \u2212 and +, or type its value and press Enter: each change is a ",
               " line, answered in the output. Staff approve the sheet when it is done."]
            : ["Set your traits here with Edit sheet, or type ", "."];
        hint.appendChild(document.createTextNode(said[0]));
        hint.appendChild(el("span", {className: "dp-edit-line"}, edit.command + " <trait>=<value>"));
        hint.appendChild(document.createTextNode(said[1]));
        bar.appendChild(hint);
        bar.appendChild(button(state.editing ? "Done editing" : "Edit sheet", toggleEditing,
            {className: "dp-btn dp-edit-toggle", "aria-pressed": state.editing ? "true" : "false",
             "data-focus": "edit-toggle"}));
        return bar;
    }

    function toggleEditing() {
        state.editing = !state.editing;
        state.editingFor = state.sheet && state.sheet.name;
        drawSheet();
    }

    function setTrait(edit, trait, value) {
        var text = typed(value);
        if (text) { sendLine(edit.command + " " + trait + "=" + text); }
    }

    function traitEditor(edit, key, name, value) {
        var row = el("div", {className: "dp-edit-row", "data-trait": key});
        var field = "dp-edit-" + key.replace(/[^a-z0-9]+/g, "-");
        row.appendChild(el("label", {className: "dp-edit-name", "for": field}, name));
        var number = Number(value);
        var lower = button("\u2212", function () { setTrait(edit, key, String(number - 1)); },
            {className: "dp-btn dp-step dp-lower", "aria-label": "Lower " + name + " to " + (number - 1),
             "data-focus": "lower:" + key});
        var input = el("input", {id: field, type: "text", inputmode: "numeric", autocomplete: "off",
                                 className: "dp-input dp-edit-value", "data-focus": "value:" + key,
                                 "aria-label": name + " (now " + value + ")"});
        input.defaultValue = String(value);
        // Once per field: Enter sends, and the field, gone when the sheet comes back, must not
        // send it again as it loses focus (nor send what is typed in it while the sheet is
        // drawn again for another change: that stays in the new field).
        var sent = false;
        var sendTyped = function () {
            if (sent || state.drawing || !input.isConnected) { return; }
            if (typed(input.value) && typed(input.value) !== String(value)) {
                sent = true;
                input.setAttribute("data-sent", "yes");  // not typed any more: sent
                setTrait(edit, key, input.value);
            }
        };
        input.addEventListener("keydown", function (evnt) {
            if (evnt.key === "Enter") { evnt.preventDefault(); sendTyped(); }
        });
        input.addEventListener("change", sendTyped);
        var raise = button("+", function () { setTrait(edit, key, String(number + 1)); },
            {className: "dp-btn dp-step dp-raise", "aria-label": "Raise " + name + " to " + (number + 1),
             "data-focus": "raise:" + key});
        [lower, input, raise].forEach(function (node) { row.appendChild(node); });
        return row;
    }

    function specialtyEditor(edit, key, name, specialty) {
        var word = edit.specialty ? edit.specialty.word : "Specialty";
        var row = el("div", {className: "dp-edit-spec", "data-trait": key, "data-specialty": specialty});
        row.appendChild(el("span", {className: "dp-edit-spec-name"}, "\u21b3 " + specialty));
        row.appendChild(button("Remove", function () {
            if (edit.specialty) {
                sendLine(edit.command + "/remove " + edit.specialty.keyword + " " + key + "=" + specialty);
            }
        }, {className: "dp-btn dp-spec-remove", "aria-label": "Remove the " + word + " " + specialty + " from " + name,
            "data-focus": "remove:" + key + ":" + specialty}));
        return row;
    }

    // One form for a new Specialty: the trait (of those that take one) and its name.
    function specialtyForm(edit, labels) {
        var offer = edit.specialty;
        var form = el("form", {className: "dp-spec-form", "aria-label": "Add a " + offer.word});
        form.appendChild(el("h3", {className: "dp-subtitle"}, "Add a " + offer.word));
        var pick = el("select", {className: "dp-input dp-spec-trait", "aria-label": "Trait", "data-focus": "spec-trait"});
        offer.traits.forEach(function (trait) {
            var option = el("option", {value: trait}, labels[trait] || words(trait));
            pick.appendChild(option);
        });
        if (state.specTrait && offer.traits.indexOf(state.specTrait) >= 0) { pick.value = state.specTrait; }
        pick.addEventListener("change", function () { state.specTrait = pick.value; });
        var name = el("input", {type: "text", autocomplete: "off", className: "dp-input dp-spec-name",
                                maxlength: String(MAX_TYPED), placeholder: offer.word.toLowerCase(),
                                "aria-label": offer.word + " name", "data-focus": "spec-name"});
        name.value = state.specName || "";  // kept while the sheet is drawn again
        name.addEventListener("input", function () { state.specName = name.value; });
        var add = el("button", {type: "submit", className: "dp-btn dp-spec-add", "data-focus": "spec-add"}, "Add");
        form.addEventListener("submit", function (evnt) {
            evnt.preventDefault();
            var text = typed(name.value);
            if (!text) { name.focus(); return; }
            state.specTrait = pick.value;
            sendLine(edit.command + " " + offer.keyword + " " + pick.value + "=" + text);
            name.value = state.specName = "";
        });
        [pick, name, add].forEach(function (node) { form.appendChild(node); });
        return form;
    }

    // A sheet drawn again (after each change, whoever made it) keeps the keyboard where it was,
    // and a value being typed (not sent yet) in the field it is typed in.
    function focusKey() {
        var active = document.activeElement;
        if (!active || !parts.sheet || !parts.sheet.contains(active)) { return null; }
        var typing = active.tagName === "INPUT" && active.value !== active.defaultValue && !active.getAttribute("data-sent");
        return {key: active.getAttribute("data-focus"), typed: typing ? active.value : null};
    }

    function refocus(focused) {
        if (!focused || !focused.key) { return; }
        var found = [].filter.call(parts.sheet.querySelectorAll("[data-focus]"), function (node) {
            return node.getAttribute("data-focus") === focused.key; });
        if (!found.length) { return; }
        if (focused.typed !== null && found[0].tagName === "INPUT") { found[0].value = focused.typed; }
        found[0].focus();
    }

    // Under the output (a phone), an inert panel keeps only the room of its line; it takes its
    // share back when a character is played.
    var INERT_HIGH = 110;
    function inertRoom() {
        var inert = !state.sheet;
        if (inert === state.inert) { return; }
        var first = state.inert === undefined;
        state.inert = inert;
        if (body && !body.hidden && !(first && !inert)) { fitLayout(!inert, INERT_HIGH, true); }
    }

    function drawTools() {
        clear(parts.tools);
        var tools = (state.sheet && state.sheet.tools) || [];
        parts.tools.hidden = !tools.length;
        tools.forEach(function (tool) {
            parts.tools.appendChild(button(tool.label, function () { useTool(tool); },
                                           {className: "dp-btn dp-tool", "data-command": tool.command}));
        });
    }

    // A tool's line as a player types it; a frenzy test takes the difficulty in the target field.
    function useTool(tool) {
        var target = parts.target.value.trim();
        var joiner = (state.sheet && state.sheet.joiner) || " vs ";
        sendLine(tool.command + (tool.target && target ? joiner + target : ""));
    }

    function addTrait(name, specialty) {
        var pool = parts.pool.value.trim();
        var term = name.toLowerCase() + (specialty ? "(" + specialty + ")" : "");
        parts.pool.value = pool ? pool + "+" + term : term;
        changed();
    }

    function poolText() {
        var pool = parts.pool.value.trim();
        var target = parts.target.value.trim();
        if (!pool) { return ""; }
        if (target && state.sheet && state.sheet.joiner) { return pool + state.sheet.joiner + target; }
        return pool;
    }

    function changed() {
        if (state.hinted) { state.hinted = false; drawOdds(null); }  // the pool it asked for is coming
        clearTimeout(oddsTimer);
        oddsTimer = setTimeout(askOdds, 200);
    }

    function askOdds() {
        var text = poolText();
        state.oddsFor = text;
        if (!text) { drawOdds(null); return; }
        send("dice_panel", {odds: text});
    }

    function drawOdds(odds) {
        if (!parts.odds) { return; }
        clear(parts.odds);
        if (!odds) {
            parts.odds.appendChild(el("p", {className: "dp-empty"}, "Build a pool to see its exact odds."));
            return;
        }
        if (odds.error) {
            parts.odds.appendChild(el("p", {className: "dp-error"}, odds.error));
            return;
        }
        parts.odds.appendChild(el("p", {className: "dp-odds-pool"}, "Odds: " + odds.pool + (odds.target ? ", " + odds.target : "")));
        var list = el("dl", {className: "dp-chances"});
        odds.chances.forEach(function (chance) {
            list.appendChild(el("dt", {className: "dp-tone-" + chance.tone}, chance.label));
            list.appendChild(el("dd", {}, chance.percent));
        });
        parts.odds.appendChild(list);
        (odds.notes || []).forEach(function (note) { parts.odds.appendChild(el("p", {className: "dp-note"}, note)); });
    }

    // The key our +roll answers to in this game ("+roll" from a server that does not say).
    function rollKey() {
        var keys = (state.sheet && state.sheet.keys) || {};
        return "+roll" in keys ? keys["+roll"] : "+roll";
    }

    function roll() {
        if (!rollKey()) { return; }
        var text = poolText();
        if (!text) { parts.pool.focus(); return; }
        var comment = parts.comment.value.trim();
        sendLine(rollKey() + " " + text + (comment ? " # " + comment : ""));
    }

    // ------------------------------------------------------------ trackers and actions

    function drawTrackers() {
        if (!parts.trackers) { return; }
        clear(parts.trackers);
        var vitals = state.vitals || {};
        Object.keys(vitals).forEach(function (key) {
            var value = vitals[key];
            var item = el("div", {className: "dp-tracker", "data-tracker": key});
            item.appendChild(el("span", {className: "dp-tracker-name"}, words(key)));
            if (value !== null && typeof value === "object" && "current" in value) {
                var shown = value.current + (value.max !== undefined ? "/" + value.max : "");
                if (value.level) { shown += " " + value.level; }
                item.appendChild(el("span", {className: "dp-tracker-value"}, shown));
                if (value.max && "superficial" in value && "aggravated" in value) {
                    item.appendChild(boxes(key, value));
                } else if (value.max) {
                    var meter = el("meter", {min: "0", max: String(value.max), value: String(value.current),
                                             "aria-label": words(key)});
                    item.appendChild(meter);
                }
            } else {
                item.appendChild(el("span", {className: "dp-tracker-value"}, value));
            }
            parts.trackers.appendChild(item);
        });
        if (state.sheet && state.sheet.impaired) {
            parts.trackers.appendChild(el("div", {className: "dp-impaired", "data-tracker": "impaired"}, "Impaired"));
        }
    }

    // A track's boxes as the sheet draws them: aggravated (X), then superficial (/), then
    // whole; the numbers beside them stay the text a screen reader reads.
    var MAX_BOXES = 30;
    function boxes(key, value) {
        var row = el("span", {className: "dp-boxes", "aria-hidden": "true", "data-boxes": key});
        var total = Math.min(Number(value.max) || 0, MAX_BOXES);
        for (var i = 0; i < total; i++) {
            var kind = i < value.aggravated ? "aggravated" : (i < value.aggravated + value.superficial ? "superficial" : "whole");
            row.appendChild(el("span", {className: "dp-box dp-box-" + kind, "data-box": kind},
                               kind === "aggravated" ? "X" : (kind === "superficial" ? "/" : "")));
        }
        return row;
    }

    function drawActions() {
        if (!parts.actions) { return; }
        clear(parts.actions);
        clearTimeout(actionTimer);
        var now = Date.now();
        state.actions = state.actions.filter(function (action) { return !action.until || action.until > now; });
        state.actions.forEach(function (action) {
            var left = action.until ? Math.ceil((action.until - now) / 60000) : null;
            var label = action.label + (left ? " (" + left + " min left)" : "");
            parts.actions.appendChild(button(label, function () { useAction(action); },
                                             {className: "dp-btn dp-action", "data-command": action.command}));
        });
        if (state.actions.length) { actionTimer = setTimeout(drawActions, 30000); }
        drawPick();  // an offer gone (used, or out of time) ends the card's pick
    }

    // An offer is used once: it goes at once, and the server says a moment later what the
    // game offers now (a refused command shows no roll that would ask).
    function useAction(action) {
        if (action.pool) {  // answered with the pool built in the panel (its own side)
            var pool = parts.pool.value.trim();
            if (!pool) {
                drawOdds({error: "Build your pool (click traits), then " + action.label + "."});
                state.hinted = true;
                parts.pool.focus();
                return;
            }
            sendLine(action.command + " " + pool);
        } else {
            sendLine(action.command);
        }
        state.actions = state.actions.filter(function (each) { return each !== action; });
        drawActions();
        setTimeout(function () { if (state.sheet) { send("dice_panel", {actions: true}); } }, 1500);
    }

    // ------------------------------------------------------------ recent rolls

    function drawRolls() {
        if (!parts.rolls) { return; }
        clear(parts.rolls);
        if (!state.rolls.length) {
            parts.rolls.appendChild(el("li", {className: "dp-empty"}, "No rolls here yet."));
            return;
        }
        state.rolls.slice().reverse().forEach(function (item) {
            var li = el("li", {className: "dp-roll-item"});
            li.appendChild(el("span", {className: "dp-roll-who"}, item.who + ": "));
            li.appendChild(el("span", {className: "dp-roll-what"},
                              (item.pool ? item.pool + (item.target ? " " + item.target : "") + " - " : "") + item.summary + " "));
            if (rollKey()) {
                li.appendChild(button(item.code, function () { sendLine(rollKey() + "/verify " + item.code); },
                                      {className: "dp-btn dp-code", "aria-label": "Verify roll " + item.code}));
            } else {
                li.appendChild(el("span", {className: "dp-roll-code"}, item.code));
            }
            parts.rolls.appendChild(li);
        });
    }

    // ------------------------------------------------------------ result cards

    // A roll shown to this player, drawn under its line in the output: every die, regular and
    // Hunger apart, its marks as classes (criticals, messy, bestial by the outcome's key). The
    // line above stays the record; the card is hidden from screen readers, which read the line
    // (all but the buttons of a Willpower pick while it is offered: see below).
    // Classes only, no data- attributes: nothing in the output looks like the client's links.
    function safeClass(text) {
        return String(text).replace(/[^A-Za-z0-9_-]/g, "");
    }

    function drawCard(item) {
        var pane = document.getElementById("messagewindow");
        if (!pane || !item.card || !item.card.length) { return; }
        var card = el("div", {className: "dp-card dp-card-" + safeClass(item.code), "aria-hidden": "true"});
        item.card.forEach(function (side) {
            var part = el("div", {className: "dp-card-side dp-outcome-" + safeClass(side.outcome.key)});
            if (side.label) { part.appendChild(el("div", {className: "dp-card-label"}, side.label)); }
            side.groups.forEach(function (group) {
                var row = el("div", {className: "dp-card-group"});
                row.appendChild(el("span", {className: "dp-card-group-label"}, group.label));
                group.dice.forEach(function (die) {
                    var marks = (die[1] || []).map(function (m) { return "dp-die-" + safeClass(m); });
                    row.appendChild(el("span", {className: "dp-die " + marks.join(" ")}, Number(die[0])));
                });
                part.appendChild(row);
            });
            var verdict = el("div", {className: "dp-card-outcome dp-tone-" + side.outcome.tone});
            // the score, unless the outcome's words start with it (a Rouse check's "1 passed, ...")
            var said = side.score && side.outcome.label.indexOf(side.score) !== 0;
            verdict.textContent = (said ? side.score + ": " : "") + side.outcome.label;
            part.appendChild(verdict);
            card.appendChild(part);
        });
        card.appendChild(el("div", {className: "dp-card-code"}, item.code));
        var atBottom = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
        pane.appendChild(card);
        if (atBottom) { pane.scrollTop = pane.scrollHeight; }
        drawPick();
    }

    // ------------------------------------------------------------ the card's Willpower pick

    // While the game offers a Willpower reroll with its dice (the offer's `dice`: the roll's
    // code, its regular faces, the dice +willpower alone takes, the most it takes, the switch
    // that names dice by position), the card of that roll lets the player pick them: its
    // regular dice become toggle buttons, and Reroll sends the line a player would type
    // (`+willpower/position 1 3`). Only those controls are read by a screen reader; the rest
    // of the card stays hidden (the line is the record). Once the offer goes (the reroll made,
    // the window closed) the buttons are disabled and the card hidden again.
    var pick = null;  // {code, card, action, most, chosen: {index: true}, buttons, go, note}

    function pickOffer() {
        var found = state.actions.filter(function (action) {
            return action.dice && action.dice.code && Array.isArray(action.dice.regular);
        });
        return found.length ? found[0] : null;
    }

    function drawPick() {
        var offer = pickOffer();
        if (pick && (!offer || offer.dice.code !== pick.code)) { endPick(); }
        if (!offer) { return; }
        if (pick) { pick.action = offer; return; }
        var card = cardOf(offer.dice.code);
        var row = card && regularRow(card, offer.dice.regular);
        if (row) { startPick(card, row, offer); }
    }

    function cardOf(code) {
        var found = document.querySelectorAll("#messagewindow .dp-card.dp-card-" + safeClass(code));
        return found.length ? found[found.length - 1] : null;
    }

    // The row of the player's regular dice: on the side labelled with their name first (a
    // contest, a teamwork roll), else on the card's only side; the first row showing exactly
    // those faces (regular dice come before Hunger dice).
    function regularRow(card, faces) {
        var name = state.sheet ? state.sheet.name : null;
        var sides = Array.prototype.slice.call(card.querySelectorAll(".dp-card-side"));
        var own = sides.filter(function (side) {
            var label = side.querySelector(".dp-card-label");
            return label && label.textContent === name;
        });
        var wanted = faces.map(Number).join(" ");
        var order = own.concat(sides.filter(function (side) { return own.indexOf(side) < 0; }));
        for (var i = 0; i < order.length; i++) {
            var rows = order[i].querySelectorAll(".dp-card-group");
            for (var j = 0; j < rows.length; j++) {
                var shown = Array.prototype.map.call(rows[j].querySelectorAll(".dp-die"), function (die) {
                    return Number(die.textContent); });
                if (shown.join(" ") === wanted) { return rows[j]; }
            }
        }
        return null;
    }

    function startPick(card, row, offer) {
        // output read to its end stays at its end: the buttons and Reroll show without scrolling
        var pane = document.getElementById("messagewindow");
        var atBottom = pane && pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
        var most = Number(offer.dice.most) || 1;
        pick = {code: offer.dice.code, card: card, action: offer, most: most, chosen: {}, buttons: []};
        (offer.dice.picks || []).slice(0, most).forEach(function (index) { pick.chosen[index] = true; });
        card.removeAttribute("aria-hidden");
        Array.prototype.forEach.call(card.querySelectorAll(".dp-card-label, .dp-card-group, .dp-card-outcome, .dp-card-code"),
            function (part) { if (part !== row) { part.setAttribute("aria-hidden", "true"); } });
        var label = row.querySelector(".dp-card-group-label");
        if (label) { label.setAttribute("aria-hidden", "true"); }
        row.setAttribute("role", "group");
        row.setAttribute("aria-label", "Your dice to reroll with Willpower, at most " + most);
        Array.prototype.forEach.call(row.querySelectorAll(".dp-die"), function (face, index) {
            var die = el("button", {type: "button", className: face.className.replace(/ dp-pick\b/g, "") + " dp-pick",
                                    "aria-label": "Die " + (index + 1) + ", showing " + face.textContent},
                         face.textContent);
            die.addEventListener("click", function () { toggleDie(index); });
            row.replaceChild(die, face);
            pick.buttons.push(die);
        });
        var old = card.querySelector(".dp-pick-bar");  // an offer made again for this card
        if (old) { card.removeChild(old); }
        var bar = el("div", {className: "dp-pick-bar"});
        pick.go = button("", rerollPicked, {className: "dp-btn dp-pick-go"});
        pick.note = el("span", {className: "dp-pick-note", "aria-live": "polite"});
        // the dice do not look like buttons until pressed: say that they are
        bar.appendChild(el("span", {className: "dp-pick-hint"}, "Pick up to " + most + " of your dice:"));
        bar.appendChild(pick.go);
        bar.appendChild(pick.note);
        card.appendChild(bar);
        card.classList.add("dp-picking");
        card.classList.remove("dp-picked");
        // keys stay on the card (the web client sends every Enter to the game)
        ["keydown", "keyup"].forEach(function (name) {
            card.addEventListener(name, function (evnt) { evnt.stopPropagation(); });
        });
        showPick();
        if (atBottom) { pane.scrollTop = pane.scrollHeight; }
    }

    function chosenIndexes() {
        return Object.keys(pick.chosen).map(Number).sort(function (a, b) { return a - b; });
    }

    function showPick() {
        var count = chosenIndexes().length;
        pick.buttons.forEach(function (die, index) {
            die.setAttribute("aria-pressed", pick.chosen[index] ? "true" : "false");
        });
        pick.go.textContent = "Reroll with Willpower (" + count + ")";
        pick.go.disabled = !count;
    }

    function toggleDie(index) {
        if (!pick) { return; }
        if (pick.chosen[index]) {
            delete pick.chosen[index];
        } else if (chosenIndexes().length >= pick.most) {
            pick.note.textContent = "Willpower rerolls at most " + pick.most + " dice: release one first.";
            return;
        } else {
            pick.chosen[index] = true;
        }
        pick.note.textContent = "";
        showPick();
    }

    function rerollPicked() {
        if (!pick) { return; }
        var places = chosenIndexes().map(function (index) { return index + 1; });
        if (!places.length) { return; }
        var action = pick.action;
        sendLine(action.command + action.dice["switch"] + " " + places.join(" "));
        endPick();
        state.actions = state.actions.filter(function (each) { return each !== action; });
        drawActions();
        setTimeout(function () { if (state.sheet) { send("dice_panel", {actions: true}); } }, 1500);
    }

    // The pick is over: its controls stay to show what was picked, disabled, and the card is
    // hidden from screen readers again.
    function endPick() {
        if (!pick) { return; }
        pick.buttons.forEach(function (die) { die.disabled = true; });
        pick.go.disabled = true;
        pick.note.textContent = "";
        pick.card.classList.remove("dp-picking");
        pick.card.classList.add("dp-picked");
        pick.card.setAttribute("aria-hidden", "true");
        pick = null;
    }

    // ------------------------------------------------------------ messages from the server

    // What the server sends, without the "options" Evennia adds to every message.
    function payload(kwargs) {
        var data = Object.assign({}, kwargs || {});
        delete data.options;
        return data;
    }

    function onPanel(args, kwargs) {
        kwargs = payload(kwargs);
        if (kwargs.cleared) {  // the player left the character: no sheet, gauges or offers
            state.sheet = null; state.vitals = null; state.actions = [];
            drawSheet(); drawTrackers(); drawActions();
        }
        if (kwargs.sheet) {
            var first = !state.sheet;
            state.sheet = kwargs.sheet; drawSheet(); drawRolls();
            drawTrackers();
            if (first) { drawActions(); }
            // a change of the sheet (Willpower spent elsewhere) may end an offer
            if (state.actions.length) { send("dice_panel", {actions: true}); }
        }
        if (kwargs.odds) {
            if (kwargs.odds.typed === state.oddsFor) { drawOdds(kwargs.odds); }
        }
        if (kwargs.rolls) { state.rolls = kwargs.rolls.slice(-MAX_ROLLS); drawRolls(); }
        if (kwargs.roll) {
            state.rolls.push(kwargs.roll);
            state.rolls = state.rolls.slice(-MAX_ROLLS);
            drawRolls();
            if (kwargs.roll.card) { drawCard(kwargs.roll); }
            // A roll of ours may open (or a reroll close) a system's window: ask what it offers.
            if (state.sheet && kwargs.roll.who === state.sheet.name) { send("dice_panel", {actions: true}); }
        }
        if (kwargs.actions) {
            var now = Date.now();
            state.actions = kwargs.actions.map(function (action) {
                return {label: action.label, command: action.command, pool: !!action.pool,
                        until: action.seconds ? now + action.seconds * 1000 : null, dice: action.dice || null};
            });
            // how many answers came: the page's tests wait for the one after a roll
            state.answers = (state.answers || 0) + 1;
            parts.actions.setAttribute("data-answers", String(state.answers));
            drawActions();
        }
    }

    function onVitals(args, kwargs) {
        state.vitals = payload(kwargs);
        drawTrackers();
    }

    // ------------------------------------------------------------ the window's width

    // How many characters of the output font fit across the main output pane.
    function columns() {
        var pane = document.getElementById("messagewindow");
        if (!pane || !pane.clientWidth) { return null; }
        var probe = el("span", {className: "dp-probe", "aria-hidden": "true"}, "0123456789".repeat(10));
        pane.appendChild(probe);
        var charWidth = probe.getBoundingClientRect().width / 100;
        pane.removeChild(probe);
        var style = window.getComputedStyle(pane);
        var inner = pane.clientWidth - parseFloat(style.paddingLeft || 0) - parseFloat(style.paddingRight || 0);
        return charWidth > 0 ? Math.floor(inner / charWidth) : null;
    }

    function reportWidth(force) {
        var cols = columns();
        if (!cols || !(window.Evennia && window.Evennia.isConnected())) { return; }
        if (force || cols !== state.width) {
            state.width = cols;
            window.Evennia.msg("client_options", [], {screenwidth: cols});
        }
    }

    function widthChanged() {
        clearTimeout(widthTimer);
        widthTimer = setTimeout(function () { reportWidth(false); }, 250);
    }

    // ------------------------------------------------------------ Golden Layout

    function registerComponent() {
        var layout = window.plugins["goldenlayout"] && window.plugins["goldenlayout"].getGL();
        if (!layout) { return; }
        layout.registerComponent("dicepanel", function (container) {
            glItem = container.parent;
            container.getElement().append(root || build());
            container.on("resize", widthChanged);
        });
        layout.on("stateChanged", widthChanged);
    }

    // Golden Layout gives a new item an equal share: the panel gets `percent` of the row or
    // column, the others keep their proportions in the rest.
    function holdsPanel(item) {
        return item.config.componentName === "dicepanel" || item.contentItems.some(holdsPanel);
    }

    function share(parent, dimension, percent, holds) {
        holds = holds || holdsPanel;
        var others = parent.contentItems.filter(function (item) { return !holds(item); });
        var total = others.reduce(function (sum, item) { return sum + (item.config[dimension] || 0); }, 0) || 1;
        // output read to its end stays at its end when its pane changes size
        var pane = document.getElementById("messagewindow");
        var atEnd = pane && pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
        parent.contentItems.forEach(function (item) {
            item.config[dimension] = holds(item) ? percent
                : (item.config[dimension] || 0) / total * (100 - percent);
        });
        parent.callDownwards("setSize");
        if (atEnd) { pane.scrollTop = pane.scrollHeight; }
    }

    // ------------------------------------------------------------ the input line on a phone

    // Evennia gives its input pane a fifth of the window: 144 px of a phone's 844 for one line.
    // On a narrow window it gets one line (and its tab), and grows with what is typed into it,
    // up to five lines, back to one once sent.
    function holdsInput(item) {
        return item.config.componentName === "input" || item.contentItems.some(holdsInput);
    }

    function inputSlot() {
        var layout = window.plugins["goldenlayout"] && window.plugins["goldenlayout"].getGL();
        if (!layout || !layout.root) { return null; }
        var inputs = layout.root.getItemsByType("component").filter(function (item) {
            return item.config.componentName === "input"; });
        var slot = inputs.length ? inputs[inputs.length - 1] : null;
        while (slot && slot.parent && slot.parent.type !== "column") { slot = slot.parent; }
        return slot && slot.parent ? slot : null;
    }

    // The lines the typed text takes (1 to 5): the field fills its pane, so its scroll height
    // says how tall the pane is, not the text; measured with the field shrunk for a moment.
    function typedLines(field, line) {
        if (!field.value) { return 1; }
        var kept = field.style.height;
        field.style.height = "0px";
        var high = field.scrollHeight;
        field.style.height = kept;
        var style = window.getComputedStyle(field);
        var padding = parseFloat(style.paddingTop || 0) + parseFloat(style.paddingBottom || 0);
        return Math.min(5, Math.max(1, Math.ceil((high - padding - 1) / line)));
    }

    function fitInput() {
        if (window.innerWidth >= 700) { return; }
        var slot = inputSlot();
        var field = document.querySelector("textarea.inputfield");
        if (!slot || !field || !slot.parent.element) { return; }
        var line = parseFloat(window.getComputedStyle(field).lineHeight) || 20;
        var header = (slot.layoutManager.config.dimensions || {}).headerHeight || 20;
        var style = window.getComputedStyle(field);
        var chrome = ["paddingTop", "paddingBottom", "borderTopWidth", "borderBottomWidth"].reduce(function (sum, key) {
            return sum + (parseFloat(style[key]) || 0); }, 0);
        var pixels = header + Math.ceil(typedLines(field, line) * line + chrome + 4);
        var percent = pixels / Math.max(slot.parent.element.height(), 1) * 100;
        if (Math.abs((slot.config.height || 0) - percent) < 0.5) { return; }
        try { share(slot.parent, "height", percent, holdsInput); } catch (err) { /* a rearranged layout */ }
    }

    // The panel beside the output on a wide window, under it on a narrow one (a phone).
    function addToLayout() {
        var layout = window.plugins["goldenlayout"] && window.plugins["goldenlayout"].getGL();
        if (!layout || !layout.root || layout.root.getItemsByType("component").some(function (item) {
            return item.config.componentName === "dicepanel"; })) { return; }
        var config = {type: "component", componentName: "dicepanel", title: "Dice", isClosable: false};
        var mains = layout.root.getItemsByType("component").filter(function (item) {
            return item.config.componentName === "Main"; });
        var main = mains.length ? mains[0] : null;
        var narrow = window.innerWidth < 700;
        if (main && !narrow) {
            var row = main.parent;
            while (row && row.type !== "row" && row.parent) { row = row.parent; }
            if (row && row.type === "row") { row.addChild(config); share(row, "width", 25); return; }
        }
        var column = main ? main.parent : null;
        while (column && column.type !== "column" && column.parent) { column = column.parent; }
        if (column && column.type === "column") {
            var index = column.contentItems.length > 1 ? column.contentItems.length - 1 : column.contentItems.length;
            column.addChild(config, index);
            share(column, "height", narrow ? 58 : 45);
            if (!state.sheet) { state.inert = undefined; state.shrunk = false; inertRoom(); }
            if (narrow) { setTimeout(fitInput, 0); }
        } else if (layout.root.contentItems.length) {
            layout.root.contentItems[0].addChild(config);
        }
    }

    // ------------------------------------------------------------ the plugin's hooks

    var init = function () {
        window.Evennia.emitter.on("dice_panel", onPanel);
        window.Evennia.emitter.on("char_vitals", onVitals);
        registerComponent();
        $(window).on("resize", widthChanged);
        $(window).on("resize", placed);
        // typed into, and sent (the client empties the field on Enter, after this listener)
        ["input", "keyup", "keydown"].forEach(function (name) {
            document.addEventListener(name, function (evnt) {
                if (evnt.target && evnt.target.classList && evnt.target.classList.contains("inputfield")) {
                    setTimeout(fitInput, 0);
                }
            });
        });
    };

    // On load: the width as soon as the websocket is open (Evennia's client gives plugins no
    // hook for that), so the connection screen's replies are already wrapped for the window.
    function reportOnConnect(tries) {
        if (window.Evennia && window.Evennia.isConnected()) { reportWidth(true); return; }
        if (tries > 0) { setTimeout(function () { reportOnConnect(tries - 1); }, 250); }
    }

    var postInit = function () {
        addToLayout();
        reportOnConnect(40);
    };

    var onLayoutChanged = function () {
        registerComponent();
        setTimeout(addToLayout, 0);
    };

    var onLoggedIn = function () {
        send("dice_panel", {hello: true});
        reportWidth(true);
    };

    var onConnectionClose = function () {
        state.width = null;
        state.sheet = null; state.vitals = null; state.actions = [];
        drawSheet(); drawTrackers(); drawActions();
    };

    return {
        init: init,
        postInit: postInit,
        onLayoutChanged: onLayoutChanged,
        onLoggedIn: onLoggedIn,
        onConnectionClose: onConnectionClose,
        columns: columns,
        reportWidth: reportWidth,
    };
}());
window.plugin_handler.add("dice_panel", dice_panel);
